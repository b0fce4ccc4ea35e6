package io.tern.benchmark.raft;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.io.MD5Hash;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.util.LifeCycle;
import org.apache.ratis.util.MD5FileUtil;

/**
 * The smallest state machine that lets Ratis run as a replicated log: it records the last applied
 * index and acknowledges each with an empty reply (the default would echo the 1 KiB entry back).
 * For the snapshot measurement it writes, on request, a snapshot file of a given size, and installs
 * one received from the leader the way Ratis expects (pause, then reinitialize from the files).
 */
final class RatisStateMachine extends BaseStateMachine {
  private static final int SNAPSHOT_BLOCK_BYTES = 1 << 20;

  private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();

  /** Size of the next snapshot; 0 declines snapshots (Ratis asks for one at every stop). */
  private volatile long nextSnapshotBytes;

  /**
   * The latest snapshot, cached: Ratis asks for it on every pass of every log appender, and
   * SimpleStateMachineStorage answers "none" by listing the directory each time, which made the
   * whole cluster crawl.
   */
  private volatile SingleFileSnapshotInfo latestSnapshot;

  /** System.nanoTime() when a snapshot sent by the leader was installed. */
  private final CompletableFuture<Long> installedNs = new CompletableFuture<>();

  @Override
  public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage)
      throws IOException {
    getLifeCycle().transition(LifeCycle.State.STARTING);
    super.initialize(server, groupId, raftStorage);
    storage.init(raftStorage);
    loadLatestSnapshot();
    getLifeCycle().transition(LifeCycle.State.RUNNING);
  }

  @Override
  public SimpleStateMachineStorage getStateMachineStorage() {
    return storage;
  }

  @Override
  public SingleFileSnapshotInfo getLatestSnapshot() {
    return latestSnapshot;
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    LogEntryProto entry = trx.getLogEntry();
    updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
    return CompletableFuture.completedFuture(Message.EMPTY);
  }

  /** The next {@link #takeSnapshot()} writes a snapshot of this many bytes. */
  void prepareSnapshot(long bytes) {
    nextSnapshotBytes = bytes;
  }

  CompletableFuture<Long> installedNs() {
    return installedNs;
  }

  /**
   * Writes the snapshot file with its MD5 (computed while writing, as a real state machine would,
   * so the leader does not read the file twice) and forces it: the log is purged right after.
   */
  @Override
  public long takeSnapshot() throws IOException {
    long bytes = nextSnapshotBytes;
    if (bytes <= 0) {
      return RaftLog.INVALID_LOG_INDEX;
    }
    TermIndex last = getLastAppliedTermIndex();
    File file = storage.getSnapshotFile(last.getTerm(), last.getIndex());
    MessageDigest md5 = MD5FileUtil.newMD5();
    byte[] block = new byte[SNAPSHOT_BLOCK_BYTES];
    // Incompressible content; the same block repeated is fine for disk and network alike.
    new Random(last.getIndex()).nextBytes(block);
    try (FileChannel out =
        FileChannel.open(file.toPath(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      for (long written = 0; written < bytes; ) {
        int length = (int) Math.min(block.length, bytes - written);
        md5.update(block, 0, length);
        ByteBuffer buffer = ByteBuffer.wrap(block, 0, length);
        while (buffer.hasRemaining()) {
          out.write(buffer);
        }
        written += length;
      }
      out.force(true);
    }
    MD5Hash digest = MD5Hash.newInstance(md5.digest());
    MD5FileUtil.saveMD5File(file, digest);
    latestSnapshot =
        storage.updateLatestSnapshot(
            new SingleFileSnapshotInfo(new FileInfo(file.toPath(), digest), last));
    nextSnapshotBytes = 0;
    return last.getIndex();
  }

  /** Ratis pauses the state machine before it moves an installed snapshot into place. */
  @Override
  public void pause() {
    if (getLifeCycleState() == LifeCycle.State.RUNNING) {
      getLifeCycle().transition(LifeCycle.State.PAUSING);
      getLifeCycle().transition(LifeCycle.State.PAUSED);
    }
  }

  /** Called after a snapshot from the leader was installed: take its term and index. */
  @Override
  public void reinitialize() throws IOException {
    boolean loaded = loadLatestSnapshot();
    if (getLifeCycleState() == LifeCycle.State.PAUSED) {
      getLifeCycle().transition(LifeCycle.State.STARTING);
      getLifeCycle().transition(LifeCycle.State.RUNNING);
    }
    if (loaded) {
      installedNs.complete(System.nanoTime());
    }
  }

  private boolean loadLatestSnapshot() {
    SingleFileSnapshotInfo snapshot = storage.loadLatestSnapshot();
    if (snapshot == null) {
      return false;
    }
    latestSnapshot = snapshot;
    setLastAppliedTermIndex(snapshot.getTermIndex());
    return true;
  }
}

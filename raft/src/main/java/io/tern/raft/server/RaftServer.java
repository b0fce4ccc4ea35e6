package io.tern.raft.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.util.concurrent.EventExecutor;
import io.tern.journal.DirectorySync;
import io.tern.raft.Member;
import io.tern.raft.RaftMessage;
import io.tern.raft.snapshot.FileSnapshotStore;
import io.tern.raft.transport.RaftMessageCodec;
import io.tern.raft.transport.RaftTransport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Raft side of one broker: the partitions (one Raft group each) this broker is a member of, all
 * sharing one transport. Inbound messages are routed to their partition by the id they travel with.
 * Each partition is created with its bootstrap group; members join and leave it through {@link
 * RaftPartition#changeMembership}, and this broker adds a replica it did not start with ({@link
 * #addPartition}, empty: it catches up from the leader) and drops one it left ({@link
 * #removePartition}).
 *
 * <p>Create the transport, then this server (which installs itself as the transport's receiver),
 * then start the transport and add partitions.
 */
public final class RaftServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RaftServer.class);

  private final int memberId;
  private final RaftServerConfig config;
  private final RaftTransport transport;
  private final MeterRegistry registry;
  private final Map<Integer, RaftPartition> partitions = new ConcurrentHashMap<>();
  private final List<DutyLoop> raftLoops = new ArrayList<>();
  private final List<DutyLoop> flushLoops = new ArrayList<>();
  private final Counter unknownPartitionMessages;

  public RaftServer(
      int memberId, RaftServerConfig config, RaftTransport transport, MeterRegistry registry) {
    if (transport.localMemberId() != memberId) {
      throw new IllegalArgumentException(
          "raft: the transport belongs to member "
              + transport.localMemberId()
              + ", not to member "
              + memberId);
    }
    checkMessagesFitFrames(config, transport.maxFrameBytes());
    this.memberId = memberId;
    this.config = config;
    this.transport = transport;
    this.registry = registry;
    this.unknownPartitionMessages =
        Counter.builder("tern.raft.messages.unknown.partition")
            .description("messages for partitions this broker does not host (yet)")
            .register(registry);
    transport.setReceiver(this::route);
  }

  /**
   * An append request or snapshot chunk larger than the transport's frames would be dropped on
   * every retry, and the follower would never catch up: refuse such a configuration at start.
   */
  public static void checkMessagesFitFrames(RaftServerConfig config, int maxFrameBytes) {
    int maxEntryBytes = config.journalConfig(config.dataDirectory()).build().maxEntrySizeBytes();
    long appendFrame =
        RaftMessageCodec.appendFrameBytesAtMost(config.maxAppendBatchBytes(), maxEntryBytes);
    if (appendFrame > maxFrameBytes) {
      throw new IllegalArgumentException(
          "raft: an append request may need a frame of "
              + appendFrame
              + " bytes (maxAppendBatchBytes "
              + config.maxAppendBatchBytes()
              + ", journal entries up to "
              + maxEntryBytes
              + " bytes), above the transport's maxFrameBytes "
              + maxFrameBytes
              + ": lower maxAppendBatchBytes or raise maxFrameBytes");
    }
    long chunkFrame =
        RaftMessageCodec.snapshotChunkFrameBytesAtMost(
            config.snapshotChunkBytes(), FileSnapshotStore.MAX_FILE_NAME_BYTES);
    if (chunkFrame > maxFrameBytes) {
      throw new IllegalArgumentException(
          "raft: a snapshot chunk may need a frame of "
              + chunkFrame
              + " bytes (snapshotChunkBytes "
              + config.snapshotChunkBytes()
              + "), above the transport's maxFrameBytes "
              + maxFrameBytes
              + ": lower snapshotChunkBytes or raise maxFrameBytes");
    }
  }

  private void route(int partitionId, RaftMessage message) {
    RaftPartition partition = partitions.get(partitionId);
    if (partition == null) {
      unknownPartitionMessages.increment();
      message.release();
      return;
    }
    partition.deliver(message);
  }

  /**
   * Opens (or creates) this broker's member of partition {@code partitionId} and starts giving it
   * turns on the least busy of the broker's Raft threads ({@link RaftServerConfig#raftThreads()}),
   * its flushes on the least busy flush thread.
   *
   * @param members every member of the partition with its priority (this broker among them)
   */
  public synchronized RaftPartition addPartition(
      int partitionId, List<Member> members, StateMachine machine) {
    if (partitions.containsKey(partitionId)) {
      throw new IllegalStateException("raft: partition " + partitionId + " is already running");
    }
    long seed = ((long) memberId << 32) ^ partitionId ^ System.nanoTime();
    RaftPartition partition =
        new RaftPartition(
            partitionId,
            memberId,
            members,
            config,
            transport,
            machine,
            registry,
            seed,
            raftLoop(),
            () -> leastBusy(flushLoops, config.flushThreads(), "raft-" + memberId + "-flush-"));
    partitions.put(partitionId, partition);
    return partition;
  }

  /**
   * The transport's event loop when configured and the transport has a single one; else the least
   * busy of the Raft threads.
   */
  private DutyLoop raftLoop() {
    EventExecutor eventLoop = config.raftOnTransportThread() ? transport.singleEventLoop() : null;
    if (config.raftOnTransportThread() && eventLoop == null && raftLoops.isEmpty()) {
      LOG.warn(
          "raft: raftOnTransportThread is set, but the transport does not run on a single thread"
              + " (ioThreads > 1); the Raft groups run on {} Raft threads instead",
          config.raftThreads());
    }
    if (eventLoop == null) {
      return leastBusy(raftLoops, config.raftThreads(), "raft-" + memberId + "-");
    }
    if (raftLoops.isEmpty()) {
      raftLoops.add(new EventLoopDutyLoop("raft-" + memberId + "-transport", eventLoop));
    }
    return raftLoops.get(0);
  }

  /** A new loop while there are fewer than {@code max}, else the one with the fewest duties. */
  private static DutyLoop leastBusy(List<DutyLoop> loops, int max, String namePrefix) {
    DutyLoop best = null;
    for (DutyLoop loop : loops) {
      if (loop.dutyCount() == 0) {
        return loop;
      }
      if (best == null || loop.dutyCount() < best.dutyCount()) {
        best = loop;
      }
    }
    if (loops.size() < max) {
      best = new ThreadDutyLoop(namePrefix + loops.size());
      loops.add(best);
    }
    return best;
  }

  /**
   * Closes this broker's member of {@code partitionId} (nothing if it runs none) and, with {@code
   * deleteData}, deletes its journal, snapshots and hard state: once the group removed this member,
   * what it holds is of no use and would only be refused as a stale replica later. Messages for the
   * partition are dropped from then on.
   */
  public synchronized void removePartition(int partitionId, boolean deleteData) {
    RaftPartition partition = partitions.remove(partitionId);
    if (partition != null) {
      partition.close();
    }
    if (deleteData) {
      Path directory = config.dataDirectory().resolve("partition-" + partitionId);
      try {
        deleteRecursively(directory);
        if (Files.exists(config.dataDirectory())) {
          DirectorySync.sync(config.dataDirectory());
        }
      } catch (IOException e) {
        throw new UncheckedIOException(
            "raft: cannot delete the data of partition " + partitionId + " in " + directory, e);
      }
    }
  }

  /** Deletes {@code root} and everything under it; nothing if it does not exist. */
  static void deleteRecursively(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  public RaftPartition partition(int partitionId) {
    return partitions.get(partitionId);
  }

  public Collection<RaftPartition> partitions() {
    return List.copyOf(partitions.values());
  }

  public int memberId() {
    return memberId;
  }

  /** Closes every partition, then their threads and the transport. */
  @Override
  public synchronized void close() {
    List<RuntimeException> failures = new ArrayList<>();
    for (RaftPartition partition : partitions.values()) {
      try {
        partition.close();
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    partitions.clear();
    raftLoops.forEach(DutyLoop::close);
    flushLoops.forEach(DutyLoop::close);
    raftLoops.clear();
    flushLoops.clear();
    transport.close();
    if (!failures.isEmpty()) {
      RuntimeException first = failures.get(0);
      failures.stream().skip(1).forEach(first::addSuppressed);
      throw first;
    }
  }
}

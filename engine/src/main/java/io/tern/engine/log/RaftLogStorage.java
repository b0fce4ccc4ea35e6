package io.tern.engine.log;

import io.tern.journal.JournalException;
import io.tern.journal.JournalReader;
import io.tern.journal.JournalRecord;
import io.tern.raft.RaftRole;
import io.tern.raft.SnapshotMeta;
import io.tern.raft.server.RaftPartition;
import io.tern.raft.server.StateMachine;
import io.tern.raft.storage.JournalRaftLog;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import org.agrona.DirectBuffer;

/**
 * The log stream's storage on a Raft partition: appends are proposals (refused unless this member
 * leads in the writer's term), readers read the partition's journal up to the commit index and skip
 * Raft's own no-op entries. It is also the partition's {@link StateMachine}, forwarding Raft's news
 * to a {@link Listener} (the stream processor).
 */
public final class RaftLogStorage implements LogStorage, StateMachine {
  /** What the stream processor hears from Raft, on the Raft thread: keep it short. */
  public interface Listener {
    void onCommit(long commitIndex);

    /** A leader appended entries up to {@code lastIndex} (not committed yet). */
    default void onAppended(long lastIndex) {}

    void onRoleChange(RaftRole role, long term, long lastIndex);

    void onSnapshotInstalled(SnapshotMeta meta, Path directory);
  }

  private volatile RaftPartition partition;
  private volatile Listener listener;

  /** Binds the partition this storage was handed to as its state machine. */
  public void bind(RaftPartition partition) {
    this.partition = partition;
  }

  public void setListener(Listener listener) {
    this.listener = listener;
  }

  public RaftPartition partition() {
    return partition;
  }

  @Override
  public CompletableFuture<Long> append(long term, long firstPosition, byte[] entry) {
    return partition.propose(term, firstPosition, entry);
  }

  @Override
  public Reader newReader() {
    return new JournalEntryReader(partition, partition.journal().openReader());
  }

  @Override
  public long commitIndex() {
    return partition.commitIndex();
  }

  @Override
  public void onCommit(long commitIndex) {
    Listener l = listener;
    if (l != null) {
      l.onCommit(commitIndex);
    }
  }

  @Override
  public void onAppended(long lastIndex) {
    Listener l = listener;
    if (l != null) {
      l.onAppended(lastIndex);
    }
  }

  @Override
  public void onRoleChange(RaftRole role, long term, long lastIndex) {
    Listener l = listener;
    if (l != null) {
      l.onRoleChange(role, term, lastIndex);
    }
  }

  @Override
  public void onSnapshotInstalled(SnapshotMeta meta, Path directory) {
    Listener l = listener;
    if (l != null) {
      l.onSnapshotInstalled(meta, directory);
    }
  }

  private static final class JournalEntryReader implements Reader, Entry {
    private final RaftPartition partition;
    private final JournalReader reader;
    private JournalRecord pending;
    private long index;
    private DirectBuffer data;
    private boolean uncommitted;

    JournalEntryReader(RaftPartition partition, JournalReader reader) {
      this.partition = partition;
      this.reader = reader;
    }

    @Override
    public void readUncommitted(boolean on) {
      uncommitted = on;
    }

    @Override
    public void seekToIndex(long index) {
      pending = null;
      reader.seek(index);
    }

    @Override
    public void seekToPosition(long position) {
      pending = null;
      reader.seekToAsqn(position);
    }

    @Override
    public boolean hasNext() {
      while (pending == null) {
        try {
          if (!reader.hasNext()
              || (!uncommitted && reader.getNextIndex() > partition.commitIndex())) {
            return false;
          }
          JournalRecord record = reader.next();
          if (JournalRaftLog.isApplicationEntry(record.data())) {
            pending = record;
          }
        } catch (JournalException.PositionDeleted e) {
          // A snapshot install reset the log under us; the processor re-seeks when told of it.
          return false;
        }
      }
      return true;
    }

    @Override
    public Entry next() {
      if (!hasNext()) {
        throw new java.util.NoSuchElementException(
            "No committed entry at " + reader.getNextIndex());
      }
      index = pending.index();
      data = pending.data();
      pending = null;
      return this;
    }

    @Override
    public long nextIndex() {
      return pending != null ? pending.index() : reader.getNextIndex();
    }

    @Override
    public long index() {
      return index;
    }

    @Override
    public long term() {
      return JournalRaftLog.termOf(data);
    }

    @Override
    public DirectBuffer data() {
      return data;
    }

    @Override
    public int offset() {
      return JournalRaftLog.HEADER_LENGTH;
    }

    @Override
    public int length() {
      return data.capacity() - JournalRaftLog.HEADER_LENGTH;
    }

    @Override
    public void close() {
      reader.close();
    }
  }
}

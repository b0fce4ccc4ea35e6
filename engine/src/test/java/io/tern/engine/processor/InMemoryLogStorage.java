package io.tern.engine.processor;

import io.tern.engine.log.LogStorage;
import io.tern.engine.log.RaftLogStorage;
import io.tern.raft.RaftRole;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A log for processor tests: a list of entries with a commit index the test moves (or that follows
 * every append), leadership the test hands out, and no-op entries at each election like Raft's.
 * Several processors may read it: a leader and followers sharing one log.
 */
public final class InMemoryLogStorage implements LogStorage {
  private record Stored(long term, long firstPosition, byte[] data) {
    boolean isNoOp() {
      return data == null;
    }
  }

  private final List<Stored> entries = new ArrayList<>();
  private final Map<Long, CompletableFuture<Long>> awaiting = new HashMap<>();
  private final List<RaftLogStorage.Listener> listeners = new CopyOnWriteArrayList<>();
  private long commitIndex;
  private long term;
  private boolean leader;
  private volatile boolean autoCommit = true;

  public void addListener(RaftLogStorage.Listener listener) {
    listeners.add(listener);
  }

  public void setAutoCommit(boolean autoCommit) {
    this.autoCommit = autoCommit;
  }

  /** A new term with a leader: appends the election no-op and tells the given listener it leads. */
  public void electLeader(RaftLogStorage.Listener newLeader) {
    long lastIndex;
    long newTerm;
    synchronized (this) {
      term++;
      newTerm = term;
      leader = true;
      entries.add(new Stored(newTerm, -1, null));
      lastIndex = entries.size();
    }
    for (RaftLogStorage.Listener listener : listeners) {
      listener.onRoleChange(
          listener == newLeader ? RaftRole.LEADER : RaftRole.FOLLOWER, newTerm, lastIndex);
    }
    if (autoCommit) {
      commitTo(lastIndex);
    }
  }

  /** Leadership is lost: entries not committed are gone, as a new leader would overwrite them. */
  public void loseLeadership() {
    List<CompletableFuture<Long>> failed = new ArrayList<>();
    long newTerm;
    synchronized (this) {
      leader = false;
      term++;
      newTerm = term;
      while (entries.size() > commitIndex) {
        CompletableFuture<Long> future = awaiting.remove((long) entries.size());
        if (future != null) {
          failed.add(future);
        }
        entries.remove(entries.size() - 1);
      }
    }
    failed.forEach(f -> f.completeExceptionally(new IllegalStateException("leadership lost")));
    for (RaftLogStorage.Listener listener : listeners) {
      listener.onRoleChange(RaftRole.FOLLOWER, newTerm, lastIndex());
    }
  }

  synchronized long term() {
    return term;
  }

  public synchronized long lastIndex() {
    return entries.size();
  }

  @Override
  public CompletableFuture<Long> append(long term, long firstPosition, byte[] entry) {
    long index;
    CompletableFuture<Long> future = new CompletableFuture<>();
    synchronized (this) {
      if (!leader || term != this.term) {
        future.completeExceptionally(new IllegalStateException("not the leader in term " + term));
        return future;
      }
      entries.add(new Stored(term, firstPosition, entry));
      index = entries.size();
      awaiting.put(index, future);
    }
    if (autoCommit) {
      commitTo(index);
    } else {
      for (RaftLogStorage.Listener listener : listeners) {
        listener.onAppended(index);
      }
    }
    return future;
  }

  /** Appends a batch as if a leader had written and committed it (to inject bad entries). */
  public void appendCommitted(byte[] entry, long firstPosition) {
    long index;
    synchronized (this) {
      entries.add(new Stored(term, firstPosition, entry));
      index = entries.size();
    }
    commitTo(index);
  }

  public void commitTo(long index) {
    List<CompletableFuture<Long>> done = new ArrayList<>();
    synchronized (this) {
      for (long i = commitIndex + 1; i <= Math.min(index, entries.size()); i++) {
        CompletableFuture<Long> future = awaiting.remove(i);
        if (future != null) {
          done.add(future);
        }
      }
      commitIndex = Math.max(commitIndex, Math.min(index, entries.size()));
    }
    done.forEach(f -> f.complete(0L));
    for (RaftLogStorage.Listener listener : listeners) {
      listener.onCommit(index);
    }
  }

  public void commitAll() {
    commitTo(lastIndex());
  }

  @Override
  public synchronized long commitIndex() {
    return commitIndex;
  }

  private synchronized Stored entry(long index, boolean uncommitted) {
    long last = uncommitted ? entries.size() : commitIndex;
    return index >= 1 && index <= last ? entries.get((int) index - 1) : null;
  }

  private synchronized long indexOfPosition(long position) {
    long found = 1;
    for (int i = 0; i < entries.size(); i++) {
      Stored stored = entries.get(i);
      if (!stored.isNoOp() && stored.firstPosition <= position) {
        found = i + 1;
      }
    }
    return found;
  }

  /**
   * The batch at {@code index}, committed or not (for assertions): null for an election's no-op or
   * past the end.
   */
  public synchronized byte[] batchAt(long index) {
    return index >= 1 && index <= entries.size() ? entries.get((int) index - 1).data : null;
  }

  /** Every committed batch, in order (for assertions). */
  public synchronized List<byte[]> committedBatches() {
    List<byte[]> batches = new ArrayList<>();
    for (int i = 0; i < commitIndex; i++) {
      if (!entries.get(i).isNoOp()) {
        batches.add(entries.get(i).data);
      }
    }
    return batches;
  }

  @Override
  public Reader newReader() {
    return new Reader() {
      private final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
      private long next = 1;
      private long index;
      private long entryTerm;
      private Stored pending;
      private boolean uncommitted;

      @Override
      public void readUncommitted(boolean on) {
        uncommitted = on;
        pending = null; // read again under the new limit
      }

      @Override
      public void seekToIndex(long index) {
        next = Math.max(1, index);
        pending = null;
      }

      @Override
      public void seekToPosition(long position) {
        next = indexOfPosition(position);
        pending = null;
      }

      @Override
      public boolean hasNext() {
        while (pending == null) {
          Stored stored = entry(next, uncommitted);
          if (stored == null) {
            return false;
          }
          if (stored.isNoOp()) {
            next++;
          } else {
            pending = stored;
          }
        }
        return true;
      }

      @Override
      public Entry next() {
        if (!hasNext()) {
          throw new java.util.NoSuchElementException();
        }
        index = next++;
        entryTerm = pending.term;
        buffer.wrap(pending.data);
        pending = null;
        return new Entry() {
          @Override
          public long index() {
            return index;
          }

          @Override
          public long term() {
            return entryTerm;
          }

          @Override
          public DirectBuffer data() {
            return buffer;
          }

          @Override
          public int offset() {
            return 0;
          }

          @Override
          public int length() {
            return buffer.capacity();
          }
        };
      }

      @Override
      public long nextIndex() {
        return next;
      }

      @Override
      public void close() {}
    };
  }
}

package io.tern.raft.sim;

import io.tern.raft.RaftEntry;
import io.tern.raft.RaftLog;
import java.util.ArrayList;
import java.util.List;

/**
 * A simulated disk log: appends land in a volatile copy and reach the durable copy only on {@link
 * #flush()}; truncations, compactions and resets are durable at once (as the journal's are). {@link
 * #crash()} throws away everything that was not flushed.
 */
final class SimLog implements RaftLog {
  /** Entries from index {@code first} on. */
  private final List<RaftEntry> entries = new ArrayList<>();

  private final List<RaftEntry> durable = new ArrayList<>();
  private long first = 1;
  private long snapshotIndex;
  private long snapshotTerm;
  private long boundaryTerm;

  @Override
  public long firstIndex() {
    return first;
  }

  @Override
  public long lastIndex() {
    return first + entries.size() - 1;
  }

  @Override
  public long term(long index) {
    if (index == 0) {
      return first <= 1 ? 0 : -1; // once compacted, index 0 is as gone as the entries after it
    }
    if (index == snapshotIndex) {
      return snapshotTerm;
    }
    if (index == first - 1 && boundaryTerm > 0) {
      return boundaryTerm; // as the journal-backed log, which remembers it until a restart
    }
    if (index < first || index > lastIndex()) {
      return -1;
    }
    return entries.get((int) (index - first)).term();
  }

  @Override
  public void append(RaftEntry entry) {
    if (entry.index() != lastIndex() + 1) {
      throw new IllegalStateException("append of " + entry + " after " + lastIndex());
    }
    entries.add(entry);
  }

  @Override
  public void truncateAfter(long index) {
    truncate(entries, index);
    truncate(durable, index);
  }

  private void truncate(List<RaftEntry> list, long index) {
    while (!list.isEmpty() && first + list.size() - 1 > index) {
      list.remove(list.size() - 1);
    }
  }

  @Override
  public List<RaftEntry> entries(long fromIndex, int maxBytes) {
    List<RaftEntry> batch = new ArrayList<>();
    int bytes = 0;
    for (long i = fromIndex; i <= lastIndex(); i++) {
      RaftEntry entry = entry(i);
      if (!batch.isEmpty()
          && (bytes + entry.sizeBytes() > maxBytes || batch.size() >= MAX_BATCH_ENTRIES)) {
        break;
      }
      batch.add(entry);
      bytes += entry.sizeBytes();
    }
    return batch;
  }

  @Override
  public RaftEntry entry(long index) {
    if (index < first || index > lastIndex()) {
      throw new IllegalArgumentException(
          "no entry " + index + " in log [" + first + ", " + lastIndex() + "]");
    }
    return entries.get((int) (index - first));
  }

  @Override
  public void compact(long newSnapshotIndex, long newSnapshotTerm, long compactUpTo) {
    if (newSnapshotIndex > snapshotIndex) {
      snapshotIndex = newSnapshotIndex;
      snapshotTerm = newSnapshotTerm;
    }
    long drop = Math.min(compactUpTo, snapshotIndex) - first + 1;
    for (long i = 0; i < drop && !entries.isEmpty(); i++) {
      boundaryTerm = entries.remove(0).term();
      if (!durable.isEmpty()) {
        durable.remove(0);
      }
    }
    first += Math.max(0, drop);
  }

  @Override
  public void reset(long newSnapshotIndex, long newSnapshotTerm) {
    entries.clear();
    durable.clear();
    first = newSnapshotIndex + 1;
    boundaryTerm = 0;
    snapshotIndex = newSnapshotIndex;
    snapshotTerm = newSnapshotTerm;
  }

  void flush() {
    durable.clear();
    durable.addAll(entries);
  }

  /** The last index that survives a crash. */
  long durableLastIndex() {
    return first + durable.size() - 1;
  }

  void crash() {
    boundaryTerm = 0; // forgotten on restart
    entries.clear();
    entries.addAll(durable);
  }

  List<RaftEntry> snapshot() {
    return List.copyOf(entries);
  }
}

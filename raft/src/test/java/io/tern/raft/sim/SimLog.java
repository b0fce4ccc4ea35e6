package io.tern.raft.sim;

import io.tern.raft.RaftEntry;
import io.tern.raft.RaftLog;
import java.util.ArrayList;
import java.util.List;

/**
 * A simulated disk log: appends land in a volatile copy and reach the durable copy only on {@link
 * #flush()}; truncations are durable at once (as the journal's deleteAfter is). {@link #crash()}
 * throws away everything that was not flushed.
 */
final class SimLog implements RaftLog {
  private final List<RaftEntry> entries = new ArrayList<>();
  private final List<RaftEntry> durable = new ArrayList<>();

  @Override
  public long firstIndex() {
    return 1;
  }

  @Override
  public long lastIndex() {
    return entries.size();
  }

  @Override
  public long term(long index) {
    if (index == 0) {
      return 0;
    }
    if (index < 0 || index > entries.size()) {
      return -1;
    }
    return entries.get((int) index - 1).term();
  }

  @Override
  public void append(RaftEntry entry) {
    if (entry.index() != entries.size() + 1) {
      throw new IllegalStateException("append of " + entry + " after " + entries.size());
    }
    entries.add(entry);
  }

  @Override
  public void truncateAfter(long index) {
    while (entries.size() > index) {
      entries.remove(entries.size() - 1);
    }
    while (durable.size() > index) {
      durable.remove(durable.size() - 1);
    }
  }

  @Override
  public List<RaftEntry> entries(long fromIndex, int maxBytes) {
    List<RaftEntry> batch = new ArrayList<>();
    int bytes = 0;
    for (long i = fromIndex; i <= entries.size(); i++) {
      RaftEntry entry = entries.get((int) i - 1);
      if (!batch.isEmpty() && bytes + entry.sizeBytes() > maxBytes) {
        break;
      }
      batch.add(entry);
      bytes += entry.sizeBytes();
    }
    return batch;
  }

  @Override
  public RaftEntry entry(long index) {
    return entries.get((int) index - 1);
  }

  void flush() {
    durable.clear();
    durable.addAll(entries);
  }

  long durableIndex() {
    return durable.size();
  }

  void crash() {
    entries.clear();
    entries.addAll(durable);
  }

  List<RaftEntry> snapshot() {
    return List.copyOf(entries);
  }
}

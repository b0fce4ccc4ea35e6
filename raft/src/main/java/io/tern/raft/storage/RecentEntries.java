package io.tern.raft.storage;

import io.tern.raft.RaftEntry;
import java.util.Arrays;

/**
 * The entries appended last, kept as they were appended, so that a leader replicates them without
 * reading and copying them back out of the journal once per follower (those copies were a large
 * share of a leader's garbage).
 *
 * <p>A window of consecutive indexes ending at the last entry added: at most {@link #SLOTS} entries
 * and {@code maxBytes} of entry data, the oldest dropped first to make room. An entry larger than
 * the whole budget is not kept, and the window starts again after it. Adding an index that does not
 * follow the last one (after a truncation or a reset) starts a new window. Not thread-safe: the
 * partition's Raft thread owns it, as it owns the log.
 */
final class RecentEntries {
  /** Entries remembered at most: 0.1 s of appends at 10,000 entries/s. A power of two. */
  static final int SLOTS = 1024;

  /** Entry data remembered at most per partition by default; older entries are read again. */
  static final long DEFAULT_MAX_BYTES = 4L * 1024 * 1024;

  private static final int MASK = SLOTS - 1;

  private final RaftEntry[] slots = new RaftEntry[SLOTS];
  private final long maxBytes;
  private long firstIndex; // the window is [firstIndex, nextIndex)
  private long nextIndex;
  private long bytes;

  RecentEntries() {
    this(DEFAULT_MAX_BYTES);
  }

  RecentEntries(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** Remembers {@code entry} as the newest, dropping the oldest entries it needs room from. */
  void add(RaftEntry entry) {
    long index = entry.index();
    int length = entry.dataLength();
    if (index != nextIndex || length > maxBytes) {
      clear();
      if (length > maxBytes) {
        firstIndex = index + 1;
        nextIndex = index + 1;
        return;
      }
      firstIndex = index;
    }
    while (firstIndex < index && (index - firstIndex >= SLOTS || bytes + length > maxBytes)) {
      RaftEntry oldest = slots[(int) (firstIndex & MASK)];
      bytes -= oldest.dataLength();
      slots[(int) (firstIndex & MASK)] = null;
      firstIndex++;
    }
    slots[(int) (index & MASK)] = entry;
    bytes += length;
    nextIndex = index + 1;
  }

  /** The remembered entry at {@code index}, or null. */
  RaftEntry get(long index) {
    if (index < firstIndex || index >= nextIndex) {
      return null;
    }
    RaftEntry entry = slots[(int) (index & MASK)];
    return entry != null && entry.index() == index ? entry : null;
  }

  void clear() {
    Arrays.fill(slots, null);
    bytes = 0;
    firstIndex = 0;
    nextIndex = 0;
  }

  long bytes() {
    return bytes;
  }
}

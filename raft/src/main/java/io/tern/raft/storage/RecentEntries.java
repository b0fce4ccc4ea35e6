package io.tern.raft.storage;

import io.tern.raft.RaftEntry;
import java.util.Arrays;

/**
 * The entries appended last, kept as they were appended, so that a leader replicates them without
 * reading and copying them back out of the journal once per follower (in the 3-member Raft
 * benchmark at 10,000 entries/s, those copies were 40% of all bytes the process allocated).
 *
 * <p>A ring of {@link #SLOTS} entries, each slot holding the entry whose index maps to it or
 * nothing, within a budget of {@link #MAX_BYTES} of entry data. An entry is only found under its
 * own index; whatever the log truncates or resets is forgotten with {@link #clear}. Not
 * thread-safe: the partition's Raft thread owns it, as it owns the log.
 */
final class RecentEntries {
  /** Entries remembered at most: 0.1 s of appends at 10,000 entries/s. A power of two. */
  static final int SLOTS = 1024;

  /** Entry data remembered at most per partition; larger entries are read from the journal. */
  static final long MAX_BYTES = 4L * 1024 * 1024;

  private static final int MASK = SLOTS - 1;

  private final RaftEntry[] slots = new RaftEntry[SLOTS];
  private long bytes;

  /** Remembers {@code entry}, forgetting the one in its slot; skipped if over the byte budget. */
  void add(RaftEntry entry) {
    int slot = (int) (entry.index() & MASK);
    RaftEntry replaced = slots[slot];
    if (replaced != null) {
      bytes -= replaced.data().length;
      slots[slot] = null;
    }
    if (bytes + entry.data().length <= MAX_BYTES) {
      slots[slot] = entry;
      bytes += entry.data().length;
    }
  }

  /** The remembered entry at {@code index}, or null. */
  RaftEntry get(long index) {
    RaftEntry entry = slots[(int) (index & MASK)];
    return entry != null && entry.index() == index ? entry : null;
  }

  void clear() {
    Arrays.fill(slots, null);
    bytes = 0;
  }

  long bytes() {
    return bytes;
  }
}

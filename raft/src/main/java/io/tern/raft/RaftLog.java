package io.tern.raft;

import java.util.List;

/**
 * The log as the Raft core sees it. Appends and truncations are plain memory writes for the core
 * (the journal maps its files); durability is the driver's business: it flushes according to the
 * flush mode and reports back with {@link RaftNode#onPersisted(long)}.
 *
 * <p>Indexes below {@link #firstIndex()} are covered by a snapshot whose last index and term are
 * {@code firstIndex() - 1} and {@link #term(long) term(firstIndex() - 1)}.
 */
public interface RaftLog {
  long firstIndex();

  long lastIndex();

  /**
   * Term of the entry at {@code index}, for {@code firstIndex() - 1 <= index <= lastIndex()}; 0 for
   * index 0. Outside that range: -1.
   */
  long term(long index);

  default long lastTerm() {
    return term(lastIndex());
  }

  /** Appends at {@code lastIndex() + 1}; the entry's index must be exactly that. */
  void append(RaftEntry entry);

  /** Removes every entry after {@code index}. */
  void truncateAfter(long index);

  /**
   * Entries from {@code fromIndex} on, at least one if any exists, and no more than {@code
   * maxBytes} in total otherwise.
   */
  List<RaftEntry> entries(long fromIndex, int maxBytes);

  /** The entry at {@code index}, which must exist. */
  RaftEntry entry(long index);
}

package io.tern.raft;

import java.util.List;

/**
 * The log as the Raft core sees it. Appends and truncations are plain memory writes for the core
 * (the journal maps its files); durability is the driver's business: it flushes according to the
 * flush mode and reports back with {@link RaftNode#onPersisted(long)}.
 *
 * <p>Indexes below {@link #firstIndex()} are covered by a snapshot. The log knows the latest
 * snapshot's index and term, so that {@link #term(long)} answers for it even once compacted; the
 * log may still hold entries at or below the snapshot index (compaction keeps a tail so that
 * followers that are a little behind need no snapshot).
 */
public interface RaftLog {
  long firstIndex();

  long lastIndex();

  /**
   * Term of the entry at {@code index}, for {@code firstIndex() <= index <= lastIndex()} and for
   * the latest snapshot's index; 0 for index 0 while nothing is compacted; possibly for {@code
   * firstIndex() - 1} (the entry just compacted). Otherwise -1.
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
   * The most entries {@link #entries} returns at once, whatever their size: one append request
   * carries them, and its frame must stay bounded even for entries of a few bytes (the wire format
   * also allows at most 65,534 per message).
   */
  int MAX_BATCH_ENTRIES = 16_384;

  /**
   * Entries from {@code fromIndex} on, at least one if any exists, and otherwise no more than
   * {@code maxBytes} in total and no more than {@link #MAX_BATCH_ENTRIES}.
   */
  List<RaftEntry> entries(long fromIndex, int maxBytes);

  /** The entry at {@code index}, which must exist. */
  RaftEntry entry(long index);

  /**
   * The {@link RaftEntry.Type#CONFIG} entries from {@code fromIndex} to the last, in order: how a
   * member recovers its configuration at start. A log may find them without reading the data of
   * every other entry.
   */
  default List<RaftEntry> configEntries(long fromIndex) {
    List<RaftEntry> found = new java.util.ArrayList<>();
    for (long index = Math.max(fromIndex, firstIndex()); index <= lastIndex(); index++) {
      RaftEntry entry = entry(index);
      if (entry.type() == RaftEntry.Type.CONFIG) {
        found.add(entry);
      }
    }
    return found;
  }

  /**
   * Records that a snapshot covers everything up to {@code snapshotIndex} (of term {@code
   * snapshotTerm}) and drops entries up to {@code compactUpTo} (at most: an implementation may keep
   * more, as the journal deletes whole segments only).
   */
  void compact(long snapshotIndex, long snapshotTerm, long compactUpTo);

  /**
   * Empties the log after a snapshot install: the next entry is {@code snapshotIndex + 1} and
   * {@code term(snapshotIndex)} is {@code snapshotTerm}. Durable when it returns.
   */
  void reset(long snapshotIndex, long snapshotTerm);
}

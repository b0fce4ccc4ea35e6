package io.tern.journal;

import org.agrona.DirectBuffer;

/**
 * A single-writer, many-reader, append-only log of entries {@code (index, asqn, bytes)}.
 *
 * <p>Indexes are contiguous. The asqn (application sequence number) is chosen by the caller; it
 * must increase strictly from entry to entry, except for entries appended with {@link
 * #ASQN_IGNORE}, which are skipped by {@link JournalReader#seekToAsqn(long)}.
 *
 * <p>Threading: {@code append}, {@code publish}, {@code deleteAfter}, {@code deleteUntil} and
 * {@code reset} must be called from one writer thread. {@code flush} may be called from any one
 * thread (for example a background flusher) concurrently with appends. Readers may live on any
 * thread.
 *
 * <p>Visibility: appended entries may be held in the writer's buffer (see {@link #publish()}). The
 * writer's own reads and flushes always see all of them; readers and flushes on other threads see
 * what was published.
 */
public interface Journal extends AutoCloseable {

  /** The asqn of entries that have none (for example Raft's own entries). */
  long ASQN_IGNORE = -1;

  /**
   * Appends a copy of {@code data[offset, offset + length)}.
   *
   * @return the index of the new entry
   * @throws JournalException.EntryTooLarge if {@code length} exceeds the configured maximum
   * @throws JournalException.InvalidAsqn if {@code asqn} does not increase
   */
  long append(long asqn, DirectBuffer data, int offset, int length);

  /** Appends a copy of the whole buffer. */
  default long append(long asqn, DirectBuffer data) {
    return append(asqn, data, 0, data.capacity());
  }

  /**
   * Appends an entry whose bytes the writer serializes straight into the writer's buffer, next to
   * the frame's header, which saves the copy through an intermediate buffer of the caller's.
   */
  long append(long asqn, EntryWriter writer);

  /**
   * Removes every entry after {@code index}; the next append gets {@code index + 1}. Durable when
   * it returns. Used by Raft when its log conflicts with the leader's.
   */
  void deleteAfter(long index);

  /**
   * Compaction: removes whole segments whose entries are all below {@code index}. The entry at
   * {@code index} and everything after it stay; some entries below it may stay too.
   */
  void deleteUntil(long index);

  /** Empties the journal; the next append gets {@code nextIndex}. Used after a snapshot install. */
  void reset(long nextIndex);

  /**
   * Writes the entries appended since the last publish to the file, where readers and flushes on
   * other threads find them. Appends collect small entries in a buffer and write them together (one
   * system call instead of one per entry), so a writer that hands entries to other threads (Raft:
   * to the flush thread and the state machine's readers) publishes at the end of each batch. The
   * writer's own flushes and reads publish by themselves; {@link #close()} publishes too. Cheap
   * when there is nothing to write.
   */
  void publish();

  /**
   * Makes every appended entry durable and records the last flushed index durably. Returns at once
   * when nothing was appended since the last flush.
   */
  void flush();

  /** Index of the first entry, or of the next entry to be appended when the journal is empty. */
  long getFirstIndex();

  /** Index of the last entry, or {@code getFirstIndex() - 1} when the journal is empty. */
  long getLastIndex();

  /** Every entry at or below this index survives any crash. */
  long getLastFlushedIndex();

  default boolean isEmpty() {
    return getLastIndex() < getFirstIndex();
  }

  /** Opens a reader positioned at the first entry. Close it when done. */
  JournalReader openReader();

  @Override
  void close();

  /** Serializes an entry's bytes in place; see {@link #append(long, EntryWriter)}. */
  interface EntryWriter {
    /** The exact number of bytes {@link #write} will write. */
    int length();

    /** Writes exactly {@link #length()} bytes at {@code offset}. */
    void write(org.agrona.MutableDirectBuffer buffer, int offset);
  }
}

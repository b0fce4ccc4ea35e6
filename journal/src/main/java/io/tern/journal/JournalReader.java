package io.tern.journal;

/**
 * Iterates over entries in index order. One reader belongs to one thread; many readers may run
 * concurrently with the writer. A reader whose position was removed by compaction, truncation or
 * reset throws {@link JournalException.PositionDeleted} from {@link #hasNext()}/{@link #next()} and
 * stays usable after a new seek.
 */
public interface JournalReader extends AutoCloseable {

  /**
   * Positions the reader so that {@link #next()} returns the entry at {@code index}. An index below
   * the first entry seeks to the first entry; one past the last seeks to the end.
   *
   * @return the index that the next call to {@link #next()} returns
   */
  long seek(long index);

  /** Positions the reader at the first entry; returns its index. */
  long seekToFirst();

  /** Positions the reader at the last entry; returns its index. */
  long seekToLast();

  /**
   * Positions the reader at the entry with the largest asqn that is less than or equal to {@code
   * asqn} (entries appended with {@link Journal#ASQN_IGNORE} are skipped). When no entry qualifies,
   * positions at the first entry.
   *
   * @return the index that the next call to {@link #next()} returns
   */
  long seekToAsqn(long asqn);

  /** The index that the next call to {@link #next()} returns, if there is such an entry. */
  long getNextIndex();

  boolean hasNext();

  /**
   * Returns the next entry. The returned view is reused by this reader and valid until the next
   * call on it.
   *
   * @throws java.util.NoSuchElementException when there is no next entry
   */
  JournalRecord next();

  @Override
  void close();
}

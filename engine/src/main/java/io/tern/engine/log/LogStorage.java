package io.tern.engine.log;

import java.util.concurrent.CompletableFuture;
import org.agrona.DirectBuffer;

/**
 * Where a partition's log stream keeps its entries: Raft in a broker ({@link RaftLogStorage}), a
 * list in tests. Each entry is one record batch whose asqn is the batch's first position.
 */
public interface LogStorage {
  /**
   * Appends one entry if this member leads in {@code term}. The future completes with the entry's
   * index once it is committed, or fails (not the leader in that term, leadership lost, queue
   * full). A refusal known at once is reported before this method returns.
   */
  CompletableFuture<Long> append(long term, long firstPosition, byte[] entry);

  /** A reader over committed entries. Close it when done. */
  Reader newReader();

  /** Index of the last committed entry. */
  long commitIndex();

  /**
   * Reads committed entries in order, or, once {@link #readUncommitted} is on, every entry in the
   * log. One thread per reader.
   */
  interface Reader extends AutoCloseable {
    /**
     * Whether the reader stops at the commit index (off, the default) or reads every entry this
     * member's log holds (on: a leader's own entries before they commit, which a new leader may
     * replace).
     */
    void readUncommitted(boolean on);

    /** Positions the reader at the first entry whose index is at least {@code index}. */
    void seekToIndex(long index);

    /**
     * Positions the reader at the entry that holds {@code position}, or the first after it if none
     * does (or at the first entry if every entry is after it).
     */
    void seekToPosition(long position);

    /** True if the next entry exists (and is committed, unless reading uncommitted entries). */
    boolean hasNext();

    /** The next committed entry; its data are valid until the next call on this reader. */
    Entry next();

    /** Index that {@link #next()} returns next (entries skipped by the storage count as read). */
    long nextIndex();

    @Override
    void close();
  }

  /** One entry: its index, term and the record batch bytes. */
  interface Entry {
    long index();

    /** The term of the leader that wrote the entry: with the index, it names the entry. */
    long term();

    DirectBuffer data();

    int offset();

    int length();
  }
}

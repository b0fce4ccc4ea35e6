package io.tern.journal;

import org.agrona.DirectBuffer;

/**
 * The writer's side of a {@link SegmentedJournal}: appends entries to the writer's segment through
 * the staging buffer, publishes them to readers and flushes on other threads, and rolls to a new
 * segment when one is full. Kept apart from the journal so that the append path reads in one place.
 *
 * <p>Writer thread only, except the volatile last and published indexes, which any thread reads,
 * and the changes the journal makes under its structure and flush locks ({@link #truncatedTo},
 * {@link #restartAt}).
 */
final class JournalAppender {
  private final JournalConfig config;
  private final JournalSegments segments;
  private final JournalFlusher flusher;
  private final JournalMetrics metrics;

  /** Where the writer assembles frames until it publishes them. */
  private final FrameStaging staging = new FrameStaging();

  private Segment current;
  private long lastAsqn = SegmentIndex.NONE;
  private volatile long lastIndex;

  /**
   * The last entry readers and flushes from other threads see: appended entries wait in {@link
   * #staging} until {@link #publish()}.
   */
  private volatile long publishedLastIndex;

  /**
   * The thread that appended last. Its own flushes and reads publish first, so a single-threaded
   * user never sees the staging; other threads see what the writer published.
   */
  private Thread writerThread;

  JournalAppender(
      JournalConfig config,
      JournalSegments segments,
      JournalFlusher flusher,
      JournalMetrics metrics) {
    this.config = config;
    this.segments = segments;
    this.flusher = flusher;
    this.metrics = metrics;
  }

  /** The writer's segment. */
  Segment current() {
    return current;
  }

  long lastIndex() {
    return lastIndex;
  }

  long publishedLastIndex() {
    return publishedLastIndex;
  }

  // ---------------------------------------------------------------- start

  /** An empty journal: the first segment starts at {@code firstIndex}. */
  void startEmpty(long firstIndex) {
    startSegment(1, firstIndex);
    lastIndex = firstIndex - 1;
    publishedLastIndex = lastIndex;
  }

  /** An opened journal: the writer resumes in {@code last}, its newest segment. */
  void resumeIn(Segment last) {
    makeCurrent(last);
    // A hint left by a roll that never completed must not outlive the appends that follow.
    current.writer().unseal();
    // A segment opened from its hint knows its last asqn but not which entry holds it.
    current.writer().recomputeLastAsqn();
    lastIndex = current.lastIndex();
    publishedLastIndex = lastIndex;
  }

  /** Finds the newest asqn in the journal again (after open or a truncation). */
  void recomputeLastAsqn() {
    lastAsqn = segments.lastAsqn(current);
  }

  /** Makes a new segment from the spare and moves the writer to it. */
  Segment startSegment(long id, long firstIndex) {
    makeCurrent(segments.create(id, firstIndex));
    return current;
  }

  private void makeCurrent(Segment segment) {
    current = segment;
    flusher.writerMovedTo(segment);
  }

  // ---------------------------------------------------------------- append

  /** See {@link Journal#append(long, DirectBuffer, int, int)}; the journal checked it is open. */
  long append(long asqn, DirectBuffer data, int offset, int length, Journal.EntryWriter writer) {
    if (length < 0) {
      throw new IllegalArgumentException("Entry length must be >= 0: " + length);
    }
    if (length > config.maxEntrySizeBytes()) {
      throw new JournalException.EntryTooLarge(length, config.maxEntrySizeBytes());
    }
    if (asqn != Journal.ASQN_IGNORE && (asqn < 0 || asqn <= lastAsqn)) {
      throw new JournalException.InvalidAsqn(asqn, lastAsqn);
    }
    long startNs = metrics.appendStartNs();
    writerThread = Thread.currentThread();
    long index = lastIndex + 1;
    if (!current.writer().append(index, asqn, data, offset, length, writer, staging)) {
      roll();
      if (!current.writer().append(index, asqn, data, offset, length, writer, staging)) {
        // Configuration validation makes this impossible; if it ever happens, nothing was written
        // and the entry's index must not be used.
        throw new IllegalStateException(
            "An entry of " + length + " bytes did not fit an empty journal segment");
      }
    }
    if (asqn != Journal.ASQN_IGNORE) {
      lastAsqn = asqn;
    }
    lastIndex = index;
    // A full buffer was written out (and published by the segment) to make room.
    long written = current.lastIndex();
    if (written > publishedLastIndex) {
      publishedLastIndex = written;
    }
    metrics.appended(startNs);
    return index;
  }

  /** See {@link Journal#publish()}. */
  void publish() {
    if (!staging.isEmpty()) {
      current.writer().writeStaged(staging);
      publishedLastIndex = lastIndex;
    }
  }

  /** Publishes when called on the writer's thread, whose own flushes and reads see everything. */
  void publishOnWriterThread() {
    if (Thread.currentThread() == writerThread) {
      publish();
    }
  }

  /** The last index a reader may read; on the writer's thread, publishes first. */
  long readableLastIndex() {
    publishOnWriterThread();
    return publishedLastIndex;
  }

  private void roll() {
    publish();
    current.zeroFill().stop(); // the rest of a sealed segment is never written
    current.writer().seal();
    try {
      startSegment(current.id() + 1, lastIndex + 1);
    } catch (RuntimeException e) {
      current.writer().unseal(); // it stays the writer's segment; a later append may still fit
      throw e;
    }
  }

  // ---------------------------------------------------------------- structural changes

  /** The entries after {@code index} were removed; {@code target}, which holds it, is the last. */
  void truncatedTo(Segment target, long index) {
    makeCurrent(target);
    lastIndex = index;
    publishedLastIndex = index;
    recomputeLastAsqn();
  }

  /** Drops the staged frames: they are part of what a reset empties. */
  void discardStaged() {
    staging.clear();
  }

  /** After a reset: the writer's new, empty segment starts at {@code nextIndex}. */
  void restartAt(long nextIndex) {
    lastIndex = nextIndex - 1;
    publishedLastIndex = lastIndex;
    lastAsqn = SegmentIndex.NONE;
  }
}

package io.tern.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Journal}: memory-mapped segments on one directory. This class opens and closes the
 * journal and makes its structural changes; its parts do the rest: {@link JournalAppender} appends,
 * publishes and rolls, {@link JournalFlusher} makes entries durable and keeps the flush records,
 * {@link JournalSegments} keeps the segments and their files, and {@link JournalLoader} recovers
 * the segments at open.
 *
 * <p>Concurrency. Appends are lock-free: frames are published by the segment's end position, then
 * by the appender's volatile published index. Structural changes ({@code deleteAfter}, {@code
 * deleteUntil}, {@code reset}) take the write side of {@link #structureLock}; readers read frames
 * under its optimistic read side and retry when it was taken, so they never return a half-removed
 * entry. The flusher's lock keeps flushes (which may run on another thread) apart from structural
 * changes.
 */
public final class SegmentedJournal implements Journal {
  /**
   * The bytes at the start of every segment file that describe it, its flush record included: a
   * copy of a segment being written (a backup's) takes them before the entries they describe.
   */
  public static final int SEGMENT_DESCRIPTOR_BYTES = SegmentDescriptor.LENGTH;

  private static final Logger LOG = LoggerFactory.getLogger(SegmentedJournal.class);

  private final JournalConfig config;
  private final SegmentFiles files;
  private final DirectoryLock lock;
  private final JournalMetrics metrics;
  private final SegmentAllocator allocator;
  private final JournalSegments segments;
  private final JournalFlusher flusher;
  private final JournalAppender appender;

  /** Set when segment files were created or renamed; the next flush syncs the directory. */
  private final AtomicBoolean directoryDirty = new AtomicBoolean();

  private final StampedLock structureLock = new StampedLock();
  private final ReentrantLock flushLock;
  private final TruncationHistory truncations = new TruncationHistory();

  private volatile long firstIndex;
  private volatile boolean closed;

  private SegmentedJournal(JournalConfig config, SegmentFiles files) {
    this.config = config;
    this.files = files;
    this.metrics = new JournalMetrics(config.meterRegistry(), config.metricTags());
    try {
      Files.createDirectories(config.directory());
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to create journal directory " + config.directory(), e);
    }
    this.lock = DirectoryLock.acquire(files.lockPath());
    try {
      files.removeInterruptedDeletions();
    } catch (RuntimeException e) {
      lock.close();
      throw e;
    }
    this.allocator = new SegmentAllocator(files, config, metrics, directoryDirty);
    this.segments = new JournalSegments(config, files, allocator);
    this.flusher = new JournalFlusher(config, segments, metrics, directoryDirty);
    this.flushLock = flusher.lock();
    this.appender = new JournalAppender(config, segments, flusher, metrics);
  }

  /** Opens the journal in {@code config.directory()}, creating it if needed. */
  public static SegmentedJournal open(JournalConfig config) {
    return open(config, new SegmentFiles(config.directory(), config.name()));
  }

  /** Opens with {@code files} instead of the directory's own (tests: free space on demand). */
  static SegmentedJournal open(JournalConfig config, SegmentFiles files) {
    // Opening reads and forces through interruptible channels: an interrupt flag left on the
    // caller's thread would fail it.
    return InterruptSafeChannel.deferringInterrupt(
        () -> {
          SegmentedJournal journal = new SegmentedJournal(config, files);
          try {
            journal.load();
          } catch (RuntimeException e) {
            for (Segment segment : journal.segments.all()) {
              segment.releaseQuietly();
            }
            journal.allocator.close();
            journal.lock.close();
            throw e;
          }
          return journal;
        });
  }

  private void load() {
    JournalLoader loader = new JournalLoader(config, files);
    List<Segment> loaded = loader.load();
    long confirmed = loader.confirmedFlushedIndex();
    boolean crashed = !loaded.isEmpty() && loader.crashed();
    if (loaded.isEmpty()) {
      appender.startEmpty(Math.max(1, confirmed + 1));
    } else {
      for (Segment segment : loaded) {
        segments.add(segment);
      }
      appender.resumeIn(segments.last());
    }
    firstIndex = segments.firstIndex();
    long lastIndex = appender.lastIndex();
    if (confirmed > lastIndex) {
      Segment current = appender.current();
      throw new JournalException.CorruptedJournal(
          current.file(),
          current.endPosition(),
          "the journal ends at entry "
              + lastIndex
              + " but entries up to "
              + confirmed
              + " were flushed");
    }
    flusher.resumeAt(Math.max(confirmed, firstIndex - 1));
    appender.recomputeLastAsqn();
    metrics.registerGauges(
        config.meterRegistry(),
        config.metricTags(),
        this,
        new JournalMetrics.Gauges<>(
            j -> j.segments.size(),
            j -> j.appender.lastIndex(),
            j -> j.flusher.lastFlushedIndex()));
    // Entries recovered beyond the flushed index may sit only in the page cache: make them durable
    // now, and record the journal as open (not cleanly shut down) before anything else is written.
    flush();
    flusher.recordExactly(firstIndex, false);
    allocator.prepareSpare();
    if (crashed) {
      LOG.info(
          "Journal {} recovered after an unclean shutdown: entries {}..{}",
          config.directory(),
          firstIndex,
          lastIndex);
    }
  }

  // ---------------------------------------------------------------- append

  @Override
  public long append(long asqn, DirectBuffer data, int offset, int length) {
    return append(asqn, data, offset, length, null);
  }

  @Override
  public long append(long asqn, EntryWriter writer) {
    return append(asqn, null, 0, writer.length(), writer);
  }

  private long append(long asqn, DirectBuffer data, int offset, int length, EntryWriter writer) {
    ensureOpen();
    return appender.append(asqn, data, offset, length, writer);
  }

  @Override
  public void publish() {
    appender.publish();
  }

  /** The last index a reader may read; on the writer's thread, publishes first. */
  long readableLastIndex() {
    return appender.readableLastIndex();
  }

  // ---------------------------------------------------------------- structural changes

  @Override
  public void deleteAfter(long index) {
    ensureOpen();
    publish();
    if (index >= appender.lastIndex()) {
      return;
    }
    if (index < firstIndex - 1) {
      throw new JournalException.InvalidIndex(
          "Cannot delete after index "
              + index
              + ": the journal starts at "
              + firstIndex
              + " (use reset to restart the journal at a lower index)");
    }
    long stamp = structureLock.writeLock();
    flushLock.lock();
    try {
      // Bump the epoch before any byte changes, so that anyone who sees an unchanged epoch after
      // reading an entry knows the entry was not being removed meanwhile.
      truncations.record(index);
      Segment target = segments.holding(Math.max(index, firstIndex));
      flusher.lowerTo(target, index);
      segments.deleteAfter(target);
      target.writer().truncateAfter(index);
      target.writer().recomputeLastAsqn();
      appender.truncatedTo(target, index);
    } finally {
      flushLock.unlock();
      structureLock.unlockWrite(stamp);
    }
  }

  @Override
  public void deleteUntil(long index) {
    ensureOpen();
    if (index <= firstIndex) {
      return;
    }
    long stamp = structureLock.writeLock();
    flushLock.lock();
    try {
      Segment current = appender.current();
      flusher.keepRecordBeyond(index, firstIndex, current);
      if (segments.deleteWhollyBelow(index, current)) {
        firstIndex = segments.firstIndex();
        flusher.raiseTo(firstIndex - 1);
        segments.syncDirectory();
      }
    } finally {
      flushLock.unlock();
      structureLock.unlockWrite(stamp);
    }
  }

  @Override
  public void reset(long nextIndex) {
    ensureOpen();
    if (nextIndex < 1) {
      throw new JournalException.InvalidIndex("reset needs a next index >= 1: " + nextIndex);
    }
    // Before anything is deleted: a journal left without segments (no room for a new one, say)
    // would have nothing to append to or read from.
    allocator.awaitSpare();
    long stamp = structureLock.writeLock();
    flushLock.lock();
    try {
      appender.discardStaged();
      truncations.record(nextIndex - 1);
      long nextId = appender.current().id() + 1;
      segments.deleteAll(); // oldest first: a crash part-way leaves a suffix, like a compaction
      segments.syncDirectory();
      Segment current = appender.startSegment(nextId, nextIndex);
      current.flushes().writeFlushRecord(nextIndex - 1, nextIndex - 1, false);
      current.flushes().flush(true);
      segments.syncDirectory();
      directoryDirty.set(false);
      firstIndex = nextIndex;
      appender.restartAt(nextIndex);
      flusher.resumeAt(nextIndex - 1);
    } finally {
      flushLock.unlock();
      structureLock.unlockWrite(stamp);
    }
  }

  // ---------------------------------------------------------------- flush

  /** Forces every published entry (see {@link JournalFlusher#flushTo}). */
  @Override
  public void flush() {
    appender.publishOnWriterThread();
    flushLock.lock();
    try {
      long target = appender.publishedLastIndex();
      if (closed) {
        return;
      }
      flusher.flushTo(target, firstIndex);
    } finally {
      flushLock.unlock();
    }
  }

  // ---------------------------------------------------------------- queries

  @Override
  public long getFirstIndex() {
    return firstIndex;
  }

  @Override
  public long getLastIndex() {
    return appender.lastIndex();
  }

  @Override
  public long getLastFlushedIndex() {
    return flusher.lastFlushedIndex();
  }

  @Override
  public JournalReader openReader() {
    ensureOpen();
    return new SegmentedJournalReader(this);
  }

  public JournalConfig config() {
    return config;
  }

  /** Number of segment files in use. */
  public int segmentCount() {
    return segments.size();
  }

  // ---------------------------------------------------------------- for readers

  StampedLock structureLock() {
    return structureLock;
  }

  TruncationHistory truncations() {
    return truncations;
  }

  /** The segment that holds {@code index}, or where it would be appended. */
  Segment segmentFor(long index) {
    return segments.segmentFor(index);
  }

  /** The segment whose first entry is {@code index}, or null. */
  Segment segmentStartingAt(long index) {
    return segments.startingAt(index);
  }

  Iterable<Segment> segmentsDescending() {
    return segments.descending();
  }

  boolean isClosed() {
    return closed;
  }

  private void ensureOpen() {
    if (closed) {
      throw new JournalException.Closed("Journal " + config.directory());
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    publish(); // the writer has stopped: whatever it staged is written and flushed
    flush();
    flushLock.lock();
    try {
      closed = true;
      for (Segment segment : segments.all()) {
        segment.zeroFill().stop();
      }
      allocator.close();
      flusher.recordExactly(firstIndex, true);
      for (Segment segment : segments.all()) {
        segment.release();
      }
      segments.clear();
      lock.close();
    } finally {
      flushLock.unlock();
    }
  }
}

package io.tern.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.StampedLock;
import org.agrona.DirectBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Journal}: memory-mapped segments on one directory.
 *
 * <p>Concurrency. Appends are lock-free: a frame is published by its marker, then by the volatile
 * {@link #lastIndex}. Structural changes ({@code deleteAfter}, {@code deleteUntil}, {@code reset})
 * take the write side of {@link #structureLock}; readers read frames under its optimistic read side
 * and retry when it was taken, so they never return a half-removed entry. The {@link #flushLock}
 * keeps flushes (which may run on another thread) apart from structural changes.
 */
public final class SegmentedJournal implements Journal {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentedJournal.class);

  private final JournalConfig config;
  private final SegmentFiles files;
  private final DirectoryLock lock;
  private final JournalMetrics metrics;
  private final SegmentAllocator allocator;

  /** Where the writer assembles frames until it publishes them. */
  private final FrameStaging staging = new FrameStaging();

  /** Null unless Preallocation.ZERO_ON_FLUSH; used under the flush lock. */
  private final ZeroOnFlush zeroOnFlush;

  private final AtomicBoolean directoryDirty = new AtomicBoolean();
  private final ConcurrentSkipListMap<Long, Segment> segments = new ConcurrentSkipListMap<>();
  private final StampedLock structureLock = new StampedLock();
  private final ReentrantLock flushLock = new ReentrantLock();
  private final TruncationHistory truncations = new TruncationHistory();

  private Segment current;
  private long lastAsqn = SegmentIndex.NONE;
  private volatile long firstIndex;
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

  private volatile long lastFlushedIndex;

  /** The confirmed index in the newest flush record on disk; lags one flush behind. */
  private long recordedConfirmedIndex;

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
    // JournalConfig refuses ZERO_ON_FLUSH without preallocated segments: the mode alone decides.
    this.zeroOnFlush =
        config.preallocation() == JournalConfig.Preallocation.ZERO_ON_FLUSH
            ? new ZeroOnFlush(metrics)
            : null;
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
            for (Segment segment : journal.segments.values()) {
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
      long first = Math.max(1, confirmed + 1);
      createSegment(1, first);
      lastIndex = first - 1;
      publishedLastIndex = lastIndex;
    } else {
      for (Segment segment : loaded) {
        segments.put(segment.firstIndex(), segment);
      }
      makeCurrent(segments.lastEntry().getValue());
      // A hint left by a roll that never completed must not outlive the appends that follow.
      current.writer().unseal();
      // A segment opened from its hint knows its last asqn but not which entry holds it.
      current.writer().recomputeLastAsqn();
      lastIndex = current.lastIndex();
      publishedLastIndex = lastIndex;
    }
    firstIndex = segments.firstKey();
    if (confirmed > lastIndex) {
      throw new JournalException.CorruptedJournal(
          current.file(),
          current.endPosition(),
          "the journal ends at entry "
              + lastIndex
              + " but entries up to "
              + confirmed
              + " were flushed");
    }
    lastFlushedIndex = Math.max(confirmed, firstIndex - 1);
    recordedConfirmedIndex = lastFlushedIndex;
    lastAsqn = computeLastAsqn();
    metrics.registerGauges(
        config.meterRegistry(),
        config.metricTags(),
        this,
        new JournalMetrics.Gauges<>(
            j -> j.segments.size(), j -> j.lastIndex, j -> j.lastFlushedIndex));
    // Entries recovered beyond the flushed index may sit only in the page cache: make them durable
    // now, and record the journal as open (not cleanly shut down) before anything else is written.
    flush();
    recordExactly(false);
    allocator.prepareSpare();
    if (crashed) {
      LOG.info(
          "Journal {} recovered after an unclean shutdown: entries {}..{}",
          config.directory(),
          firstIndex,
          lastIndex);
    }
  }

  private void createSegment(long id, long segmentFirstIndex) {
    allocator.takeSpare(files.segmentPath(id));
    var mapped = Segment.map(files.segmentPath(id), config.segmentSizeBytes());
    Segment segment =
        Segment.initialize(
            files.segmentPath(id), mapped, id, segmentFirstIndex, config.indexDensity());
    NativeIo.madvise(segment.address(), config.segmentSizeBytes(), config.madvise());
    segments.put(segmentFirstIndex, segment);
    makeCurrent(segment);
  }

  /** The writer moves to {@code segment}; with ZERO_ON_FLUSH, flushes may put zeros ahead of it. */
  private void makeCurrent(Segment segment) {
    current = segment;
    if (zeroOnFlush != null) {
      segment.zeroFill().fence(); // the writer's claims keep the flusher's zeros off its bytes
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
    if (length < 0) {
      throw new IllegalArgumentException("Entry length must be >= 0: " + length);
    }
    if (length > config.maxEntrySizeBytes()) {
      throw new JournalException.EntryTooLarge(length, config.maxEntrySizeBytes());
    }
    if (asqn != ASQN_IGNORE && (asqn < 0 || asqn <= lastAsqn)) {
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
    if (asqn != ASQN_IGNORE) {
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

  @Override
  public void publish() {
    if (!staging.isEmpty()) {
      current.writer().writeStaged(staging);
      publishedLastIndex = lastIndex;
    }
  }

  /** The last index a reader may read; on the writer's thread, publishes first. */
  long readableLastIndex() {
    if (Thread.currentThread() == writerThread) {
      publish();
    }
    return publishedLastIndex;
  }

  private void roll() {
    publish();
    current.zeroFill().stop(); // the rest of a sealed segment is never written
    current.writer().seal();
    try {
      createSegment(current.id() + 1, lastIndex + 1);
    } catch (RuntimeException e) {
      current.writer().unseal(); // it stays the writer's segment; a later append may still fit
      throw e;
    }
  }

  // ---------------------------------------------------------------- structural changes

  @Override
  public void deleteAfter(long index) {
    ensureOpen();
    publish();
    if (index >= lastIndex) {
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
      Segment target = segments.floorEntry(Math.max(index, firstIndex)).getValue();
      lowerFlushedIndex(target, index);
      deleteSegmentsAfter(target);
      target.writer().truncateAfter(index);
      target.writer().recomputeLastAsqn();
      makeCurrent(target);
      lastIndex = index;
      publishedLastIndex = index;
      lastAsqn = computeLastAsqn();
    } finally {
      flushLock.unlock();
      structureLock.unlockWrite(stamp);
    }
  }

  private void deleteSegmentsAfter(Segment keep) {
    boolean deletedAny = false;
    for (Segment segment : segments.descendingMap().headMap(keep.firstIndex()).values()) {
      delete(segment);
      deletedAny = true;
    }
    if (deletedAny) {
      files.syncDirectory();
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
      keepFlushRecordBeyond(index);
      boolean deletedAny = false;
      for (Segment segment : segments.values()) {
        if (segment == current || segment.lastIndex() >= index) {
          break;
        }
        delete(segment);
        deletedAny = true;
      }
      if (deletedAny) {
        firstIndex = segments.firstKey();
        // Compacted entries are gone on purpose; the flushed index never points below the journal.
        lastFlushedIndex = Math.max(lastFlushedIndex, firstIndex - 1);
        files.syncDirectory();
      }
    } finally {
      flushLock.unlock();
      structureLock.unlockWrite(stamp);
    }
  }

  /**
   * Before {@link #deleteUntil} removes the segment holding the newest flush record: writes one
   * into the first segment that stays and forces its descriptor. Else a crash right after a roll
   * (the new segment's descriptor not yet on disk) could leave no record and no started segment,
   * and the journal would reopen empty at index 1 instead of at its first index.
   */
  private void keepFlushRecordBeyond(long index) {
    Segment holder = segments.floorEntry(Math.max(lastFlushedIndex, firstIndex)).getValue();
    if (holder == current || holder.lastIndex() >= index) {
      return; // the record's segment stays
    }
    Segment survivor = null;
    for (Segment segment : segments.values()) {
      if (segment == current || segment.lastIndex() >= index) {
        survivor = segment;
        break;
      }
    }
    long floor = survivor.firstIndex() - 1; // compacted entries are gone on purpose
    long flushed = Math.max(lastFlushedIndex, floor);
    survivor
        .flushes()
        .writeFlushRecord(
            flushed, Math.min(flushed, Math.max(recordedConfirmedIndex, floor)), false);
    survivor.force(0, SegmentDescriptor.LENGTH);
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
      staging.clear(); // the staged frames are part of what is emptied
      truncations.record(nextIndex - 1);
      long nextId = current.id() + 1;
      // Oldest first: a crash part-way leaves a suffix of the journal, like a compaction.
      for (Segment segment : segments.values()) {
        delete(segment);
      }
      files.syncDirectory();
      createSegment(nextId, nextIndex);
      current.flushes().writeFlushRecord(nextIndex - 1, nextIndex - 1, false);
      current.flushes().flush(true);
      files.syncDirectory();
      directoryDirty.set(false);
      firstIndex = nextIndex;
      lastIndex = nextIndex - 1;
      publishedLastIndex = lastIndex;
      lastAsqn = SegmentIndex.NONE;
      lastFlushedIndex = nextIndex - 1;
      recordedConfirmedIndex = nextIndex - 1;
    } finally {
      flushLock.unlock();
      structureLock.unlockWrite(stamp);
    }
  }

  /**
   * Lowering is always safe; it must be durable before entries below the old value change. The
   * record goes into {@code target}, the segment that will hold the last entry; later segments,
   * whose records claim more, are deleted right after.
   */
  private void lowerFlushedIndex(Segment target, long index) {
    if (lastFlushedIndex > index) {
      recordedConfirmedIndex = Math.min(recordedConfirmedIndex, index);
      target.flushes().writeFlushRecord(index, recordedConfirmedIndex, false);
      target.force(0, SegmentDescriptor.LENGTH);
      lastFlushedIndex = index;
    }
  }

  private void delete(Segment segment) {
    segments.remove(segment.firstIndex());
    files.delete(segment.file());
    segment.markDeleted();
    segment.release();
  }

  private long computeLastAsqn() {
    for (Segment segment : segments.descendingMap().values()) {
      long asqn =
          segment == current
              ? segment.writer().lastAsqn()
              : segment.frames().lastAsqnUpTo(segment.lastIndex())[0];
      if (asqn != SegmentIndex.NONE) {
        return asqn;
      }
    }
    return SegmentIndex.NONE;
  }

  // ---------------------------------------------------------------- flush

  /**
   * One msync per flush: earlier segments first (rare: only after a roll), then the segment that
   * holds the last entry, together with its descriptor carrying the flush record.
   */
  @Override
  public void flush() {
    if (Thread.currentThread() == writerThread) {
      publish();
    }
    flushLock.lock();
    try {
      long target = publishedLastIndex;
      if (closed) {
        return;
      }
      if (target <= lastFlushedIndex) {
        // Idle: make the record exact, so corruption of the last flushed entries is detected.
        if (recordedConfirmedIndex < lastFlushedIndex) {
          recordExactly(false);
        }
        return;
      }
      long startNs = metrics.nowNs();
      if (directoryDirty.getAndSet(false)) {
        try {
          files.syncDirectory();
        } catch (RuntimeException e) {
          directoryDirty.set(true); // still needed: no later flush may skip it
          throw e;
        }
      }
      Segment holder = segments.floorEntry(target).getValue();
      long bytes = 0;
      for (Segment segment :
          segments
              .subMap(
                  segments.floorKey(Math.max(lastFlushedIndex, firstIndex)), holder.firstIndex())
              .values()) {
        bytes += segment.flushes().flush(false);
      }
      if (zeroOnFlush != null) {
        zeroOnFlush.beforeFlush(holder);
      }
      holder.flushes().writeFlushRecord(target, lastFlushedIndex, false);
      bytes += holder.flushes().flush(true);
      recordedConfirmedIndex = lastFlushedIndex;
      lastFlushedIndex = target;
      if (config.flushRecordSync() == JournalConfig.FlushRecordSync.SEPARATE) {
        recordExactly(false);
      }
      metrics.flushed(startNs, bytes);
    } finally {
      flushLock.unlock();
    }
  }

  /** Writes and forces a record whose confirmed index is the flushed index (flush lock held). */
  private void recordExactly(boolean cleanShutdown) {
    Segment holder = segments.floorEntry(Math.max(lastFlushedIndex, firstIndex)).getValue();
    holder.flushes().writeFlushRecord(lastFlushedIndex, lastFlushedIndex, cleanShutdown);
    holder.force(0, SegmentDescriptor.LENGTH);
    recordedConfirmedIndex = lastFlushedIndex;
  }

  // ---------------------------------------------------------------- queries

  @Override
  public long getFirstIndex() {
    return firstIndex;
  }

  @Override
  public long getLastIndex() {
    return lastIndex;
  }

  @Override
  public long getLastFlushedIndex() {
    return lastFlushedIndex;
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
    Map.Entry<Long, Segment> entry = segments.floorEntry(index);
    return entry == null ? segments.firstEntry().getValue() : entry.getValue();
  }

  /** The segment whose first entry is {@code index}, or null. */
  Segment segmentStartingAt(long index) {
    return segments.get(index);
  }

  Iterable<Segment> segmentsDescending() {
    return segments.descendingMap().values();
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
      for (Segment segment : segments.values()) {
        segment.zeroFill().stop();
      }
      allocator.close();
      recordExactly(true);
      for (Segment segment : segments.values()) {
        segment.release();
      }
      segments.clear();
      lock.close();
    } finally {
      flushLock.unlock();
    }
  }
}

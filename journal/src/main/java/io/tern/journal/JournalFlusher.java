package io.tern.journal;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The durable side of a {@link SegmentedJournal}: forces appended entries and keeps the flush
 * records (see {@link SegmentDescriptor.FlushRecord}) that tell the next open how far the journal
 * is durable. Holds the last flushed index and the flush lock, which keeps flushes (on any one
 * thread) apart from the journal's structural changes. Kept apart from the journal because what a
 * record must say, and when it must reach the disk, is a job of its own.
 *
 * <p>Every method but {@link #lastFlushedIndex()} and {@link #lock()} is called with the flush lock
 * held, or while the journal is being opened.
 */
final class JournalFlusher {
  private final JournalConfig config;
  private final JournalSegments segments;
  private final JournalMetrics metrics;

  /** Set when segment files were created or renamed; the next flush syncs the directory. */
  private final AtomicBoolean directoryDirty;

  /** Null unless {@link JournalConfig.Preallocation#ZERO_ON_FLUSH}. */
  private final ZeroOnFlush zeroOnFlush;

  private final ReentrantLock lock = new ReentrantLock();

  private volatile long lastFlushedIndex;

  /** The confirmed index in the newest flush record on disk; lags one flush behind. */
  private long recordedConfirmedIndex;

  JournalFlusher(
      JournalConfig config,
      JournalSegments segments,
      JournalMetrics metrics,
      AtomicBoolean directoryDirty) {
    this.config = config;
    this.segments = segments;
    this.metrics = metrics;
    this.directoryDirty = directoryDirty;
    // JournalConfig refuses ZERO_ON_FLUSH without preallocated segments: the mode alone decides.
    this.zeroOnFlush =
        config.preallocation() == JournalConfig.Preallocation.ZERO_ON_FLUSH
            ? new ZeroOnFlush(metrics)
            : null;
  }

  /** Keeps flushes apart from structural changes. */
  ReentrantLock lock() {
    return lock;
  }

  /** Every entry at or below this index survives any crash. */
  long lastFlushedIndex() {
    return lastFlushedIndex;
  }

  /**
   * Entries up to {@code index} are durable and recorded exactly (at open, and after a reset): the
   * newest record on disk says so.
   */
  void resumeAt(long index) {
    lastFlushedIndex = index;
    recordedConfirmedIndex = index;
  }

  /** Compacted entries are gone on purpose: the flushed index never points below the journal. */
  void raiseTo(long floor) {
    lastFlushedIndex = Math.max(lastFlushedIndex, floor);
  }

  /** The writer moves to {@code segment}: with ZERO_ON_FLUSH, flushes may put zeros ahead of it. */
  void writerMovedTo(Segment segment) {
    if (zeroOnFlush != null) {
      segment.zeroFill().fence(); // the writer's claims keep the flusher's zeros off its bytes
    }
  }

  /**
   * One msync per flush: earlier segments first (rare: only after a roll), then the segment that
   * holds {@code target}, together with its descriptor carrying the flush record.
   *
   * @param target the last published entry
   * @param firstIndex the journal's first index
   */
  void flushTo(long target, long firstIndex) {
    if (target <= lastFlushedIndex) {
      // Idle: make the record exact, so corruption of the last flushed entries is detected.
      if (recordedConfirmedIndex < lastFlushedIndex) {
        recordExactly(firstIndex, false);
      }
      return;
    }
    long startNs = metrics.nowNs();
    if (directoryDirty.getAndSet(false)) {
      try {
        segments.syncDirectory();
      } catch (RuntimeException e) {
        directoryDirty.set(true); // still needed: no later flush may skip it
        throw e;
      }
    }
    Segment holder = segments.holding(target);
    long bytes = 0;
    for (Segment segment : segments.fromUntil(Math.max(lastFlushedIndex, firstIndex), holder)) {
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
      recordExactly(firstIndex, false);
    }
    metrics.flushed(startNs, bytes);
  }

  /** Writes and forces a record whose confirmed index is the flushed index. */
  void recordExactly(long firstIndex, boolean cleanShutdown) {
    Segment holder = segments.holding(Math.max(lastFlushedIndex, firstIndex));
    holder.flushes().writeFlushRecord(lastFlushedIndex, lastFlushedIndex, cleanShutdown);
    holder.force(0, SegmentDescriptor.LENGTH);
    recordedConfirmedIndex = lastFlushedIndex;
  }

  /**
   * Before entries after {@code index} are removed. Lowering is always safe; it must be durable
   * before entries below the old value change. The record goes into {@code target}, the segment
   * that will hold the last entry; later segments, whose records claim more, are deleted right
   * after.
   */
  void lowerTo(Segment target, long index) {
    if (lastFlushedIndex > index) {
      recordedConfirmedIndex = Math.min(recordedConfirmedIndex, index);
      target.flushes().writeFlushRecord(index, recordedConfirmedIndex, false);
      target.force(0, SegmentDescriptor.LENGTH);
      lastFlushedIndex = index;
    }
  }

  /**
   * Before compaction deletes the segments below {@code index}: if that takes the segment holding
   * the newest flush record, writes one into the first segment that stays and forces its
   * descriptor. Else a crash right after a roll (the new segment's descriptor not yet on disk)
   * could leave no record and no started segment, and the journal would reopen empty at index 1
   * instead of at its first index.
   */
  void keepRecordBeyond(long index, long firstIndex, Segment current) {
    Segment holder = segments.holding(Math.max(lastFlushedIndex, firstIndex));
    if (holder == current || holder.lastIndex() >= index) {
      return; // the record's segment stays
    }
    Segment survivor = segments.firstKeptBelow(index, current);
    long floor = survivor.firstIndex() - 1; // compacted entries are gone on purpose
    long flushed = Math.max(lastFlushedIndex, floor);
    survivor
        .flushes()
        .writeFlushRecord(
            flushed, Math.min(flushed, Math.max(recordedConfirmedIndex, floor)), false);
    survivor.force(0, SegmentDescriptor.LENGTH);
  }
}

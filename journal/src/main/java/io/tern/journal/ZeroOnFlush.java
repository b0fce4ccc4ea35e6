package io.tern.journal;

import java.nio.ByteBuffer;

/**
 * {@link JournalConfig.Preallocation#ZERO_ON_FLUSH}: decides at each flush whether it first writes
 * zeros ahead of the frames of the segment it forces, so that later flushes overwrite blocks that
 * exist on disk instead of converting fallocated ("unwritten") extents, which costs a flush a
 * metadata commit.
 *
 * <p>Only a journal whose flushes nearly all write at least a page of frames gets zeros: each of
 * those flushes reaches a new block, so without zeros every one of them commits metadata. Smaller
 * flushes reach a new block once in several flushes, and the file system commits those conversions
 * together with other files' in one journal commit, while zeros would double the bytes written.
 *
 * <p>Zeros are kept about {@link #LEAD_FLUSHES} flushes' worth of bytes ahead of the frames and
 * topped up by {@link #REFILL_BYTES} at a time: one flush in a few dozen writes a chunk of zeros
 * (and commits the one conversion that makes it written blocks), the rest overwrite. The figures
 * behind this are in {@code docs/experiments/2026-11-27-journal-and-raft-measurements.md}. Not
 * thread-safe: called under the journal's flush lock.
 */
final class ZeroOnFlush {
  /** A flush "writes at least a page" from this many bytes of frames. */
  static final int PAGE_BYTES = ZeroFillFence.PAGE_BYTES;

  /** Fixed-point 1 for shares of flushes. */
  static final int SHARE_ONE = 1 << 16;

  /**
   * Zeros are written while at least this share (out of {@link #SHARE_ONE}) of recent flushes wrote
   * at least a page.
   */
  static final int MIN_PAGE_FLUSH_SHARE = 3 * SHARE_ONE / 4;

  /** Zeros are kept about this many average flushes ahead of the frames. */
  static final int LEAD_FLUSHES = 512;

  static final int MIN_LEAD_BYTES = 2 * 1024 * 1024;

  static final int MAX_LEAD_BYTES = 8 * 1024 * 1024;

  /**
   * Zeros one flush writes at most, once the lead fell by as much. Small refills, often: a refill
   * of half the lead made the one flush that wrote it several milliseconds slower, and the commit
   * latency of the Raft cluster with it (see the measurements page named above). Flushes larger
   * than this on average outrun the zeros, which then stop for the segment.
   */
  static final int REFILL_BYTES = 256 * 1024;

  /** The averages move by 1/16 of the difference per flush. */
  private static final int AVERAGE_WEIGHT = 16;

  private final JournalMetrics metrics;
  private long averageFlushBytes;
  private int pageFlushShare; // of SHARE_ONE
  private ByteBuffer zeros; // allocated once zeros are first needed

  ZeroOnFlush(JournalMetrics metrics) {
    this.metrics = metrics;
  }

  /** Before {@code holder} is forced: writes zeros ahead of its frames if they are due. */
  void beforeFlush(Segment holder) {
    int frameBytes = holder.flushes().unflushedBytes();
    averageFlushBytes += (frameBytes - averageFlushBytes) / AVERAGE_WEIGHT;
    pageFlushShare +=
        ((frameBytes >= PAGE_BYTES ? SHARE_ONE : 0) - pageFlushShare) / AVERAGE_WEIGHT;
    if (pageFlushShare < MIN_PAGE_FLUSH_SHARE) {
      return;
    }
    if (zeros == null) {
      zeros = ByteBuffer.allocateDirect(REFILL_BYTES);
    }
    metrics.zeroFilled(holder.zeroFill().zeroAhead(leadBytes(), REFILL_BYTES, zeros));
    if (holder.zeroFill().newlyOvertaken()) {
      metrics.zeroFillOvertaken();
    }
  }

  int leadBytes() {
    long lead = LEAD_FLUSHES * averageFlushBytes;
    return (int) Math.max(MIN_LEAD_BYTES, Math.min(MAX_LEAD_BYTES, lead));
  }
}

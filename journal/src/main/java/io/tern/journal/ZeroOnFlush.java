package io.tern.journal;

import java.nio.ByteBuffer;

/**
 * {@link JournalConfig.Preallocation#ZERO_ON_FLUSH}: decides at each flush whether it first writes
 * zeros ahead of the frames of the segment it forces, so that later flushes overwrite blocks that
 * exist on disk instead of converting fallocated ("unwritten") extents, which costs a flush a
 * metadata commit.
 *
 * <p>Only a journal whose flushes nearly all write at least a page of frames gets zeros: each of
 * those flushes reaches a new block, so without zeros every one of them commits metadata (2-core
 * VM, full journal benchmark with the journal and its limits taking turns: 16 KiB append+flush-each
 * p50 1.53x of a raw write+fdatasync into a zero-filled file with {@link
 * JournalConfig.Preallocation#FALLOCATE}, 1.06-1.23x with these zeros in 4 runs). Smaller flushes
 * reach a new block once in several flushes, and the file system commits those conversions together
 * with other files' in one journal commit, while zeros would double the bytes written.
 *
 * <p>Zeros are kept about {@link #LEAD_FLUSHES} flushes' worth of bytes ahead of the frames and
 * topped up by {@link #REFILL_BYTES} at a time: one flush in a few dozen writes a chunk of zeros
 * (and commits the one conversion that makes it written blocks), the rest overwrite. In the
 * 3-member Raft benchmark at 10,000 entries/s (same VM, alternated 10-second runs against
 * FALLOCATE): 1 partition commit p99 17-23 ms against 17-40 ms (5 pairs, p50 1.3-2.7 against
 * 1.7-2.5 ms); 10 partitions p50 5.6-6.4 ms against 7.0-8.2 ms and p99 26-133 ms against 40-68 ms
 * (3 pairs). Not thread-safe: called under the journal's flush lock.
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
   * of half the lead (1 to 4 MiB) made the one flush that wrote it several milliseconds slower, and
   * a 1-partition Raft cluster's commit p99 with it (45-53 ms against 17-40 ms without zeros, 2
   * alternated runs), while refills of 256 KiB gave 17-23 ms against 17-40 ms (5 runs). In the
   * journal benchmark the small refills cost 16 KiB flush-each p99 (1.59-1.66x of raw against 1.17x
   * with half-lead refills, one run), not p50. Flushes larger than this on average outrun the
   * zeros, which then stop for the segment.
   */
  static final int REFILL_BYTES = ZeroFiller.CHUNK_BYTES;

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
    int frameBytes = holder.unflushedBytes();
    averageFlushBytes += (frameBytes - averageFlushBytes) / AVERAGE_WEIGHT;
    pageFlushShare +=
        ((frameBytes >= PAGE_BYTES ? SHARE_ONE : 0) - pageFlushShare) / AVERAGE_WEIGHT;
    if (pageFlushShare < MIN_PAGE_FLUSH_SHARE) {
      return;
    }
    if (zeros == null) {
      zeros = ByteBuffer.allocateDirect(ZeroFiller.CHUNK_BYTES);
    }
    metrics.zeroFilled(holder.zeroAhead(leadBytes(), REFILL_BYTES, zeros));
    if (holder.zerosNewlyOvertaken()) {
      metrics.zeroFillOvertaken();
    }
  }

  int leadBytes() {
    long lead = LEAD_FLUSHES * averageFlushBytes;
    return (int) Math.max(MIN_LEAD_BYTES, Math.min(MAX_LEAD_BYTES, lead));
  }
}

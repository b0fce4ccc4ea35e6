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
 * VM, 16 KiB append+flush-each: p50 1.72-1.75x of a raw write+fdatasync into a zero-filled file,
 * 0.93-1.29x with zeros). Smaller flushes reach a new block once in several flushes, and the file
 * system commits those conversions together with other files' in one journal commit, while zeros
 * double the bytes written. Many journals on one disk lose by zeros even when their flushes are
 * large: in the 3-member Raft benchmark at 10 partitions (30 journals, flushes of about 7 KiB) the
 * members wrote more zeros than frames, and commit p99 was 20-169 ms against 20-44 ms without zeros
 * (5 alternated runs each). Re-measured once spare segments stopped being warmed whole at each
 * roll: 10 partitions p99 10-19 ms against 13-35 ms (4 pairs), but 1 partition 8.9-13.1 ms against
 * 5.5-6.9 ms (3 pairs; a single Raft journal flushes about 6 KiB at a time and each refill puts
 * about 1.5 MiB into one commit's flush), which is why this is an experiment and not the default.
 *
 * <p>The lead is about {@link #LEAD_FLUSHES} flushes' worth of bytes, so that one flush in a few
 * hundred writes zeros (and commits the one conversion that makes them all written blocks) and the
 * rest overwrite. Not thread-safe: called under the journal's flush lock.
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

  /**
   * Caps the zeros one flush writes (it refills from half the lead): 4 MiB is a few milliseconds of
   * sequential writes on the VMs we measure on.
   */
  static final int MAX_LEAD_BYTES = 8 * 1024 * 1024;

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
    metrics.zeroFilled(holder.zeroAhead(leadBytes(), zeros));
  }

  int leadBytes() {
    long lead = LEAD_FLUSHES * averageFlushBytes;
    return (int) Math.max(MIN_LEAD_BYTES, Math.min(MAX_LEAD_BYTES, lead));
  }
}

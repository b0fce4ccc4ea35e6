package io.tern.journal;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Keeps the writer of one segment and a flushing thread that writes zeros ahead of it ({@link
 * ZeroOnFlush}) from writing the same bytes. The writer claims the bytes it is about to write, a
 * step at a time; the zeroing thread reserves a chunk of whole pages beyond the claim under the
 * monitor, then writes its zeros without holding it, so a writer's claim waits for the zeros only
 * when it reaches the chunk being written. A claim never shrinks, so once the writer may have
 * written a byte, zeros never touch it again.
 */
final class ZeroFillFence {
  static final int PAGE_BYTES = 4096;

  /**
   * How far past what it needs the writer claims at once: the monitor is taken once per step, so
   * the writer's fast path is one volatile read and a compare.
   */
  static final int WRITER_CLAIM_STEP_BYTES = 64 * 1024;

  /** {@link #zeroNextChunk} result: nothing is left, the writer overtook the zeros, or stopped. */
  static final int DONE = -1;

  private static final int NOT_WRITING = -1;

  private final int sizeBytes;
  private volatile int writerEnd;
  private int zeroedEnd; // under the monitor
  private boolean stopped; // under the monitor
  private boolean overtaken; // under the monitor
  private int writingFrom = NOT_WRITING; // under the monitor: start of the chunk being zeroed
  private int writingEnd; // under the monitor

  /**
   * @param writerEnd where the writer's bytes end now (frames and the descriptor below it)
   */
  ZeroFillFence(int sizeBytes, int writerEnd) {
    this.sizeBytes = sizeBytes;
    this.writerEnd = writerEnd;
  }

  /** Writer thread, before it writes below {@code end}; waits at most for one chunk of zeros. */
  void beforeWrite(int end) {
    if (end > writerEnd) {
      claim(end);
    }
  }

  private synchronized void claim(int end) {
    int claim = (int) Math.min(sizeBytes, (long) end + WRITER_CLAIM_STEP_BYTES);
    if (writingFrom != NOT_WRITING && claim > writingFrom) {
      // Zeros are being written where the claim reaches: they must land before the writer's bytes.
      awaitChunkWritten();
    }
    writerEnd = claim;
  }

  /** Waits (monitor held) until no chunk is being written; keeps an interrupt for the caller. */
  private void awaitChunkWritten() {
    boolean interrupted = false;
    while (writingFrom != NOT_WRITING) {
      try {
        wait();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Where the zeros written so far end (0 before the first chunk). */
  synchronized int zeroedEnd() {
    return zeroedEnd;
  }

  synchronized boolean wasOvertaken() {
    return overtaken;
  }

  /**
   * No zeros are written after this returns (segment rolled past, deleted or journal closed); waits
   * for a chunk being written.
   */
  synchronized void stop() {
    stopped = true;
    awaitChunkWritten();
  }

  /**
   * Writes zeros over the next chunk beyond the writer's claim. One zeroing thread at a time (the
   * journal's flush lock).
   *
   * <p>Gives up on the segment for good once the writer has overtaken the zeros: appends that
   * outrun them are bound by throughput, not by the latency of small flushes, and zeros written
   * just ahead of them would only compete with them for the disk and the page cache.
   *
   * @return the chunk's start offset, or {@link #DONE} when nothing is left to zero, the writer
   *     overtook the zeros or the fence stopped
   */
  int zeroNextChunk(InterruptSafeChannel channel, ByteBuffer zeros) throws IOException {
    int from = reserveNextChunk(zeros);
    if (from < 0) {
      return from;
    }
    boolean written = false;
    try {
      channel.writeFully(zeros, from);
      written = true;
    } finally {
      chunkWritten(written);
    }
    return from;
  }

  /** Reserves the next chunk and sets {@code zeros} to its length; or returns DONE. */
  private synchronized int reserveNextChunk(ByteBuffer zeros) {
    if (stopped || overtaken) {
      return DONE;
    }
    int claimedPages = (int) (((long) writerEnd + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES);
    if (zeroedEnd > 0 && claimedPages > zeroedEnd) {
      overtaken = true;
      return DONE;
    }
    int from = Math.max(zeroedEnd, claimedPages);
    if (from >= sizeBytes) {
      return DONE;
    }
    int length = Math.min(zeros.capacity(), sizeBytes - from);
    zeros.clear().limit(length);
    writingFrom = from;
    writingEnd = from + length;
    return from;
  }

  private synchronized void chunkWritten(boolean written) {
    if (written) {
      zeroedEnd = writingEnd;
    }
    writingFrom = NOT_WRITING;
    notifyAll();
  }
}

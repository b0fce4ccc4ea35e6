package io.tern.journal;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Keeps the writer of one segment and the background {@link ZeroFiller} from writing the same
 * bytes. The writer claims the bytes it is about to write, a step at a time; the filler reserves a
 * chunk of whole pages beyond the claim under the monitor, then writes its zeros without holding
 * it, so a writer's claim waits for the filler only when it reaches the chunk being written. A
 * claim never shrinks, so once the writer may have written a byte, the filler never touches it
 * again.
 */
final class ZeroFillFence {
  static final int PAGE_BYTES = 4096;

  /**
   * How far past what it needs the writer claims at once: the monitor is taken once per step, so
   * the writer's fast path is one volatile read and a compare.
   */
  static final int WRITER_CLAIM_STEP_BYTES = 64 * 1024;

  /**
   * How far ahead of the writer's claim the filler goes before it pauses; it resumes once the lead
   * has halved. Spreads a segment's zeros over its life instead of one burst of disk writes when it
   * is rolled (a broker with many partitions rolls many at once when it starts). Resuming in small
   * steps instead (zeros at the writer's pace) did worse with many journals: each journal's flushes
   * then wait for the metadata commits of many small conversions of its own file.
   */
  static final int MAX_LEAD_BYTES = 16 * 1024 * 1024;

  /** {@link #zeroNextChunk} result: nothing is left, the writer overtook the zeros, or stopped. */
  static final int DONE = -1;

  /** {@link #zeroNextChunk} result: far enough ahead of the writer for now. */
  static final int PAUSED = -2;

  private static final int NOT_WRITING = -1;

  private final int sizeBytes;
  private volatile int writerEnd;
  private int zeroedEnd; // under the monitor
  private boolean stopped; // under the monitor
  private boolean filling; // under the monitor: a filler job owns this fence
  private boolean overtaken; // under the monitor
  private boolean paused; // under the monitor
  private int writingFrom = NOT_WRITING; // under the monitor: start of the chunk being zeroed
  private int writingEnd; // under the monitor
  private Runnable resume; // under the monitor: starts a new filler job

  /**
   * @param writerEnd where the writer's bytes end now (frames and the descriptor below it)
   */
  ZeroFillFence(int sizeBytes, int writerEnd) {
    this.sizeBytes = sizeBytes;
    this.writerEnd = writerEnd;
  }

  /** Writer thread, before it writes below {@code end}; waits at most for one filler chunk. */
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
    // resume is null when flushes write the zeros (ZeroOnFlush): they never go this far ahead.
    if (paused && !filling && resume != null && (long) zeroedEnd - writerEnd < MAX_LEAD_BYTES / 2) {
      paused = false;
      resume.run();
    }
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

  /**
   * False if a filler job already owns this fence, or there is nothing more to do; else the caller
   * owns it. {@code resume} starts a new job when a paused filler should go on.
   */
  synchronized boolean startFilling(Runnable resume) {
    if (filling || stopped || overtaken) {
      return false;
    }
    this.resume = resume;
    paused = false;
    filling = true;
    return true;
  }

  /** The filler job ends (finished, stopped or failed); another may start later. */
  synchronized void stopFilling() {
    filling = false;
  }

  /** Where the zeros written so far end (0 before the first chunk). */
  synchronized int zeroedEnd() {
    return zeroedEnd;
  }

  synchronized boolean wasOvertaken() {
    return overtaken;
  }

  /**
   * No zeros are written after this returns (segment deleted or journal closed); waits for a chunk
   * being written.
   */
  synchronized void stop() {
    stopped = true;
    awaitChunkWritten();
  }

  /**
   * Writes zeros over the next chunk beyond the writer's claim. Filler thread only.
   *
   * <p>Gives up on the segment for good once the writer has overtaken the zeros: appends that
   * outrun the filler are bound by throughput, not by the latency of small flushes, and zeros
   * written just ahead of them would only compete with them for the disk and the page cache.
   *
   * @return the chunk's start offset, {@link #PAUSED}, or {@link #DONE} when nothing is left to
   *     zero, the writer overtook the filler or the fence stopped
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

  /** Reserves the next chunk and sets {@code zeros} to its length; or returns DONE or PAUSED. */
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
    if (from - writerEnd >= MAX_LEAD_BYTES) {
      paused = true;
      return PAUSED;
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

package io.tern.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;

/**
 * Zeros written ahead of the writer into one {@link Segment} by flushes, in {@link
 * JournalConfig.Preallocation#ZERO_ON_FLUSH} (see {@link ZeroOnFlush}). The segment's {@link
 * ZeroFillFence} keeps the writer's frames and the flushing thread's zeros apart. Unused with
 * {@link JournalConfig.Preallocation#FALLOCATE}.
 */
final class SegmentZeroFill {
  private final Segment segment;

  /** Null until the segment first becomes the writer's, and never replaced. */
  private volatile ZeroFillFence fence;

  private int zerosToForceEnd; // flush lock: end of zeros written since the last flush
  private boolean overtakenReported; // flush lock

  SegmentZeroFill(Segment segment) {
    this.segment = segment;
  }

  /**
   * The fence, created on first use with the writer's current end. Writer thread only (the journal
   * calls it when the segment becomes the writer's).
   */
  ZeroFillFence fence() {
    ZeroFillFence current = fence;
    if (current == null) {
      current = new ZeroFillFence(segment.sizeBytes(), segment.writer().appendPosition());
      fence = current;
    }
    return current;
  }

  /** The fence, or null if zeros were never started for this segment. */
  ZeroFillFence startedFence() {
    return fence;
  }

  /** No more zeros are written into this segment once this returns. */
  void stop() {
    ZeroFillFence current = fence;
    if (current != null) {
      current.stop();
    }
  }

  /**
   * Before a flush, once the zeros beyond the writer's claim fell {@code refillBytes} short of
   * {@code leadBytes} past the frames, writes up to {@code refillBytes} more; the next {@link
   * SegmentFlushes#flush} forces them with the frames. Called under the journal's flush lock, after
   * the segment became the writer's.
   *
   * @param zeros a direct buffer of zeros, {@link ZeroOnFlush#REFILL_BYTES} long
   * @return bytes of zeros written
   */
  int zeroAhead(int leadBytes, int refillBytes, ByteBuffer zeros) {
    ZeroFillFence current = fence;
    InterruptSafeChannel channel = segment.channel();
    if (current == null) {
      return 0;
    }
    int end = segment.endPosition();
    if (current.zeroedEnd() - end > leadBytes - refillBytes) {
      return 0;
    }
    int written = 0;
    try {
      while (written < refillBytes && current.zeroedEnd() - end < leadBytes) {
        int from = current.zeroNextChunk(channel, zeros);
        if (from < 0) {
          break; // the writer overtook the zeros, the segment is full, or zeroing stopped
        }
        written += zeros.limit();
        zerosToForceEnd = Math.max(zerosToForceEnd, from + zeros.limit());
      }
    } catch (ClosedChannelException e) {
      // Closed for good (the segment was released, or something keeps closing it). The zeros only
      // save later flushes work, so this refill simply stops.
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to write zeros ahead of the frames of journal segment " + segment.file(), e);
    }
    return written;
  }

  /** Where the zeros written since the last call end (0 if none); flush lock held. */
  int takeZerosToForceEnd() {
    int end = zerosToForceEnd;
    zerosToForceEnd = 0;
    return end;
  }

  /**
   * True once: the first time this segment's zeros are found overtaken by its writer, after which
   * none are written (flush lock held).
   */
  boolean newlyOvertaken() {
    ZeroFillFence current = fence;
    if (current == null || overtakenReported || !current.wasOvertaken()) {
      return false;
    }
    overtakenReported = true;
    return true;
  }
}

package io.tern.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link JournalConfig.Preallocation#ZERO_FILL}: writes and forces zeros into the writer's segment
 * ahead of the writer, in the background, so that the writer's flushes overwrite blocks that exist
 * on disk instead of converting fallocated ("unwritten") extents, which costs each such flush a
 * metadata commit. A writer that overtakes the filler simply writes where no zeros were needed; the
 * filler continues beyond it. Runs in slices on the allocator's thread so that preparing the next
 * segment is never held up for long.
 */
final class ZeroFiller {
  private static final Logger LOG = LoggerFactory.getLogger(ZeroFiller.class);

  /**
   * Zeros written per chunk: the longest a writer's claim waits when it reaches the chunk being
   * written.
   */
  static final int CHUNK_BYTES = 256 * 1024;

  /**
   * Zeros written, then forced together, per slice of work on the background thread. Small, because
   * every other journal's flush on the disk may queue behind this force; larger slices raised the
   * commit latency of a many-partition Raft cluster several-fold.
   */
  static final int SLICE_BYTES = CHUNK_BYTES;

  private final Executor executor;
  private final JournalMetrics metrics;
  private final ByteBuffer zeros = ByteBuffer.allocateDirect(CHUNK_BYTES);

  ZeroFiller(Executor executor, JournalMetrics metrics) {
    this.executor = executor;
    this.metrics = metrics;
  }

  /** Starts filling {@code segment} beyond its writer's claim, unless a job already does. */
  void fillAhead(Segment segment) {
    ZeroFillFence fence = segment.zeroFill().fence();
    if (!segment.retain()) {
      return;
    }
    if (!fence.startFilling(() -> fillAhead(segment))) {
      segment.release();
      return;
    }
    Job job = new Job(segment, fence);
    if (!job.submit()) {
      job.end();
    }
  }

  private final class Job implements Runnable {
    private final Segment segment;
    private final ZeroFillFence fence;
    private InterruptSafeChannel channel;

    Job(Segment segment, ZeroFillFence fence) {
      this.segment = segment;
      this.fence = fence;
    }

    boolean submit() {
      try {
        executor.execute(this);
        return true;
      } catch (RejectedExecutionException e) {
        return false; // the journal is closing
      }
    }

    @Override
    public void run() {
      boolean more;
      try {
        more = slice();
      } catch (IOException | RuntimeException e) {
        // Only an optimisation is lost: the writer's flushes stay correct, just slower. A segment
        // deleted meanwhile (its file renamed away) is no news.
        if (segment.isDeleted()) {
          LOG.debug("Stopped zero-filling deleted journal segment {}", segment.file(), e);
        } else {
          LOG.warn("Zero-filling journal segment {} failed; continuing without", segment.file(), e);
        }
        more = false;
      }
      if (!more || !submit()) {
        end();
      }
    }

    /** Zeroes and forces up to one slice; true if more may remain. */
    private boolean slice() throws IOException {
      if (channel == null) {
        channel = InterruptSafeChannel.open(segment.file(), StandardOpenOption.WRITE);
      }
      int forceFrom = Integer.MAX_VALUE;
      int forceTo = 0;
      int written = 0;
      boolean more = true;
      while (written < SLICE_BYTES) {
        int from = fence.zeroNextChunk(channel, zeros);
        if (from < 0) {
          more = false; // done, or paused until the writer's claims resume it
          break;
        }
        int to = from + zeros.limit();
        forceFrom = Math.min(forceFrom, from);
        forceTo = Math.max(forceTo, to);
        written += to - from;
      }
      if (written > 0) {
        // The range may include frames the writer wrote meanwhile; forcing them early is harmless.
        segment.force(forceFrom, forceTo - forceFrom);
        metrics.zeroFilled(written);
      }
      if (!more && fence.wasOvertaken()) {
        metrics.zeroFillOvertaken();
      }
      return more;
    }

    void end() {
      fence.stopFilling();
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException e) {
          LOG.debug("Closing {} after zero-filling failed", segment.file(), e);
        }
      }
      segment.release();
    }
  }
}

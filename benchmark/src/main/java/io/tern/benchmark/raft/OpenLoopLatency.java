package io.tern.benchmark.raft;

import io.tern.benchmark.machine.ProcessCpu;
import io.tern.benchmark.machine.StallWatch;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Commit latency at a fixed offered rate. Sends are scheduled at fixed intervals, round-robin over
 * the partitions, whatever the cluster does (open loop), and each latency is measured from the
 * entry's intended send time, not from when the scheduler got to it: a stall then shows up in every
 * entry it delayed instead of hiding them (no coordinated omission).
 *
 * <p>A cluster that cannot sustain the rate builds an ever longer backlog, and its latencies only
 * say how long the run was. Once the backlog exceeds {@link #SATURATION_BACKLOG_NS} worth of
 * entries, or entries are still not committed {@link #DRAIN_TIMEOUT_NS} after the last send, the
 * run is reported as saturated, with the rate the cluster did commit.
 */
final class OpenLoopLatency {
  /** Longest latency recorded: a stall longer than this is clipped to it, not lost. */
  static final long HIGHEST_TRACKABLE_NS = TimeUnit.MINUTES.toNanos(5);

  static final long SATURATION_BACKLOG_NS = TimeUnit.SECONDS.toNanos(1);

  /** How long to wait for the last entries after the schedule ended before calling them lost. */
  static final long DRAIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

  /**
   * Most measured entries whose times are kept to check them against stalls (16 bytes each); a
   * longer run does not report how many entries a stall held up.
   */
  static final int MAX_TRACKED_ENTRIES = 4_000_000;

  /**
   * A completion time no commit records. {@code System.nanoTime()} could return it, with odds of
   * one in 2^64 per entry; such an entry would be left out of the stall count, nothing more.
   */
  private static final long NOT_COMMITTED = 0;

  /**
   * @param sent entries scheduled in the measured window
   * @param failed of those, appends that completed with an error (not in the histogram)
   * @param incomplete of those, appends still not done after the drain timeout (not in it either)
   * @param committedPerS commits per second in the measured window, or over the whole run when
   *     saturated
   * @param saturated the run stopped early: the cluster could not keep up with the rate
   * @param maxSchedulerLagNs how late the scheduler itself issued an append at worst
   * @param processCpuNs CPU time the whole process (every member and the client) used while the
   *     measured entries were sent; -1 where the JVM cannot tell
   * @param measuredWallNs how long that took
   * @param stalls when the process could not run during the measured window (see {@link
   *     StallWatch}); null when not watched
   * @param inStalls committed measured entries in flight during one of those stalls; -1 if not
   *     known (more entries or stalls than are kept)
   */
  record Result(
      long sent,
      long failed,
      long incomplete,
      double committedPerS,
      boolean saturated,
      long p50Ns,
      long p99Ns,
      long p999Ns,
      long maxNs,
      long maxSchedulerLagNs,
      long processCpuNs,
      long allocatedBytes,
      long measuredWallNs,
      StallWatch.Stalls stalls,
      long inStalls) {

    /** CPU of the process per entry sent in the measured window, in µs; -1 if unknown. */
    double cpuMicrosPerEntry() {
      return processCpuNs < 0 || sent == 0 ? -1 : processCpuNs / 1e3 / sent;
    }

    /** Heap bytes the process allocated per entry sent in the measured window; -1 if unknown. */
    double allocatedBytesPerEntry() {
      return allocatedBytes < 0 || sent == 0 ? -1 : (double) allocatedBytes / sent;
    }

    /** Cores the process kept busy on average while the measured entries were sent. */
    double cpuCores() {
      return processCpuNs < 0 || measuredWallNs <= 0 ? -1 : (double) processCpuNs / measuredWallNs;
    }
  }

  private OpenLoopLatency() {}

  static Result run(
      ClusterUnderTest cluster,
      int partitions,
      int ratePerS,
      long warmupNs,
      long measureNs,
      byte[] payload)
      throws InterruptedException {
    Histogram histogram = new ConcurrentHistogram(HIGHEST_TRACKABLE_NS, 3);
    LongAdder measuredDone = new LongAdder();
    LongAdder measuredFailed = new LongAdder();
    LongAdder committedTotal = new LongAdder();
    AtomicLong inFlight = new AtomicLong();
    double intervalNs = 1e9 / ratePerS;
    long total = (long) ((warmupNs + measureNs) / intervalNs);
    long maxBacklog = (long) (SATURATION_BACKLOG_NS / intervalNs);
    int tracked = (int) Math.min(MAX_TRACKED_ENTRIES, (long) (measureNs / intervalNs) + 1);
    long[] trackedIntendedNs = new long[tracked];
    AtomicLongArray trackedDoneNs = new AtomicLongArray(tracked); // starts as NOT_COMMITTED (0)
    // Started before the first send, so that starting it does not delay a measured one; only the
    // stalls of the measured window are reported.
    StallWatch stallWatch = StallWatch.enabled() ? StallWatch.start() : null;
    long startNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1);
    long measureFromNs = startNs + warmupNs;
    long measuredSent = 0;
    long measuredStartNs = 0;
    long measuredStartCpuNs = 0;
    long measuredStartAllocatedBytes = 0;
    long maxLagNs = 0;
    boolean saturated = false;
    long stoppedNs;
    long stoppedCpuNs;
    long stoppedAllocatedBytes;
    long committedWhenStopped;
    StallWatch.Stalls stalls = null;
    try {
      for (long i = 0; i < total; i++) {
        long intendedNs = startNs + (long) (i * intervalNs);
        long waitNs = intendedNs - System.nanoTime();
        if (waitNs > 0) {
          // No spinning: on a small machine the spinner would take a core from the cluster. A late
          // wake-up is harmless: latencies count from the intended time, and the next sends catch
          // up.
          LockSupport.parkNanos(waitNs);
        } else {
          maxLagNs = Math.max(maxLagNs, -waitNs);
        }
        if (inFlight.get() > maxBacklog || -waitNs > SATURATION_BACKLOG_NS) {
          saturated = true;
          break;
        }
        boolean measured = intendedNs >= measureFromNs;
        if (measured) {
          if (measuredSent == 0) {
            measuredStartNs = System.nanoTime();
            measuredStartCpuNs = ProcessCpu.nanos();
            measuredStartAllocatedBytes = ProcessCpu.allocatedBytes();
          }
          measuredSent++;
        }
        int trackIndex = measured && measuredSent <= tracked ? (int) (measuredSent - 1) : -1;
        if (trackIndex >= 0) {
          trackedIntendedNs[trackIndex] = intendedNs;
        }
        inFlight.incrementAndGet();
        CompletableFuture<Void> append;
        try {
          append = cluster.append((int) (i % partitions), payload);
        } catch (RuntimeException e) {
          append = CompletableFuture.failedFuture(e);
        }
        append.whenComplete(
            (ignored, error) -> {
              long doneNs = System.nanoTime();
              long latencyNs = doneNs - intendedNs;
              if (error == null) {
                committedTotal.increment();
              }
              if (measured) {
                if (error == null) {
                  histogram.recordValue(Math.min(Math.max(latencyNs, 0), HIGHEST_TRACKABLE_NS));
                  if (trackIndex >= 0) {
                    trackedDoneNs.set(trackIndex, doneNs);
                  }
                } else {
                  measuredFailed.increment();
                }
                measuredDone.increment();
              }
              inFlight.decrementAndGet();
            });
      }
      stoppedNs = System.nanoTime();
      stoppedCpuNs = ProcessCpu.nanos();
      stoppedAllocatedBytes = ProcessCpu.allocatedBytes();
      committedWhenStopped = committedTotal.sum();
      long drainDeadlineNs = stoppedNs + DRAIN_TIMEOUT_NS;
      while (!saturated && inFlight.get() > 0 && System.nanoTime() < drainDeadlineNs) {
        Thread.sleep(1);
      }
    } finally {
      if (stallWatch != null) {
        // From the first measured entry's intended time, which may precede its send.
        stalls = stallWatch.stop().since(measuredSent == 0 ? Long.MAX_VALUE : measureFromNs);
      }
    }
    // How many entries a stall held up: where that is more than 1 in 100, the p99 is mostly made
    // of the stalls.
    long inStalls = -1;
    if (stalls != null && stalls.complete() && measuredSent <= tracked) {
      inStalls = 0;
      for (int j = 0; j < measuredSent; j++) {
        long doneNs = trackedDoneNs.get(j);
        if (doneNs != NOT_COMMITTED && stalls.overlaps(trackedIntendedNs[j], doneNs)) {
          inStalls++;
        }
      }
    }
    long failed = measuredFailed.sum();
    long incomplete = measuredSent - measuredDone.sum();
    saturated |= incomplete > 0;
    double committedPerS =
        saturated
            ? committedWhenStopped / ((stoppedNs - startNs) / 1e9)
            : (measuredSent - failed - incomplete) / (measureNs / 1e9);
    return new Result(
        measuredSent,
        failed,
        incomplete,
        committedPerS,
        saturated,
        histogram.getValueAtPercentile(50),
        histogram.getValueAtPercentile(99),
        histogram.getValueAtPercentile(99.9),
        histogram.getMaxValue(),
        maxLagNs,
        measuredSent == 0 || stoppedCpuNs < 0 ? -1 : stoppedCpuNs - measuredStartCpuNs,
        measuredSent == 0 || stoppedAllocatedBytes < 0
            ? -1
            : stoppedAllocatedBytes - measuredStartAllocatedBytes,
        measuredSent == 0 ? 0 : stoppedNs - measuredStartNs,
        stalls,
        inStalls);
  }
}

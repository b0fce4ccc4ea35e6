package io.tern.benchmark.common;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/** Percentiles of a latency histogram recorded in nanoseconds. */
public record LatencySummary(
    long count, double meanNs, long p50Ns, long p99Ns, long p999Ns, long maxNs, long elapsedNs) {

  /** Longest latency recorded: a stall longer than this is clipped to it, not lost. */
  public static final long HIGHEST_TRACKABLE_NS = TimeUnit.MINUTES.toNanos(5);

  /** Preallocated, so recording does not allocate on the measured path. */
  public static Histogram newHistogram() {
    return new Histogram(HIGHEST_TRACKABLE_NS, 3);
  }

  public static void record(Histogram histogram, long latencyNs) {
    histogram.recordValue(Math.min(Math.max(latencyNs, 0), HIGHEST_TRACKABLE_NS));
  }

  public static LatencySummary of(Histogram histogram, long elapsedNs) {
    return new LatencySummary(
        histogram.getTotalCount(),
        histogram.getMean(),
        histogram.getValueAtPercentile(50),
        histogram.getValueAtPercentile(99),
        histogram.getValueAtPercentile(99.9),
        histogram.getMaxValue(),
        elapsedNs);
  }

  /** Operations completed per second of the measured run (each sample is one operation). */
  public double operationsPerS() {
    return count / (Math.max(elapsedNs, 1) / 1e9);
  }
}

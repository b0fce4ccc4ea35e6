package io.tern.benchmark.raft;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Collection;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Percentiles of Tern's Micrometer timers, merged over several timers (one per partition): each is
 * the upper bound of the histogram bucket the rank falls in, so it overstates by at most one bucket
 * (a quarter).
 */
final class TimerPercentiles {
  private static final double[] PERCENTILES = {0.5, 0.99, 0.999};

  /**
   * Bucket bounds: from 50 µs up by a quarter each to over 2 s (a SimpleMeterRegistry has none).
   */
  private static final double[] BOUNDS_NS = bounds(50_000, 1.25, 2_000_000_000);

  private TimerPercentiles() {}

  /**
   * Gives every Tern timer in {@code registry} fixed histogram buckets, so that {@link #describe}
   * has something to merge: a {@link SimpleMeterRegistry} publishes no percentile histogram.
   */
  static void addBuckets(SimpleMeterRegistry registry) {
    registry
        .config()
        .meterFilter(
            new MeterFilter() {
              @Override
              public DistributionStatisticConfig configure(
                  Meter.Id id, DistributionStatisticConfig config) {
                if (id.getType() != Meter.Type.TIMER || !id.getName().startsWith("tern.")) {
                  return config;
                }
                return DistributionStatisticConfig.builder()
                    .serviceLevelObjectives(BOUNDS_NS)
                    .build()
                    .merge(config);
              }
            });
  }

  private static double[] bounds(double first, double factor, double last) {
    java.util.List<Double> bounds = new java.util.ArrayList<>();
    for (double bound = first; bound <= last; bound *= factor) {
      bounds.add(Math.rint(bound));
    }
    return bounds.stream().mapToDouble(Double::doubleValue).toArray();
  }

  static String describe(Collection<Timer> timers) {
    TreeMap<Double, Double> countByBoundMs = new TreeMap<>();
    long count = 0;
    double maxMs = 0;
    for (Timer timer : timers) {
      HistogramSnapshot snapshot = timer.takeSnapshot();
      count += snapshot.count();
      maxMs = Math.max(maxMs, snapshot.max(TimeUnit.MILLISECONDS));
      for (CountAtBucket bucket : snapshot.histogramCounts()) {
        countByBoundMs.merge(bucket.bucket(TimeUnit.MILLISECONDS), bucket.count(), Double::sum);
      }
    }
    if (count == 0) {
      return "none";
    }
    if (countByBoundMs.isEmpty()) {
      return String.format(Locale.ROOT, "n=%d (no histogram) max(recent)=%.2fms", count, maxMs);
    }
    // Registries differ in whether bucket counts are cumulative; sum them up if they are not.
    TreeMap<Double, Double> cumulativeByBoundMs = countByBoundMs;
    if (countByBoundMs.lastEntry().getValue() < count) {
      cumulativeByBoundMs = new TreeMap<>();
      double sum = 0;
      for (var entry : countByBoundMs.entrySet()) {
        sum += entry.getValue();
        cumulativeByBoundMs.put(entry.getKey(), sum);
      }
    }
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "n=%d", count));
    for (double percentile : PERCENTILES) {
      double rank = percentile * count;
      Double bound = null;
      for (var entry : cumulativeByBoundMs.entrySet()) {
        if (entry.getValue() >= rank) {
          bound = entry.getKey();
          break;
        }
      }
      out.append(
          String.format(
              Locale.ROOT,
              " p%s<=%s",
              percentile == 0.5 ? "50" : percentile == 0.99 ? "99" : "99.9",
              bound == null ? ">max" : String.format(Locale.ROOT, "%.2fms", bound)));
    }
    out.append(String.format(Locale.ROOT, " max(recent)=%.2fms", maxMs));
    return out.toString();
  }
}

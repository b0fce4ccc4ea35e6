package io.tern.benchmark.load;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What the starter's instances met, counted from any thread: sent, ended, refused by backpressure,
 * failed otherwise, and three latencies. {@link #interval} takes what happened since the last call.
 */
public final class LoadStats {
  static final long MAX_LATENCY_NS = TimeUnit.MINUTES.toNanos(10);

  private final AtomicLong sent = new AtomicLong();
  private final AtomicLong ended = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final Recorder endLatency = new Recorder(MAX_LATENCY_NS, 3);
  private final Recorder createLatency = new Recorder(MAX_LATENCY_NS, 3);
  private final Recorder refusalLatency = new Recorder(MAX_LATENCY_NS, 3);
  private final Map<Integer, Recorder> endLatencyByPartition = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> failedByStatus = new ConcurrentHashMap<>();
  private long[] lastCounts = new long[4];

  /** What happened in one interval (or, added up, in a whole phase). */
  static final class Interval {
    long sent;
    long ended;
    long refused;
    long failed;

    /** Create to end of the instance (its result, or its last job's completion acknowledged). */
    final Histogram endLatency = new Histogram(MAX_LATENCY_NS, 3);

    /** Create to the create's own answer, for creates that do not await the result. */
    final Histogram createLatency = new Histogram(MAX_LATENCY_NS, 3);

    /** Create to its RESOURCE_EXHAUSTED answer. */
    final Histogram refusalLatency = new Histogram(MAX_LATENCY_NS, 3);

    /** {@link #endLatency} by the partition of the instance, where it is known. */
    final Map<Integer, Histogram> endLatencyByPartition = new TreeMap<>();

    void add(Interval other) {
      sent += other.sent;
      ended += other.ended;
      refused += other.refused;
      failed += other.failed;
      endLatency.add(other.endLatency);
      createLatency.add(other.createLatency);
      refusalLatency.add(other.refusalLatency);
      other.endLatencyByPartition.forEach(
          (partition, latency) ->
              endLatencyByPartition
                  .computeIfAbsent(partition, p -> new Histogram(MAX_LATENCY_NS, 3))
                  .add(latency));
    }
  }

  void sent() {
    sent.incrementAndGet();
  }

  void created(long latencyNs) {
    createLatency.recordValue(clamp(latencyNs));
  }

  void ended(long latencyNs) {
    endLatency.recordValue(clamp(latencyNs));
    ended.incrementAndGet();
  }

  /** An instance of {@code partitionId} ended. */
  void ended(long latencyNs, int partitionId) {
    endLatencyByPartition
        .computeIfAbsent(partitionId, p -> new Recorder(MAX_LATENCY_NS, 3))
        .recordValue(clamp(latencyNs));
    ended(latencyNs);
  }

  void refused(long latencyNs) {
    refusalLatency.recordValue(clamp(latencyNs));
    refused.incrementAndGet();
  }

  void failed() {
    failed.incrementAndGet();
  }

  /** An instance failed with gRPC status {@code status} (or the error's class, without one). */
  void failed(String status) {
    failedByStatus.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
    failed();
  }

  /** Instances sent so far. */
  public long sentSoFar() {
    return sent.get();
  }

  /** Instances ended so far. */
  public long endedSoFar() {
    return ended.get();
  }

  /** The failures so far by what {@link #failed(String)} was told, refusals not included. */
  public Map<String, Long> failedByStatus() {
    Map<String, Long> counts = new TreeMap<>();
    failedByStatus.forEach((status, count) -> counts.put(status, count.get()));
    return counts;
  }

  public long failedSoFar() {
    return failed.get();
  }

  public long refusedSoFar() {
    return refused.get();
  }

  /** Since the last call (one caller at a time). */
  synchronized Interval interval() {
    Interval interval = new Interval();
    long[] counts = {sent.get(), ended.get(), refused.get(), failed.get()};
    interval.sent = counts[0] - lastCounts[0];
    interval.ended = counts[1] - lastCounts[1];
    interval.refused = counts[2] - lastCounts[2];
    interval.failed = counts[3] - lastCounts[3];
    lastCounts = counts;
    interval.endLatency.add(endLatency.getIntervalHistogram());
    interval.createLatency.add(createLatency.getIntervalHistogram());
    interval.refusalLatency.add(refusalLatency.getIntervalHistogram());
    endLatencyByPartition.forEach(
        (partition, recorder) ->
            interval.endLatencyByPartition.put(partition, recorder.getIntervalHistogram()));
    return interval;
  }

  private static long clamp(long latencyNs) {
    return Math.max(0, Math.min(latencyNs, MAX_LATENCY_NS));
  }
}

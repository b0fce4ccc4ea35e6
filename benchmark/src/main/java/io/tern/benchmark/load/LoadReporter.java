package io.tern.benchmark.load;

import io.tern.benchmark.common.Progress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.HdrHistogram.DoubleHistogram;

/**
 * Once a second during a load run: what the starter's instances met in that second, and each
 * partition leader's backpressure limit and commands in flight; printed as a progress line and kept
 * as a series row. Seconds inside the measured window add up to {@link #measured}.
 */
final class LoadReporter {
  private static final long INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);

  /** One second of a run: the starter's outcomes and each partition leader's limiter. */
  record Row(
      double seconds,
      String phase,
      long sent,
      long ended,
      long refused,
      long failed,
      long outstanding,
      double latencyMsP50,
      double latencyMsP99,
      Map<Integer, LimiterGauges.Partition> partitions) {

    Map<String, Object> json() {
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("seconds", seconds);
      row.put("phase", phase);
      row.put("sent", sent);
      row.put("ended", ended);
      row.put("refused", refused);
      row.put("failed", failed);
      row.put("outstanding", outstanding);
      row.put("latencyMsP50", latencyMsP50);
      row.put("latencyMsP99", latencyMsP99);
      Map<String, Object> gauges = new LinkedHashMap<>();
      partitions.forEach(
          (partition, limiter) -> {
            Map<String, Object> gauge = new LinkedHashMap<>();
            gauge.put("leader", limiter.node());
            gauge.put("limit", limiter.limit());
            gauge.put("inFlight", limiter.inFlight());
            gauges.put(Integer.toString(partition), gauge);
          });
      row.put("partitions", gauges);
      return row;
    }
  }

  private final LoadStats stats;
  private final LimiterGauges gauges;
  private final ExporterLags exporterLags;

  /** Each exporter's lag, one sample a second of the measured window, by exporter id. */
  private final Map<String, DoubleHistogram> lagSeconds = new TreeMap<>();

  private final MetricsWindow processing;
  private Map<String, Object> processingLatency = Map.of();
  private final CpuWindow cpu;
  private Map<String, Object> cpuFigures = Map.of();
  private final LongSupplier outstanding;
  private final Progress progress;
  private final LoadStats.Interval measured = new LoadStats.Interval();
  private final List<Row> series = new ArrayList<>();
  private final Map<Integer, double[]> limitRange = new TreeMap<>(); // min, max, last
  private long refusedTotal;
  private long failedTotal;
  private long startNs;
  private long measureFromNs;
  private long endNs;
  private Thread thread;
  private volatile boolean running;

  LoadReporter(
      LoadStats stats,
      LimiterGauges gauges,
      ExporterLags exporterLags,
      MetricsWindow processing,
      CpuWindow cpu,
      LongSupplier outstanding,
      Progress progress) {
    this.stats = stats;
    this.gauges = gauges;
    this.exporterLags = exporterLags;
    this.processing = processing;
    this.cpu = cpu;
    this.outstanding = outstanding;
    this.progress = progress;
  }

  /** Reports every second from now, measuring from {@code measureFromNs} to {@code endNs}. */
  void start(long startNs, long measureFromNs, long endNs) {
    this.startNs = startNs;
    this.measureFromNs = measureFromNs;
    this.endNs = endNs;
    stats.interval(); // what happened before the start is not this run's
    if (measureFromNs <= startNs) {
      processing.open();
      cpu.open();
    }
    running = true;
    thread = new Thread(this::run, "load-reporter");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Stops at the next second's report, or at the end of the measured window if that is later, so
   * that every measured second is reported as measured.
   */
  void stop() throws InterruptedException {
    running = false;
    thread.join();
  }

  private void run() {
    long nextNs = startNs + INTERVAL_NS;
    while (true) {
      long waitNs = nextNs - System.nanoTime();
      if (waitNs > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(waitNs);
        } catch (InterruptedException e) {
          return;
        }
      }
      report(nextNs);
      if (nextNs == measureFromNs) {
        processing.open();
        cpu.open();
      } else if (nextNs == endNs) {
        Map<String, Object> cpuWindow;
        synchronized (this) {
          cpuWindow = cpu.close(measured.ended);
        }
        Map<String, Object> window =
            processing.close().histogram(MetricsWindow.PROCESSING_LATENCY).figures();
        synchronized (this) {
          processingLatency = window;
          cpuFigures = cpuWindow;
        }
      }
      if (!running && nextNs >= endNs) {
        return;
      }
      nextNs += INTERVAL_NS;
    }
  }

  private synchronized void report(long atNs) {
    LoadStats.Interval second = stats.interval();
    Map<Integer, LimiterGauges.Partition> limiters = gauges.read();
    Map<String, Double> lags = exporterLags.read();
    refusedTotal += second.refused;
    failedTotal += second.failed;
    boolean inWindow = atNs > measureFromNs && atNs <= endNs;
    String phase = atNs <= measureFromNs ? "warmup" : inWindow ? "measure" : "drain";
    if (inWindow) {
      measured.add(second);
      limiters.forEach(
          (partition, limiter) -> {
            double[] range =
                limitRange.computeIfAbsent(partition, id -> new double[] {Double.MAX_VALUE, 0, 0});
            range[0] = Math.min(range[0], limiter.limit());
            range[1] = Math.max(range[1], limiter.limit());
            range[2] = limiter.limit();
          });
      lags.forEach(
          (id, lag) ->
              lagSeconds.computeIfAbsent(id, any -> new DoubleHistogram(3)).recordValue(lag));
    }
    Row row =
        new Row(
            Math.round((atNs - startNs) / 1e8) / 10.0,
            phase,
            second.sent,
            second.ended,
            second.refused,
            second.failed,
            outstanding.getAsLong(),
            LoadBenchmark.ms(second.endLatency, 50),
            LoadBenchmark.ms(second.endLatency, 99),
            limiters);
    series.add(row);
    StringBuilder limits = new StringBuilder();
    limiters.forEach(
        (partition, limiter) ->
            limits.append(
                String.format(" p%d %.0f/%.0f", partition, limiter.inFlight(), limiter.limit())));
    progress.log(
        "%-7s %5d PI/s, p50 %7.2f ms, p99 %7.2f ms, %5d refused, %d failed, %d in flight;"
            + " in flight/limit:%s",
        phase,
        second.ended,
        LoadBenchmark.ms(second.endLatency, 50),
        LoadBenchmark.ms(second.endLatency, 99),
        second.refused,
        second.failed,
        outstanding.getAsLong(),
        limits.length() == 0 ? " (no gauges)" : limits);
    if (!lags.isEmpty()) {
      StringBuilder behind = new StringBuilder();
      lags.forEach((id, lag) -> behind.append(String.format(" %s %.2f s", id, lag)));
      progress.log("        exporters behind by:%s", behind);
    }
  }

  /**
   * Each exporter's lag over the measured window, sampled once a second: p50, p99 and max in
   * seconds, and the samples taken; empty if the brokers run no exporter.
   */
  synchronized Map<String, Object> exporterLagSummary() {
    Map<String, Object> summary = new LinkedHashMap<>();
    lagSeconds.forEach(
        (id, histogram) -> {
          Map<String, Object> figures = new LinkedHashMap<>();
          figures.put("samples", histogram.getTotalCount());
          figures.put("p50", histogram.getValueAtPercentile(50));
          figures.put("p99", histogram.getValueAtPercentile(99));
          figures.put("max", histogram.getMaxValue());
          summary.put(id, figures);
        });
    return summary;
  }

  /** The brokers' write-to-processed latency over the measured window (see the class used). */
  synchronized Map<String, Object> processingLatency() {
    return processingLatency;
  }

  /** {@link CpuWindow}'s figures for the measured window; empty where they cannot be read. */
  synchronized Map<String, Object> cpu() {
    return cpuFigures;
  }

  /** The seconds of the measured window, added up. */
  synchronized LoadStats.Interval measured() {
    return measured;
  }

  synchronized long refusedTotal() {
    return refusedTotal;
  }

  synchronized long failedTotal() {
    return failedTotal;
  }

  /** Each partition's limit during the measured window: lowest, highest, last. */
  synchronized Map<String, Object> limiterSummary() {
    Map<String, Object> summary = new LinkedHashMap<>();
    limitRange.forEach(
        (partition, range) -> {
          Map<String, Object> figures = new LinkedHashMap<>();
          figures.put("min", range[0]);
          figures.put("max", range[1]);
          figures.put("last", range[2]);
          summary.put(Integer.toString(partition), figures);
        });
    return summary;
  }

  synchronized List<Row> series() {
    return new ArrayList<>(series);
  }
}

package io.tern.benchmark.raft;

import static io.tern.benchmark.raft.Measurements.ms;
import static io.tern.benchmark.raft.RaftBenchmark.ANCHOR_LATENCY;
import static io.tern.benchmark.raft.RaftBenchmark.FAILOVER;
import static io.tern.benchmark.raft.RaftBenchmark.LATENCY;
import static io.tern.benchmark.raft.RaftBenchmark.SNAPSHOT;
import static io.tern.benchmark.raft.RaftBenchmark.THROUGHPUT;

import io.tern.benchmark.common.Progress;
import io.tern.benchmark.machine.StallWatch;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The Raft benchmark's scenarios and the warm-up before them: open-loop commit latency ({@link
 * OpenLoopLatency}, read against the flush floor, with its CPU, allocation and machine-stall
 * figures), maximum throughput ({@link MaxThroughput}), leader failover ({@link Failover}) and
 * snapshot install. Each runs through {@link Measurements} on a fresh cluster; this class puts its
 * figures in the report and prints them.
 */
final class RaftScenarios {
  private final RaftBenchmarkOptions options;
  private final Progress progress;
  private final RaftReport report;
  private final Measurements measurements;
  private final PhysicalLimits limits;
  private final byte[] payload;

  RaftScenarios(
      RaftBenchmarkOptions options,
      Progress progress,
      RaftReport report,
      Measurements measurements,
      PhysicalLimits limits,
      byte[] payload) {
    this.options = options;
    this.progress = progress;
    this.report = report;
    this.measurements = measurements;
    this.limits = limits;
    this.payload = payload;
  }

  /**
   * A throughput run whose figures are thrown away, once per cluster before anything is measured:
   * the JIT needs time to compile a Raft implementation and its RPC stack, and the first
   * measurement would otherwise pay for it alone.
   */
  void warmUp(String cluster, String mode) {
    long warmupMs = options.quick() ? 2000 : 5000;
    measurements.measure(
        "0 warm-up",
        mode,
        1,
        cluster,
        "%s: %d ms of appends, not measured".formatted(cluster, warmupMs),
        c -> MaxThroughput.run(c, 1, options.outstandingPerPartition(), 0, ms(warmupMs), payload));
  }

  void runLatency(String cluster, String mode) {
    for (int partitions : options.latencyPartitions()) {
      if (!mode.equals("async") && !mode.equals("off")) {
        limits.measureFlushFloor(partitions);
      }
      measureLatency(LATENCY, cluster, mode, partitions, options.ratePerS());
    }
    int anchorRate = options.anchorRatePerS();
    if (anchorRate > 0 && anchorRate != options.ratePerS()) {
      // A peer that saturates at the main rate has no latency to compare with; at a rate every
      // cluster sustains, "p99 against the peer's" can still be read.
      measureLatency(ANCHOR_LATENCY, cluster, mode, 1, anchorRate);
      report.note(
          String.format(
              Locale.ROOT,
              "1b: the same open-loop commit latency at %d entries/s on 1 partition, a rate every"
                  + " cluster here sustains, so that latencies compare where the main rate"
                  + " saturates one of them (--anchor-rate).",
              anchorRate));
    }
  }

  private void measureLatency(
      String scenario, String cluster, String mode, int partitions, int ratePerS) {
    String what =
        "%s, %s, %d partition(s): %d entries/s for %d ms"
            .formatted(cluster, mode, partitions, ratePerS, options.measureMs());
    OpenLoopLatency.Result result =
        measurements.measure(
            scenario,
            mode,
            partitions,
            cluster,
            what,
            c ->
                OpenLoopLatency.run(
                    c,
                    partitions,
                    ratePerS,
                    ms(options.warmupMs()),
                    ms(options.measureMs()),
                    payload));
    report.put(scenario, mode, partitions, "p50", "µs", true, cluster, micros(result, 50));
    report.put(scenario, mode, partitions, "p99", "µs", true, cluster, micros(result, 99));
    report.put(scenario, mode, partitions, "p99.9", "µs", true, cluster, micros(result, 999));
    report.put(
        scenario,
        mode,
        partitions,
        "committed",
        "entries/s",
        false,
        cluster,
        result == null ? null : result.committedPerS());
    report.put(
        scenario,
        mode,
        partitions,
        "CPU per entry",
        "µs",
        true,
        cluster,
        result == null || result.cpuMicrosPerEntry() < 0 ? null : result.cpuMicrosPerEntry());
    report.put(
        scenario,
        mode,
        partitions,
        "allocated per entry",
        "bytes",
        true,
        cluster,
        result == null || result.allocatedBytesPerEntry() < 0
            ? null
            : result.allocatedBytesPerEntry());
    report.put(
        scenario,
        mode,
        partitions,
        "CPU",
        "cores",
        true,
        cluster,
        result == null || result.cpuCores() < 0 ? null : result.cpuCores());
    putStalls(scenario, mode, partitions, cluster, result);
    if (result == null) {
      return;
    }
    if (result.saturated()) {
      progress.log("    saturated: %.0f entries/s committed", result.committedPerS());
      return;
    }
    progress.log(
        "    p50 %.0f µs, p99 %.0f µs, p99.9 %.0f µs, max %.0f µs; %.0f committed/s; process CPU"
            + " %.1f µs per entry, %.2f cores; %.0f bytes allocated per entry",
        result.p50Ns() / 1e3,
        result.p99Ns() / 1e3,
        result.p999Ns() / 1e3,
        result.maxNs() / 1e3,
        result.committedPerS(),
        result.cpuMicrosPerEntry(),
        result.cpuCores(),
        result.allocatedBytesPerEntry());
    if (result.failed() > 0) {
      report.note(
          String.format(
              Locale.ROOT,
              "%s, %s, %s, %d partition(s): %d of %d appends failed; they are not in the"
                  + " percentiles.",
              scenario.substring(0, scenario.indexOf(' ')),
              cluster,
              mode,
              partitions,
              result.failed(),
              result.sent()));
    }
    if (result.maxSchedulerLagNs() > TimeUnit.MILLISECONDS.toNanos(10)) {
      report.note(
          String.format(
              Locale.ROOT,
              "%s, %s, %s, %d partition(s): the sender fell up to %.0f ms behind its schedule"
                  + " (counted in the latencies, which start at the intended send time).",
              scenario.substring(0, scenario.indexOf(' ')),
              cluster,
              mode,
              partitions,
              result.maxSchedulerLagNs() / 1e6));
    }
  }

  /** When the process could not run during the run (see {@link StallWatch}). */
  private void putStalls(
      String scenario, String mode, int partitions, String cluster, OpenLoopLatency.Result result) {
    boolean known = result != null && !result.saturated() && result.stalls() != null;
    StallWatch.Stalls stalls = known ? result.stalls() : null;
    report.put(
        scenario,
        mode,
        partitions,
        "machine stalls",
        "count",
        true,
        cluster,
        known ? stalls.count() : null);
    report.put(
        scenario,
        mode,
        partitions,
        "machine stalled",
        "ms",
        true,
        cluster,
        known ? stalls.totalNs() / 1e6 : null);
    long committed = known ? result.sent() - result.failed() - result.incomplete() : 0;
    report.put(
        scenario,
        mode,
        partitions,
        "in flight in a stall",
        "%",
        true,
        cluster,
        known && committed > 0 && result.inStalls() >= 0
            ? 100.0 * result.inStalls() / committed
            : null);
    if (known) {
      progress.log(
          "    machine stalls (a thread sleeping %d ms at a time woke >= %d ms late): %d, %.0f ms"
              + " in all, longest %.1f ms; %s entries were in flight in one",
          TimeUnit.NANOSECONDS.toMillis(StallWatch.TICK_NS),
          TimeUnit.NANOSECONDS.toMillis(StallWatch.STALL_THRESHOLD_NS),
          stalls.count(),
          stalls.totalNs() / 1e6,
          stalls.longestNs() / 1e6,
          result.inStalls() >= 0 ? Long.toString(result.inStalls()) : "an unknown number of");
    }
  }

  /** A percentile in µs; "saturated" where the cluster could not sustain the rate. */
  private static Object micros(OpenLoopLatency.Result result, int percentile) {
    if (result == null) {
      return null;
    }
    if (result.saturated()) {
      return "saturated";
    }
    long ns =
        switch (percentile) {
          case 50 -> result.p50Ns();
          case 99 -> result.p99Ns();
          default -> result.p999Ns();
        };
    return ns / 1e3;
  }

  void runThroughput(String cluster, String mode) {
    for (int partitions : options.throughputPartitions()) {
      String what =
          "%s, %s, %d partition(s): max throughput, %d in flight per partition"
              .formatted(cluster, mode, partitions, options.outstandingPerPartition());
      MaxThroughput.Result result =
          measurements.measure(
              THROUGHPUT,
              mode,
              partitions,
              cluster,
              what,
              c ->
                  MaxThroughput.run(
                      c,
                      partitions,
                      options.outstandingPerPartition(),
                      ms(options.warmupMs()),
                      ms(options.measureMs()),
                      payload));
      report.put(
          THROUGHPUT,
          mode,
          partitions,
          "committed",
          "MB/s",
          false,
          cluster,
          result == null ? null : result.megabytesPerS());
      report.put(
          THROUGHPUT,
          mode,
          partitions,
          "committed",
          "entries/s",
          false,
          cluster,
          result == null ? null : result.entriesPerS());
      if (result != null) {
        progress.log(
            "    %.1f MB/s (%.0f entries/s), %d failed",
            result.megabytesPerS(), result.entriesPerS(), result.failed());
      }
    }
  }

  void runFailover(String cluster, String mode) {
    if (options.failovers() <= 0) {
      return;
    }
    String what = "%s, %s: %d leader kill(s)".formatted(cluster, mode, options.failovers());
    String[] electionTimeout = {null};
    Failover.Result result =
        measurements.measure(
            FAILOVER,
            mode,
            1,
            cluster,
            what,
            c -> {
              // Shown next to the failover time, which mostly consists of it. Settings often
              // explain themselves in parentheses; the table takes the value only.
              String setting = c.settings().get(ClusterUnderTest.SETTING_ELECTION_TIMEOUT);
              electionTimeout[0] = setting == null ? null : setting.split(" \\(")[0];
              return Failover.run(c, options.failovers(), payload, progress);
            });
    report.put(
        FAILOVER, mode, 1, "election timeout setting", "", true, cluster, electionTimeout[0]);
    report.put(
        FAILOVER,
        mode,
        1,
        "kill to first commit, median",
        "ms",
        true,
        cluster,
        result == null ? null : result.medianNs() / 1e6);
    report.put(
        FAILOVER,
        mode,
        1,
        "kill to first commit, max",
        "ms",
        true,
        cluster,
        result == null ? null : result.maxNs() / 1e6);
  }

  void runSnapshot(String cluster, String mode) {
    long bytes = options.snapshotBytes();
    String what = "%s, %s: install of a %d MiB snapshot".formatted(cluster, mode, bytes >> 20);
    Duration took =
        measurements.measure(
            SNAPSHOT, mode, 1, cluster, what, c -> c.measureSnapshotInstall(bytes));
    Object rate = took == null ? null : bytes / 1e6 / (took.toNanos() / 1e9);
    report.put(SNAPSHOT, mode, 0, "rate, " + (bytes >> 20) + " MiB", "MB/s", false, cluster, rate);
    report.put(
        SNAPSHOT,
        mode,
        0,
        "duration",
        "ms",
        true,
        cluster,
        took == null ? null : took.toNanos() / 1e6);
    if (took != null) {
      progress.log("    %.0f ms, %.1f MB/s", took.toNanos() / 1e6, (Double) rate);
    }
    limits.measureSequentialWrite(bytes);
  }
}

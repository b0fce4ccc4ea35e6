package io.tern.benchmark.raft;

import io.tern.benchmark.common.BenchmarkFiles;
import io.tern.benchmark.common.LatencySummary;
import io.tern.benchmark.common.Progress;
import io.tern.benchmark.machine.ConcurrentFlushFloor;
import io.tern.benchmark.machine.HandOffLoad;
import io.tern.benchmark.machine.RawDiskLimits;
import io.tern.benchmark.machine.StallWatch;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * Measures replicated logs side by side, each as a {@link ClusterUnderTest} of 3 members on
 * loopback with 1 KiB entries, per flush mode: open-loop commit latency, maximum committed
 * throughput, leader failover time and snapshot install rate. Every measurement gets a fresh
 * cluster in a fresh directory, deleted afterwards; a measurement that fails is reported as n/a
 * with its reason and the run goes on.
 */
public final class RaftBenchmark {
  static final int MEMBERS = 3;
  static final int ENTRY_BYTES = 1024;
  static final Duration LEADER_TIMEOUT = Duration.ofSeconds(60);

  static final String LATENCY = "1 commit latency";
  static final String ANCHOR_LATENCY = "1b latency, anchor";
  static final String THROUGHPUT = "2 max throughput";
  static final String FAILOVER = "3 failover";
  static final String SNAPSHOT = "4 snapshot install";

  private final RaftBenchmarkOptions options;
  private final Path root;
  private final Progress progress = new Progress();
  private final RaftReport report;
  private final byte[] payload = new byte[ENTRY_BYTES];
  private final Set<Integer> flushFloorsMeasured = new HashSet<>();
  private final Map<Integer, RaftTargets.Floor> flushFloors = new HashMap<>();
  private boolean diskSequentialMeasured;
  private boolean handOffsProbed;

  private RaftBenchmark(RaftBenchmarkOptions options, Path root) {
    this.options = options;
    this.root = root;
    this.report = new RaftReport(options.clusters());
    // About the machine, not the cluster: a tern/peer ratio would read as a merit of either.
    for (String metric : List.of("machine stalls", "machine stalled", "in flight in a stall")) {
      report.withoutRatio(metric);
    }
    // Incompressible, in case an implementation compresses.
    new Random(42).nextBytes(payload);
  }

  /** Runs the benchmark; returns the process exit code. */
  public static int run(String[] args) throws Exception {
    commonPoolOfTwoAtLeast();
    quietLogging();
    RaftBenchmarkOptions options = RaftBenchmarkOptions.parse(args);
    if (options == null) {
      return 0;
    }
    return BenchmarkFiles.runInScratch(
        options.dataParentDir(),
        "raft-bench-",
        options.requiredFreeBytes(),
        root -> new RaftBenchmark(options, root).runAll());
  }

  /**
   * On a 2-core machine the JVM's common pool gets a parallelism of 1, and CompletableFuture then
   * runs every {@code *Async} stage without an executor on a new thread. Ratis 3.3 does that on its
   * follower append path: thousands of threads a second, and a cluster 50 times slower than it is.
   * Two workers is what the pool has on any machine with three cores or more. Must run before
   * anything uses the common pool; a user's own -D setting wins.
   */
  private static void commonPoolOfTwoAtLeast() {
    String key = "java.util.concurrent.ForkJoinPool.common.parallelism";
    if (System.getProperty(key) == null) {
      int cores = Runtime.getRuntime().availableProcessors();
      System.setProperty(key, Integer.toString(Math.max(2, cores - 1)));
    }
  }

  /**
   * Raft implementations log elections and lost connections, and this benchmark kills leaders on
   * purpose. Ratis logs every retried client request at ERROR with a stack trace: at 10,000
   * entries/s a failover writes hundreds of megabytes and the logging alone overloads the machine.
   * The benchmark checks every append's outcome itself. A user's own -D setting wins.
   */
  private static void quietLogging() {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    if (System.getProperty("org.slf4j.simpleLogger.log.org.apache.ratis") == null) {
      System.setProperty("org.slf4j.simpleLogger.log.org.apache.ratis", "off");
    }
  }

  private void runAll() throws Exception {
    describeEnvironment();
    if (ForkJoinPool.getCommonPoolParallelism() < 2) {
      report.note(
          "The JVM's common pool has a parallelism of 1 (set before the benchmark could raise it):"
              + " async stages each start a thread, which slows Ratis down severely.");
    }
    progress.log("Raft benchmark%s in %s: %s", options.quick() ? " (quick)" : "", root, options);
    measureDiskFloor();
    for (String cluster : options.clusters()) {
      warmUp(cluster, options.modes().get(0));
    }
    boolean snapshotDone =
        !options.scenarios().contains("snapshot") || options.snapshotBytes() <= 0;
    for (String mode : options.modes()) {
      for (String cluster : options.clusters()) {
        if (options.scenarios().contains("latency")) {
          runLatency(cluster, mode);
        }
        if (options.scenarios().contains("throughput")) {
          runThroughput(cluster, mode);
        }
        if (options.scenarios().contains("failover")) {
          runFailover(cluster, mode);
        }
      }
      if (!snapshotDone) {
        // Once per cluster: a snapshot install goes around the log, so the flush mode does not
        // change it, and a full run would otherwise write 8 GiB more.
        for (String cluster : options.clusters()) {
          runSnapshot(cluster, mode);
        }
        snapshotDone = true;
      }
    }
    addNotes();
    report.verdicts(
        RaftTargets.evaluate(
            report,
            options.ratePerS(),
            options.electionTimeoutMinMs(),
            options.snapshotBytes(),
            options.quick(),
            flushFloors));
    System.out.println();
    report.printTable(System.out);
    report.writeJson(options.jsonOut());
    System.out.println();
    System.out.println("JSON results: " + options.jsonOut().toAbsolutePath());
  }

  // ---------------------------------------------------------------- scenarios

  /**
   * The physical limit under sync-mode commit latency, measured in the same run and directory: one
   * entry written and fdatasynced. A sync commit waits for at least one such flush on the leader
   * and one on a follower (in parallel), plus the network.
   */
  private void measureDiskFloor() {
    Duration duration = Duration.ofSeconds(options.quick() ? 2 : 5);
    try {
      LatencySummary raw = RawDiskLimits.durableWriteLatency(root, ENTRY_BYTES, duration);
      String line =
          String.format(
              Locale.ROOT,
              "Physical limit in this run: %d-byte write + fdatasync p50 %.0f µs, p99 %.0f µs,"
                  + " p99.9 %.0f µs, max %.0f µs (%d samples in %s)",
              ENTRY_BYTES,
              raw.p50Ns() / 1e3,
              raw.p99Ns() / 1e3,
              raw.p999Ns() / 1e3,
              raw.maxNs() / 1e3,
              raw.count(),
              duration);
      progress.log("%s", line);
      report.note(line + ".");
    } catch (IOException e) {
      progress.log("raw fdatasync latency not measured: %s", e);
    }
  }

  /**
   * The disk's own latency for the flushes a safe-mode cluster of {@code partitions} makes: every
   * member's journal (3 per partition) flushed after each write by its own thread at the offered
   * rate over the partitions, with nothing else running. Once per partition count and run.
   */
  private void measureFlushFloor(int partitions) {
    if (!flushFloorsMeasured.add(partitions)) {
      return;
    }
    int journals = MEMBERS * partitions;
    double perJournal = (double) options.ratePerS() / partitions;
    Duration duration = Duration.ofSeconds(options.quick() ? 1 : 5);
    try (ConcurrentFlushFloor files =
        ConcurrentFlushFloor.prepare(root, journals, perJournal, ENTRY_BYTES, duration)) {
      StallWatch watch = StallWatch.enabled() ? StallWatch.start() : null;
      LatencySummary floor;
      StallWatch.Stalls stalls = StallWatch.Stalls.NONE;
      try {
        floor = files.measure();
      } finally {
        if (watch != null) {
          stalls = watch.stop();
        }
      }
      String line =
          String.format(
              Locale.ROOT,
              "Physical limit for %d partition(s) in this run: %d zero-filled files (every member's"
                  + " journal),"
                  + " each written at %.0f entries/s of %d bytes by its own thread with an"
                  + " fdatasync after every write, latency from each entry's intended time: p50"
                  + " %.0f µs, p99 %.0f µs, p99.9 %.0f µs, max %.0f µs; %s",
              partitions,
              journals,
              perJournal,
              ENTRY_BYTES,
              floor.p50Ns() / 1e3,
              floor.p99Ns() / 1e3,
              floor.p999Ns() / 1e3,
              floor.maxNs() / 1e3,
              watch == null
                  ? "machine stalls not watched"
                  : String.format(
                      Locale.ROOT,
                      "machine stalls %d, %.0f ms in all",
                      stalls.count(),
                      stalls.totalNs() / 1e6));
      progress.log("%s", line);
      report.note(line + ".");
      RaftTargets.HandOffProbe probe = null;
      if (watch != null) {
        try {
          probe = probeHandOffs(files, stalls.count());
        } catch (IOException | RuntimeException e) {
          progress.log("hand-off probe not measured: %s", e); // the floor itself still counts
        }
      } else if (options.handOffProbeRoundTripsPerS() > 0 && !handOffsProbed) {
        handOffsProbed = true;
        progress.log(
            "hand-off probe not measured: it counts machine stalls, and -D%s=false turned the"
                + " stall watch off",
            StallWatch.ENABLED_PROPERTY);
      }
      flushFloors.put(
          partitions,
          new RaftTargets.Floor(floor.p99Ns() / 1e6, floor.p999Ns() / 1e6, stalls.count(), probe));
    } catch (IOException e) {
      progress.log("flush floor for %d partition(s) not measured: %s", partitions, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while measuring the flush floor", e);
    }
  }

  /**
   * The same flushes again, with two threads beside them waking each other {@code --hand-off-probe}
   * times a second: whether this machine freezes when thread wake-ups come with fsyncs, with no
   * Raft code running. Once per run (the first partition count), and only when asked for: it is
   * about the machine, not the clusters.
   */
  private RaftTargets.HandOffProbe probeHandOffs(ConcurrentFlushFloor files, long floorStalls)
      throws IOException, InterruptedException {
    int roundTripsPerS = options.handOffProbeRoundTripsPerS();
    if (roundTripsPerS == 0 || handOffsProbed) {
      return null;
    }
    handOffsProbed = true;
    LatencySummary floor;
    StallWatch.Stalls stalls;
    long roundTrips;
    StallWatch watch = StallWatch.start();
    try (HandOffLoad load = HandOffLoad.start(roundTripsPerS)) {
      try {
        floor = files.measure();
      } finally {
        stalls = watch.stop();
      }
      roundTrips = load.roundTrips();
    }
    String line =
        String.format(
            Locale.ROOT,
            "The same flushes with two threads beside them waking each other %d times a second"
                + " (%d round trips done; no Raft code): p50 %.0f µs, p99 %.0f µs, p99.9 %.0f µs;"
                + " machine stalls %d, %.0f ms in all (the flushes alone: %d): %s",
            roundTripsPerS,
            roundTrips,
            floor.p50Ns() / 1e3,
            floor.p99Ns() / 1e3,
            floor.p999Ns() / 1e3,
            stalls.count(),
            stalls.totalNs() / 1e6,
            floorStalls,
            RaftTargets.HandOffProbe.freezes(stalls.count(), floorStalls)
                ? "this machine freezes when wake-ups and fsyncs come together, so a cluster's"
                    + " hand-offs between threads are likely to stall it too"
                : "too few stalls here to tell whether wake-ups beside fsyncs freeze this machine (the"
                    + " probe's count varies from run to run: few stalls do not clear it)");
    progress.log("%s", line);
    report.note(line + ".");
    return new RaftTargets.HandOffProbe(roundTripsPerS, floor.p99Ns() / 1e6, stalls.count());
  }

  /**
   * A throughput run whose figures are thrown away, once per cluster before anything is measured:
   * on 2 cores the JIT needs seconds to compile a Raft implementation and its RPC stack, and the
   * first measurement would otherwise pay for it alone.
   */
  private void warmUp(String cluster, String mode) {
    long warmupMs = options.quick() ? 2000 : 5000;
    measure(
        "0 warm-up",
        mode,
        1,
        cluster,
        "%s: %d ms of appends, not measured".formatted(cluster, warmupMs),
        c -> MaxThroughput.run(c, 1, options.outstandingPerPartition(), 0, ms(warmupMs), payload));
  }

  private void runLatency(String cluster, String mode) {
    for (int partitions : options.latencyPartitions()) {
      if (!mode.equals("async") && !mode.equals("off")) {
        measureFlushFloor(partitions);
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
        measure(
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

  private void runThroughput(String cluster, String mode) {
    for (int partitions : options.throughputPartitions()) {
      String what =
          "%s, %s, %d partition(s): max throughput, %d in flight per partition"
              .formatted(cluster, mode, partitions, options.outstandingPerPartition());
      MaxThroughput.Result result =
          measure(
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

  private void runFailover(String cluster, String mode) {
    if (options.failovers() <= 0) {
      return;
    }
    String what = "%s, %s: %d leader kill(s)".formatted(cluster, mode, options.failovers());
    String[] electionTimeout = {null};
    Failover.Result result =
        measure(
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

  private void runSnapshot(String cluster, String mode) {
    long bytes = options.snapshotBytes();
    String what = "%s, %s: install of a %d MiB snapshot".formatted(cluster, mode, bytes >> 20);
    Duration took = measure(SNAPSHOT, mode, 1, cluster, what, c -> c.measureSnapshotInstall(bytes));
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
    if (!diskSequentialMeasured) {
      diskSequentialMeasured = true;
      try {
        double raw = RawDiskLimits.sequentialWriteMegabytesPerS(root, bytes);
        String line =
            String.format(
                Locale.ROOT,
                "Physical limit in this run: %d MiB written sequentially in 1 MiB blocks (direct"
                    + " I/O where available) and forced: %.0f MB/s",
                bytes >> 20,
                raw);
        progress.log("%s", line);
        report.note(line + ".");
      } catch (IOException e) {
        progress.log("raw sequential write speed not measured: %s", e);
      }
    }
  }

  @FunctionalInterface
  private interface Measurement<T> {
    T run(ClusterUnderTest cluster) throws Exception;
  }

  /**
   * Starts a fresh cluster in a fresh directory, runs the measurement, closes and deletes
   * everything. Returns null, with the reason in the notes, when any step failed.
   */
  private <T> T measure(
      String scenario,
      String mode,
      int partitions,
      String clusterName,
      String what,
      Measurement<T> measurement) {
    progress.log("%s: %s", scenario, what);
    Path dir = null;
    ClusterUnderTest cluster = Clusters.ALL.get(clusterName).get();
    try {
      dir = Files.createTempDirectory(root, clusterName + "-");
      // Garbage from the previous cluster should not be collected on this one's time.
      System.gc();
      long startNs = System.nanoTime();
      cluster.start(
          new ClusterUnderTest.Spec(
              dir, MEMBERS, partitions, mode, options.electionTimeoutMinMs()));
      report.clusterName(clusterName, cluster.name());
      report.clusterSettings(clusterName, mode, cluster.settings());
      cluster.awaitLeaders(LEADER_TIMEOUT);
      progress.log("    leaders ready %.1f s after start", (System.nanoTime() - startNs) / 1e9);
      T result = measurement.run(cluster);
      for (String line : cluster.diagnostics()) {
        progress.log("    %s", line);
      }
      return result;
    } catch (Exception | LinkageError e) {
      String reason =
          e instanceof UnsupportedOperationException || e instanceof IllegalArgumentException
              ? e.getMessage()
              : e.toString();
      progress.log("    failed: %s", reason);
      report.note(
          "%s, %s, %s (%d partition(s)): not measured: %s"
              .formatted(scenario, clusterName, mode, partitions, reason));
      if (!(e instanceof UnsupportedOperationException || e instanceof IllegalArgumentException)) {
        e.printStackTrace(System.err);
      }
      return null;
    } finally {
      long closeNs = System.nanoTime();
      try {
        cluster.close();
      } catch (Exception e) {
        System.err.println("Closing " + clusterName + " failed: " + e);
      }
      closeNs = System.nanoTime() - closeNs;
      if (closeNs > TimeUnit.SECONDS.toNanos(2)) {
        progress.log("    closing the cluster took %.1f s", closeNs / 1e9);
      }
      if (dir != null) {
        BenchmarkFiles.deleteQuietly(dir);
      }
    }
  }

  private static long ms(long millis) {
    return TimeUnit.MILLISECONDS.toNanos(millis);
  }

  // ---------------------------------------------------------------- report

  private void describeEnvironment() throws IOException {
    Runtime runtime = Runtime.getRuntime();
    report.environment("javaVersion", System.getProperty("java.version"));
    report.environment("javaVm", System.getProperty("java.vm.name"));
    report.environment(
        "os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
    report.environment("availableProcessors", runtime.availableProcessors());
    report.environment("maxHeapBytes", runtime.maxMemory());
    report.environment("commonPoolParallelism", ForkJoinPool.getCommonPoolParallelism());
    report.environment("dataDirectory", root.toAbsolutePath().toString());
    report.environment("fileStore", Files.getFileStore(root).toString());
    report.environment(
        "loadAverageAtStart", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    report.setting("quick", options.quick());
    report.setting("members", MEMBERS);
    report.setting("entryBytes", ENTRY_BYTES);
    report.setting("modes", options.modes());
    report.setting("clusters", options.clusters());
    report.setting("warmupMs", options.warmupMs());
    report.setting("measureMs", options.measureMs());
    report.setting("latencyRatePerS", options.ratePerS());
    report.setting("latencyPartitions", options.latencyPartitions());
    report.setting("throughputPartitions", options.throughputPartitions());
    report.setting("outstandingPerPartition", options.outstandingPerPartition());
    report.setting("failovers", options.failovers());
    report.setting("snapshotBytes", options.snapshotBytes());
    report.setting("electionTimeoutMinMs", options.electionTimeoutMinMs());
  }

  private void addNotes() {
    report.environment(
        "loadAverageAtEnd", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    report.note(
        "MB = 10^6 bytes of entry payload. Ratio = "
            + report.ratioName()
            + ": above 1 is better for throughput and rates, below 1 is better for latencies and"
            + " durations.");
    List<String> scenarios = options.scenarios();
    if (scenarios.contains("latency")) {
      report.note(
          String.format(
              Locale.ROOT,
              "1: open loop at %d entries/s in total, round-robin over the partitions, latency"
                  + " from each entry's intended send time to its commit; %d ms warm-up excluded."
                  + " Saturated = the cluster could not commit that rate: the run stopped once %d"
                  + " s worth of entries were in flight, or entries were still not committed %d s"
                  + " after the last send; its latencies would only measure the backlog, so the"
                  + " committed rate is shown instead. CPU: the benchmark process's CPU time"
                  + " (all three members and the cluster's client) while the measured entries"
                  + " were sent, per entry and as cores kept busy; where the cores are full, it is"
                  + " what the machine had to give, not what the cluster needed, and the anchor"
                  + " rate's figure compares costs.",
              options.ratePerS(),
              options.warmupMs(),
              TimeUnit.NANOSECONDS.toSeconds(OpenLoopLatency.SATURATION_BACKLOG_NS),
              TimeUnit.NANOSECONDS.toSeconds(OpenLoopLatency.DRAIN_TIMEOUT_NS)));
      report.note(
          String.format(
              Locale.ROOT,
              "Machine stalls: times when a thread sleeping %d ms at a time woke %d ms or more"
                  + " late, from the first measured send until the last measured entry"
                  + " committed: the process could not run, because the host froze the machine"
                  + " (a CPU quota spent: a Kubernetes CPU limit, a VM whose I/O emulation shares"
                  + " its budget) or because the cores were overloaded. The watch cannot tell"
                  + " which; a load heavier in fsyncs or CPU can cause either. Every entry in"
                  + " flight waits a stall out: where more than 1 in 100 were in flight in one,"
                  + " stalls make up the p99.",
              TimeUnit.NANOSECONDS.toMillis(StallWatch.TICK_NS),
              TimeUnit.NANOSECONDS.toMillis(StallWatch.STALL_THRESHOLD_NS)));
    }
    if (scenarios.contains("throughput")) {
      report.note(
          "2: closed loop, at most "
              + options.outstandingPerPartition()
              + " appends in flight per partition; commits inside the measured window count.");
    }
    if (scenarios.contains("failover")) {
      report.note(
          "3: from the start of killLeader to the first commit of a probe append sent after it;"
              + " the killed member is restarted between kills.");
    }
    if (scenarios.contains("snapshot")) {
      report.note(
          "4: measured once per cluster (in the first mode): from the first snapshot chunk the"
              + " lagging follower received until it installed the snapshot.");
    }
    if (options.quick()) {
      report.note("Quick run: short runs and a small snapshot; figures are indicative only.");
    }
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    int cores = Runtime.getRuntime().availableProcessors();
    if (load > cores) {
      report.note(
          String.format(
              Locale.ROOT,
              "Load average %.1f on %d cores at the end: the benchmark itself keeps the cores busy,"
                  + " but other processes may have skewed the figures too.",
              load,
              cores));
    }
  }
}

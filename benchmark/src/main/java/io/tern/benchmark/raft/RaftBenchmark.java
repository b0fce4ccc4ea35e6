package io.tern.benchmark.raft;

import io.tern.benchmark.common.BenchmarkFiles;
import io.tern.benchmark.common.Progress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;

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
  private final RaftRunNotes notes;
  private final PhysicalLimits limits;
  private final RaftScenarios scenarios;

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
    this.notes = new RaftRunNotes(options, root, report);
    this.limits = new PhysicalLimits(options, root, progress, report);
    Measurements measurements = new Measurements(options, root, progress, report);
    this.scenarios = new RaftScenarios(options, progress, report, measurements, limits, payload);
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
   * follower append path: thousands of threads a second, and a cluster far slower than it is. Two
   * workers is what the pool has on any machine with three cores or more. Must run before anything
   * uses the common pool; a user's own -D setting wins.
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
   * purpose. Ratis logs every retried client request at ERROR with a stack trace: under load a
   * failover then writes so much that the logging alone overloads the machine. The benchmark checks
   * every append's outcome itself. A user's own -D setting wins.
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
    notes.describeEnvironment();
    if (ForkJoinPool.getCommonPoolParallelism() < 2) {
      report.note(
          "The JVM's common pool has a parallelism of 1 (set before the benchmark could raise it):"
              + " async stages each start a thread, which slows Ratis down severely.");
    }
    progress.log("Raft benchmark%s in %s: %s", options.quick() ? " (quick)" : "", root, options);
    limits.measureDiskFloor();
    for (String cluster : options.clusters()) {
      scenarios.warmUp(cluster, options.modes().get(0));
    }
    boolean snapshotDone =
        !options.scenarios().contains("snapshot") || options.snapshotBytes() <= 0;
    for (String mode : options.modes()) {
      for (String cluster : options.clusters()) {
        if (options.scenarios().contains("latency")) {
          scenarios.runLatency(cluster, mode);
        }
        if (options.scenarios().contains("throughput")) {
          scenarios.runThroughput(cluster, mode);
        }
        if (options.scenarios().contains("failover")) {
          scenarios.runFailover(cluster, mode);
        }
      }
      if (!snapshotDone) {
        // Once per cluster: a snapshot install goes around the log, so the flush mode does not
        // change it, and a full run would otherwise write its snapshots once per mode.
        for (String cluster : options.clusters()) {
          scenarios.runSnapshot(cluster, mode);
        }
        snapshotDone = true;
      }
    }
    notes.addNotes();
    report.verdicts(
        RaftTargets.evaluate(
            report,
            options.ratePerS(),
            options.electionTimeoutMinMs(),
            options.snapshotBytes(),
            options.quick(),
            limits.flushFloors()));
    System.out.println();
    report.printTable(System.out);
    report.writeJson(options.jsonOut());
    System.out.println();
    System.out.println("JSON results: " + options.jsonOut().toAbsolutePath());
  }
}

package io.tern.benchmark.raft;

import static io.tern.benchmark.raft.RaftBenchmark.ENTRY_BYTES;
import static io.tern.benchmark.raft.RaftBenchmark.MEMBERS;

import io.tern.benchmark.machine.StallWatch;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * What the Raft benchmark's report says about the run itself rather than a figure: the environment
 * and settings at the start, and at the end the notes that explain how each scenario's figures were
 * taken and what could have skewed them.
 */
final class RaftRunNotes {
  private final RaftBenchmarkOptions options;
  private final Path root;
  private final RaftReport report;

  RaftRunNotes(RaftBenchmarkOptions options, Path root, RaftReport report) {
    this.options = options;
    this.root = root;
    this.report = report;
  }

  void describeEnvironment() throws IOException {
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

  void addNotes() {
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

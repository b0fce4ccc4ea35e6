package io.tern.benchmark.raft;

import io.tern.benchmark.common.ByteSizes;
import io.tern.benchmark.common.CommandLines;
import io.tern.benchmark.common.StandardOptions;
import io.tern.benchmark.machine.HandOffLoad;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Command-line options of the Raft benchmark. The full run takes about six minutes per flush mode
 * and cluster on a 2-core machine; {@code --quick} is a smoke run of about two minutes for one
 * cluster and all four modes, whose figures are indicative only.
 */
record RaftBenchmarkOptions(
    Path dataParentDir,
    Path jsonOut,
    boolean quick,
    List<String> scenarios,
    List<String> modes,
    List<String> clusters,
    long warmupMs,
    long measureMs,
    int ratePerS,
    int anchorRatePerS,
    List<Integer> latencyPartitions,
    List<Integer> throughputPartitions,
    int outstandingPerPartition,
    int failovers,
    long snapshotBytes,
    int electionTimeoutMinMs,
    int handOffProbeRoundTripsPerS) {

  static final long MIB = 1024 * 1024;
  static final long GIB = 1024 * MIB;
  static final String MODES = "sync,delayed,async,off";
  static final String SCENARIOS = "latency,throughput,failover,snapshot";
  static final List<String> ALL_MODES = List.of(MODES.split(","));
  static final List<String> ALL_SCENARIOS = List.of(SCENARIOS.split(","));

  /** The command line as picocli reads it: {@code raft --help} prints it. */
  @Command(
      name = "raft",
      description =
          "Replicated logs side by side (Tern's Raft, Apache Ratis), per flush mode: open-loop"
              + " commit latency, maximum throughput, leader failover and snapshot install, each"
              + " next to the disk's own flush latency measured in the same run.",
      footer = "%nEntries are 1 KiB; every cluster has 3 members on loopback.")
  static final class Arguments {
    @Option(
        names = "--quick",
        description =
            "smoke run (~2 min per cluster): 1 s runs, 1 leader kill, a 64 MiB snapshot;"
                + " indicative figures only")
    boolean quick;

    @Option(
        names = "--scenarios",
        paramLabel = "LIST",
        defaultValue = SCENARIOS,
        description = "any of " + SCENARIOS + " (default all)")
    String scenarios;

    @Option(
        names = "--modes",
        paramLabel = "LIST",
        defaultValue = MODES,
        description = "flush modes, any of " + MODES + " (default all)")
    String modes;

    @Option(
        names = "--clusters",
        paramLabel = "LIST",
        completionCandidates = ClusterNames.class,
        description = "any of ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE})")
    String clusters = String.join(",", Clusters.defaults());

    @Option(
        names = "--seconds",
        paramLabel = "N",
        description = "measured seconds of each latency and throughput run (default 10, quick 1)")
    Integer seconds;

    @Option(
        names = "--rate",
        paramLabel = "N",
        defaultValue = "10000",
        description = "open-loop entries/s over all partitions (default ${DEFAULT-VALUE})")
    int rate;

    @Option(
        names = "--anchor-rate",
        paramLabel = "N",
        defaultValue = "500",
        description =
            "also measure latency at N entries/s on 1 partition, a rate every cluster sustains"
                + " (default ${DEFAULT-VALUE}; 0: off)")
    int anchorRate;

    @Option(
        names = "--latency-partitions",
        paramLabel = "LIST",
        defaultValue = "1,10,30",
        description = "partition counts of the latency scenario (default ${DEFAULT-VALUE})")
    String latencyPartitions;

    @Option(
        names = "--throughput-partitions",
        paramLabel = "LIST",
        defaultValue = "1,3",
        description = "partition counts of the throughput scenario (default ${DEFAULT-VALUE})")
    String throughputPartitions;

    @Option(
        names = "--outstanding",
        paramLabel = "N",
        defaultValue = "1000",
        description =
            "maximum appends in flight per partition in the throughput scenario (default"
                + " ${DEFAULT-VALUE})")
    int outstanding;

    @Option(
        names = "--failovers",
        paramLabel = "N",
        description = "leader kills measured (default 5, quick 1; 0 skips the scenario)")
    Integer failovers;

    @Option(
        names = "--snapshot-bytes",
        paramLabel = "N[K|M|G]",
        converter = ByteSizes.Converter.class,
        description = "snapshot size (default 1G, quick 64M; 0 skips the scenario)")
    Long snapshotBytes;

    @Option(
        names = "--election-timeout-ms",
        paramLabel = "N",
        defaultValue = "1000",
        description =
            "minimum election timeout, randomized up to twice that (default ${DEFAULT-VALUE})")
    int electionTimeoutMs;

    @Option(
        names = "--hand-off-probe",
        paramLabel = "RATE",
        description = {
          "also run the hand-off probe, once: the first flush floor measured again with two"
              + " threads beside it waking each other RATE times a second (no Raft code), which"
              + " tells whether this machine freezes when thread wake-ups come with fsyncs ("
              + HandOffLoad.SUGGESTED_PROBE_ROUND_TRIPS_PER_S
              + " froze our 2-core VM). Off by default; needs the stall watch.",
          "Alias: -D" + HandOffLoad.PROBE_PROPERTY + "=RATE"
        })
    Integer handOffProbe;

    @Mixin StandardOptions files = new StandardOptions();
  }

  /** The names {@code --clusters} takes, for its usage. */
  static final class ClusterNames implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Clusters.ALL.keySet().iterator();
    }
  }

  /**
   * The options in {@code args}, or null after printing the usage when they ask for help.
   *
   * @throws CommandLines.UsageException naming what is wrong, with the usage
   */
  static RaftBenchmarkOptions parse(String[] args) {
    return CommandLines.parse(new Arguments(), args, RaftBenchmarkOptions::resolve);
  }

  private static RaftBenchmarkOptions resolve(Arguments arguments) {
    boolean quick = arguments.quick;
    long measureMs =
        arguments.seconds != null
            ? 1000L * CommandLines.positive("--seconds", arguments.seconds)
            : quick ? 1000 : 10_000;
    return new RaftBenchmarkOptions(
        arguments.files.dataParentDir(),
        arguments.files.jsonOut("raft"),
        quick,
        CommandLines.names("--scenarios", arguments.scenarios, ALL_SCENARIOS),
        CommandLines.names("--modes", arguments.modes, ALL_MODES),
        CommandLines.names("--clusters", arguments.clusters, List.copyOf(Clusters.ALL.keySet())),
        // Long enough for the JIT and for the clusters' queues to reach their steady state.
        Math.min(quick ? 500 : 3000, measureMs),
        measureMs,
        CommandLines.positive("--rate", arguments.rate),
        CommandLines.zeroOrMore("--anchor-rate", arguments.anchorRate),
        CommandLines.positiveNumbers("--latency-partitions", arguments.latencyPartitions),
        CommandLines.positiveNumbers("--throughput-partitions", arguments.throughputPartitions),
        CommandLines.positive("--outstanding", arguments.outstanding),
        arguments.failovers != null
            ? CommandLines.zeroOrMore("--failovers", arguments.failovers)
            : quick ? 1 : 5,
        arguments.snapshotBytes != null ? arguments.snapshotBytes : quick ? 64 * MIB : GIB,
        CommandLines.positive("--election-timeout-ms", arguments.electionTimeoutMs),
        arguments.handOffProbe != null
            ? CommandLines.zeroOrMore("--hand-off-probe", arguments.handOffProbe)
            : HandOffLoad.probeRoundTripsPerS());
  }

  /** Disk the run needs at most: the snapshot on the leader and on the follower, plus logs. */
  long requiredFreeBytes() {
    return 2 * snapshotBytes + GIB;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "scenarios=%s modes=%s clusters=%s measure=%d ms warmup=%d ms rate=%d/s latencyPartitions=%s"
            + " throughputPartitions=%s outstanding=%d failovers=%d snapshotBytes=%d",
        scenarios,
        modes,
        clusters,
        measureMs,
        warmupMs,
        ratePerS,
        Arrays.toString(latencyPartitions.toArray()),
        Arrays.toString(throughputPartitions.toArray()),
        outstandingPerPartition,
        failovers,
        snapshotBytes);
  }
}

package io.tern.benchmark.raft;

import io.tern.benchmark.common.BenchmarkFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

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
    int electionTimeoutMinMs) {

  static final long MIB = 1024 * 1024;
  static final long GIB = 1024 * MIB;
  static final List<String> ALL_MODES = List.of("sync", "delayed", "async", "off");
  static final List<String> ALL_SCENARIOS =
      List.of("latency", "throughput", "failover", "snapshot");

  static final String USAGE =
      String.join(
          System.lineSeparator(),
          "Usage: java -jar tern-benchmark.jar raft [options]",
          "",
          "  --dir PATH                  where the data goes (a fresh subdirectory, deleted",
          "                              afterwards); default: ./target",
          "  --out PATH                  JSON results; default: raft-benchmark.json next to the jar",
          "  --quick                     smoke run (~2 min per cluster): 1 s runs, 64 MiB snapshot",
          "  --scenarios LIST            default latency,throughput,failover,snapshot",
          "  --modes LIST                flush modes, default sync,delayed,async,off",
          "  --clusters LIST             any of "
              + String.join(",", Clusters.ALL.keySet())
              + "; default "
              + String.join(",", Clusters.defaults()),
          "  --seconds N                 measured seconds of each latency/throughput run",
          "                              (default 10, quick 1)",
          "  --rate N                    open-loop entries/s over all partitions (default 10000)",
          "  --anchor-rate N             also measure latency at N entries/s on 1 partition, a",
          "                              rate every cluster sustains (default 500; 0: off)",
          "  --latency-partitions LIST   default 1,10,30",
          "  --throughput-partitions LIST default 1,3",
          "  --outstanding N             max appends in flight per partition for throughput",
          "                              (default 1000)",
          "  --failovers N               leader kills measured (default 5, quick 1)",
          "  --snapshot-bytes N[K|M|G]   snapshot size (default 1G, quick 64M); 0 skips it",
          "  --election-timeout-ms N     minimum election timeout; randomized up to 2N",
          "                              (default 1000)",
          "",
          "Entries are 1 KiB; every cluster has 3 members on loopback.");

  /** Returns null after printing usage when the arguments ask for help. */
  static RaftBenchmarkOptions parse(String[] args) {
    Path dir = Path.of("target");
    Path out = null;
    boolean quick = false;
    List<String> scenarios = ALL_SCENARIOS;
    List<String> modes = ALL_MODES;
    List<String> clusters = Clusters.defaults();
    Integer seconds = null;
    int rate = 10_000;
    int anchorRate = 500;
    List<Integer> latencyPartitions = List.of(1, 10, 30);
    List<Integer> throughputPartitions = List.of(1, 3);
    int outstanding = 1000;
    Integer failovers = null;
    Long snapshotBytes = null;
    int electionTimeoutMs = 1000;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      switch (option) {
        case "--dir" -> dir = Path.of(value(args, ++i, option));
        case "--out" -> out = Path.of(value(args, ++i, option));
        case "--quick" -> quick = true;
        case "--scenarios" ->
            scenarios = checked(list(value(args, ++i, option)), ALL_SCENARIOS, option);
        case "--modes" -> modes = checked(list(value(args, ++i, option)), ALL_MODES, option);
        case "--clusters" ->
            clusters =
                checked(list(value(args, ++i, option)), List.copyOf(Clusters.ALL.keySet()), option);
        case "--seconds" -> seconds = positive(value(args, ++i, option), option);
        case "--rate" -> rate = positive(value(args, ++i, option), option);
        case "--anchor-rate" -> anchorRate = nonNegative(value(args, ++i, option), option);
        case "--latency-partitions" ->
            latencyPartitions = numbers(value(args, ++i, option), option);
        case "--throughput-partitions" ->
            throughputPartitions = numbers(value(args, ++i, option), option);
        case "--outstanding" -> outstanding = positive(value(args, ++i, option), option);
        case "--failovers" -> failovers = Integer.parseInt(value(args, ++i, option));
        case "--snapshot-bytes" -> snapshotBytes = bytes(value(args, ++i, option));
        case "--election-timeout-ms" ->
            electionTimeoutMs = positive(value(args, ++i, option), option);
        case "--help", "-h" -> {
          System.out.println(USAGE);
          return null;
        }
        default -> throw new IllegalArgumentException("Unknown option " + option + "\n" + USAGE);
      }
    }
    long measureMs = seconds != null ? 1000L * seconds : quick ? 1000 : 10_000;
    return new RaftBenchmarkOptions(
        dir,
        out != null ? out : defaultJsonOut(),
        quick,
        scenarios,
        modes,
        clusters,
        // Long enough for the JIT and for the clusters' queues to reach their steady state.
        Math.min(quick ? 500 : 3000, measureMs),
        measureMs,
        rate,
        anchorRate,
        latencyPartitions,
        throughputPartitions,
        outstanding,
        failovers != null ? failovers : quick ? 1 : 5,
        snapshotBytes != null ? snapshotBytes : quick ? 64 * MIB : GIB,
        electionTimeoutMs);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
    }
    return args[i];
  }

  private static List<String> list(String text) {
    List<String> items = new ArrayList<>();
    for (String item : text.split(",")) {
      if (!item.isBlank()) {
        items.add(item.trim().toLowerCase(Locale.ROOT));
      }
    }
    return List.copyOf(items);
  }

  private static List<String> checked(List<String> items, List<String> known, String option) {
    for (String item : items) {
      if (!known.contains(item)) {
        throw new IllegalArgumentException(
            option + ": unknown value '" + item + "', known: " + String.join(",", known));
      }
    }
    if (items.isEmpty()) {
      throw new IllegalArgumentException(option + " needs at least one value");
    }
    return items;
  }

  private static List<Integer> numbers(String text, String option) {
    return list(text).stream().map(item -> positive(item, option)).toList();
  }

  private static int positive(String text, String option) {
    int value = Integer.parseInt(text.trim());
    if (value <= 0) {
      throw new IllegalArgumentException(option + " must be positive, got " + text);
    }
    return value;
  }

  private static int nonNegative(String text, String option) {
    int value = Integer.parseInt(text.trim());
    if (value < 0) {
      throw new IllegalArgumentException(option + " must be 0 (off) or positive, got " + text);
    }
    return value;
  }

  static long bytes(String text) {
    return io.tern.benchmark.common.ByteSizes.parse(text);
  }

  private static Path defaultJsonOut() {
    return BenchmarkFiles.defaultJsonOut("raft-benchmark.json");
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

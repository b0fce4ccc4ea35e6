package io.tern.benchmark.load;

import io.tern.benchmark.common.CommandLines;
import io.tern.engine.cluster.PartitionDistribution;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Options of the latency experiment runner. */
@Command(
    name = "experiment",
    usageHelpAutoWidth = true,
    description =
        "Runs a matrix of broker configurations against the same workloads and reports, for each,"
            + " process execution latency (PEL) p50/p90/p99, throughput, commit and processing"
            + " latency, commits and processed commands per instance, and the breakdown PEL = X *"
            + " commit latency + Y * processing latency + overhead, as Markdown, JSON and a chart."
            + " By default: 3 local broker processes, 3 partitions, replication 3, 35 ms one way"
            + " between nodes 0 and 1; the typical and the one-task process at a fixed rate below"
            + " saturation; every configuration of the default matrix, each measured --repeat"
            + " times (median and spread). The default matrix takes about 35 minutes on 2 cores;"
            + " --quick about three.")
final class ExperimentOptions {
  @Option(
      names = "--workloads",
      split = ",",
      paramLabel = "NAME",
      description = "typical, one-task (default: both)")
  List<String> workloads = new ArrayList<>(Workloads.ALL);

  @Option(
      names = "--configs",
      split = ",",
      paramLabel = "NAME",
      description = "run only these configurations of the matrix (default: all)")
  List<String> configs = new ArrayList<>();

  @Option(
      names = "--matrix",
      paramLabel = "FILE",
      description =
          "a YAML file of configurations, name: {broker.key: value} (replaces the default)")
  Path matrixFile;

  /** The configurations to run: the matrix (default or --matrix), narrowed by --configs. */
  List<ExperimentMatrix.Configuration> matrix;

  @Option(
      names = "--typical-rate",
      defaultValue = "5",
      paramLabel = "PER_SECOND",
      description = "creates per second of the typical process (default ${DEFAULT-VALUE})")
  double typicalRate;

  @Option(
      names = "--one-task-rate",
      defaultValue = "20",
      paramLabel = "PER_SECOND",
      description = "creates per second of the one-task process (default ${DEFAULT-VALUE})")
  double oneTaskRate;

  @Option(
      names = "--warmup",
      defaultValue = "30",
      paramLabel = "SECONDS",
      description = "load before the first measured window of each run (default ${DEFAULT-VALUE})")
  long warmupSeconds;

  @Option(
      names = "--duration",
      defaultValue = "20",
      paramLabel = "SECONDS",
      description = "each measured window (default ${DEFAULT-VALUE})")
  long durationSeconds;

  @Option(
      names = "--repeat",
      defaultValue = "3",
      paramLabel = "N",
      description = "measured windows per configuration and workload (default ${DEFAULT-VALUE})")
  int repeat;

  @Option(
      names = "--latency-ms",
      defaultValue = "35",
      paramLabel = "MS",
      description =
          "one-way latency injected between the nodes of --latency-between (default"
              + " ${DEFAULT-VALUE}; 0 for none)")
  long latencyMs;

  @Option(
      names = "--latency-between",
      defaultValue = "0-1",
      paramLabel = "PAIRS",
      description =
          "node pairs delayed, e.g. 0-1,1-2; 'all' for every pair (default ${DEFAULT-VALUE})")
  String latencyBetween;

  @Option(
      names = "--layout",
      paramLabel = "NAME",
      description =
          "a named layout instead of --latency-between: 'all' (every link delayed), 'two-region'"
              + " (3 brokers: nodes 0 and 1 near each other, node 2 --latency-ms away from both;"
              + " every partition led on the near side, so --partitions is at most 2, default 2)")
  String layout;

  /** The near nodes of the two-region layout; the rest are far. */
  static final List<Integer> TWO_REGION_NEAR = List.of(0, 1);

  @Option(
      names = "--client",
      defaultValue = "auto",
      paramLabel = "WHERE",
      description =
          "where the client connects: 'leader' (the embedded gateway of the broker that leads"
              + " every partition; needs one such broker, e.g. --partitions 1), 'standalone' (a"
              + " gateway process of its own, undelayed to every broker), 'node-0' (node 0's"
              + " embedded gateway, as before issue 49), 'auto' (leader where one broker leads"
              + " every partition, else standalone; default)")
  String client;

  static final String CLIENT_LEADER = "leader";
  static final String CLIENT_STANDALONE = "standalone";
  static final String CLIENT_NODE_0 = "node-0";
  private static final List<String> CLIENTS =
      List.of("auto", CLIENT_LEADER, CLIENT_STANDALONE, CLIENT_NODE_0);

  @Option(
      names = "--rounds",
      defaultValue = "1",
      paramLabel = "N",
      description =
          "run the whole matrix this many times, one configuration after another in each round"
              + " (so slow drifts of the machine touch every configuration alike); every figure is"
              + " the median over all windows of all rounds (default ${DEFAULT-VALUE})")
  int rounds;

  @Option(names = "--brokers", defaultValue = "3", paramLabel = "N", description = "default 3")
  int brokers;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      description = "default 3 (2 with --layout two-region)")
  Integer partitions;

  @Option(names = "--replication", defaultValue = "3", paramLabel = "N", description = "default 3")
  int replication;

  @Option(
      names = "--gateway",
      paramLabel = "HOST:PORT",
      description =
          "run the workloads against an existing cluster instead (its configuration as it is)")
  String gateway;

  @Option(
      names = "--management",
      paramLabel = "HOST:PORT",
      split = ",",
      description = "with --gateway: every broker's management address (metrics and flags)")
  List<String> management = new ArrayList<>();

  @Option(
      names = "--quick",
      description =
          "a smoke run: baseline, safe-combined and all-combined, the typical process, 10 s warmup,"
              + " one 15 s window each")
  boolean quick;

  @Option(
      names = "--dir",
      defaultValue = "target",
      paramLabel = "PATH",
      description = "where the local brokers' data goes (default ${DEFAULT-VALUE})")
  Path dataParentDir;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "where the report goes (default: experiment-<time> under --dir)")
  Path outDir;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "this help")
  boolean help;

  /**
   * The options of {@code args}; null if help was asked for (it is printed).
   *
   * @throws IllegalArgumentException naming the option that is wrong, followed by the usage
   */
  static ExperimentOptions parse(String[] args) {
    return CommandLines.parse(
        new ExperimentOptions(),
        args,
        options -> {
          options.complete();
          return options;
        });
  }

  private void complete() {
    completeOptions();
    // Here, not when the run starts: a wrong name or file is a wrong option, one line and exit 2.
    matrix = chosenConfigurations();
  }

  private void completeOptions() {
    if (quick) {
      if (configs.isEmpty()) {
        configs =
            List.of(
                ExperimentMatrix.BASELINE,
                ExperimentMatrix.SAFE_COMBINED,
                ExperimentMatrix.ALL_COMBINED);
      }
      workloads = List.of(Workloads.TYPICAL);
      warmupSeconds = 10;
      durationSeconds = 15;
      repeat = 1;
    }
    for (String workload : workloads) {
      if (!Workloads.ALL.contains(workload)) {
        throw new IllegalArgumentException(
            "--workloads: no workload named " + workload + "; known: " + Workloads.ALL);
      }
    }
    if (!(typicalRate > 0) || !(oneTaskRate > 0)) {
      throw new IllegalArgumentException("--typical-rate and --one-task-rate must be positive");
    }
    if (repeat < 1 || durationSeconds < 1 || warmupSeconds < 0 || latencyMs < 0) {
      throw new IllegalArgumentException(
          "--repeat and --duration must be positive; --warmup and --latency-ms at least 0");
    }
    completeLayout();
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds must be positive");
    }
    if (brokers < 1 || partitions < 1 || replication < 1 || replication > brokers) {
      throw new IllegalArgumentException(
          "--brokers and --partitions must be positive and --replication from 1 to --brokers");
    }
    if (gateway == null && !management.isEmpty()) {
      throw new IllegalArgumentException("--management goes with --gateway");
    }
    if (outDir == null) {
      String stamp =
          java.time.LocalDateTime.now()
              .format(java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
      outDir = dataParentDir.resolve("experiment-" + stamp);
    }
  }

  /** Sets the latency's pairs and the partitions from --layout, and resolves --client. */
  private void completeLayout() {
    if (layout == null) {
      partitions = partitions == null ? 3 : partitions;
    } else if (layout.equals("all")) {
      latencyBetween = "all";
      partitions = partitions == null ? 3 : partitions;
    } else if (layout.equals("two-region")) {
      if (brokers != 3) {
        throw new IllegalArgumentException("--layout two-region has 3 brokers (--brokers 3)");
      }
      latencyBetween = "0-2,1-2";
      partitions = partitions == null ? 2 : partitions;
      // Leaders are placed on their primaries (rebalancing moves leadership to the primary), so a
      // partition whose primary is far would be led from the far side.
      for (int partition = 1; partition <= partitions; partition++) {
        int primary = PartitionDistribution.primaryOf(partition, brokers);
        if (!TWO_REGION_NEAR.contains(primary)) {
          throw new IllegalArgumentException(
              "--layout two-region: partition "
                  + partition
                  + "'s primary is node "
                  + primary
                  + ", the far one; leaders stay on the near side with --partitions 1 or 2");
        }
      }
    } else {
      throw new IllegalArgumentException(
          "--layout: no layout named " + layout + "; known: all, two-region");
    }
    if (!CLIENTS.contains(client)) {
      throw new IllegalArgumentException("--client: one of " + CLIENTS + ", not " + client);
    }
    if (gateway != null) {
      return; // an existing cluster: the client is where --gateway says
    }
    int leader = soleLeader();
    if (client.equals("auto")) {
      client = leader >= 0 ? CLIENT_LEADER : CLIENT_STANDALONE;
    } else if (client.equals(CLIENT_LEADER) && leader < 0) {
      throw new IllegalArgumentException(
          "--client leader: the partitions' leaders are on different brokers, so no one embedded"
              + " gateway is every leader's; use --partitions 1 or --client standalone");
    }
  }

  /** The node every partition's primary is, or -1 if they are on different nodes. */
  int soleLeader() {
    int leader = PartitionDistribution.primaryOf(1, brokers);
    for (int partition = 2; partition <= partitions; partition++) {
      if (PartitionDistribution.primaryOf(partition, brokers) != leader) {
        return -1;
      }
    }
    return leader;
  }

  /** How the report names the latency's layout. */
  String describeLatency() {
    if (latencyMs == 0) {
      return "none";
    }
    String between =
        "two-region".equals(layout)
            ? "node 2 (the far region) and nodes 0 and 1 (the near one, where every partition is"
                + " led); none between 0 and 1"
            : latencyBetween.equalsIgnoreCase("all")
                ? "every pair of nodes"
                : "nodes " + latencyBetween;
    return latencyMs
        + " ms one way between "
        + between
        + " (a round trip across a delayed link: "
        + 2 * latencyMs
        + " ms)";
  }

  /** How the report names where the client connects. */
  String describeClient() {
    return switch (client) {
      case CLIENT_LEADER ->
          "the client on the embedded gateway of node "
              + soleLeader()
              + ", every partition's leader";
      case CLIENT_STANDALONE ->
          "the client on a standalone gateway process, undelayed to every broker";
      default -> "the client on node 0's embedded gateway";
    };
  }

  double rate(String workload) {
    return workload.equals(Workloads.TYPICAL) ? typicalRate : oneTaskRate;
  }

  private List<ExperimentMatrix.Configuration> chosenConfigurations() {
    List<ExperimentMatrix.Configuration> all;
    try {
      all = matrixFile == null ? ExperimentMatrix.defaults() : ExperimentMatrix.load(matrixFile);
    } catch (IOException e) {
      String reason = e instanceof NoSuchFileException ? "no such file" : e.getMessage();
      throw new IllegalArgumentException("--matrix: cannot read " + matrixFile + ": " + reason, e);
    }
    if (configs.isEmpty()) {
      return all;
    }
    List<ExperimentMatrix.Configuration> chosen = new ArrayList<>();
    for (String name : configs) {
      ExperimentMatrix.Configuration found =
          all.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
      if (found == null) {
        throw new IllegalArgumentException(
            "--configs: no configuration named "
                + name
                + "; the matrix has "
                + all.stream().map(ExperimentMatrix.Configuration::name).toList());
      }
      chosen.add(found);
    }
    return List.copyOf(chosen);
  }
}

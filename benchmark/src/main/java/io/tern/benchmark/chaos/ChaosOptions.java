package io.tern.benchmark.chaos;

import io.tern.benchmark.common.CommandLines;
import io.tern.benchmark.soak.DurationConverter;
import io.tern.engine.broker.BrokerConfigLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Options of the chaos run: the cluster, the workload, the faults and the checks' time limits. */
@Command(
    name = "chaos",
    usageHelpAutoWidth = true,
    description =
        "Starts a local cluster of broker processes, drives a workload with the official client"
            + " while injecting faults on a schedule, heals, lets the cluster settle and checks the"
            + " recorded history: no acknowledged instance lost, no task run twice, variables and"
            + " messages as written, every fault recovered from. Writes DIR/history.jsonl and"
            + " DIR/summary.md. Exit code 0 when the history is valid, 1 on a violation, 2 for a"
            + " wrong command line.")
final class ChaosOptions {
  @Option(
      names = "--dir",
      paramLabel = "DIR",
      required = true,
      description = "the history, the summary and the brokers' data and logs")
  Path dir;

  @Option(
      names = "--duration",
      paramLabel = "DUR",
      converter = DurationConverter.class,
      defaultValue = "2m",
      description =
          "how long faults are injected under load, each listed one at least once (default"
              + " ${DEFAULT-VALUE})")
  Duration duration;

  @Option(
      names = "--faults",
      paramLabel = "NAME,...",
      defaultValue = "kill-random,kill-leader,pause,partition,split,slow,torn-tail,kill-all",
      description =
          "the faults, taken in turn in an order the seed shuffles: kill-random, kill-leader,"
              + " kill-all, pause, torn-tail, partition, split, slow, disk-full, restore, scale"
              + " (default"
              + " ${DEFAULT-VALUE}; disk-full needs --disk-full-dir, restore a backup store:"
              + " --config data.backup.store=...)")
  String faults;

  @Option(
      names = "--disk-full-dir",
      paramLabel = "DIR",
      description =
          "for the disk-full fault: an empty directory on a small file system of its own (at most"
              + " 32 GiB; a loop-mounted ext4 of 2 GiB made with -m 0, say) where the last broker"
              + " keeps its data, and which the fault fills")
  Path diskFullDir;

  @Option(
      names = "--slow-link-delay",
      paramLabel = "DUR",
      converter = DurationConverter.class,
      defaultValue = "300ms",
      description =
          "the slow fault's delay of each Raft message, one way (default ${DEFAULT-VALUE})")
  Duration slowLinkDelay;

  @Option(
      names = "--seed",
      paramLabel = "N",
      description = "picks the fault order and targets (default: random, printed)")
  Long seed;

  @Option(
      names = "--hold",
      paramLabel = "DUR",
      converter = DurationConverter.class,
      defaultValue = "8s",
      description =
          "how long each fault lasts before it heals; more than the election timeout (default"
              + " ${DEFAULT-VALUE})")
  Duration hold;

  @Option(
      names = "--quiet",
      paramLabel = "DUR",
      converter = DurationConverter.class,
      defaultValue = "5s",
      description = "load without faults after each recovery (default ${DEFAULT-VALUE})")
  Duration quiet;

  @Option(
      names = "--settle",
      paramLabel = "DUR",
      converter = DurationConverter.class,
      defaultValue = "2m",
      description =
          "longest wait for recovery after a heal, and for the instances to end after the load"
              + " (default ${DEFAULT-VALUE})")
  Duration settle;

  @Option(
      names = "--rate",
      paramLabel = "N",
      defaultValue = "10",
      description = "instances created per second (default ${DEFAULT-VALUE})")
  double rate;

  @Option(
      names = "--workload",
      paramLabel = "NAME",
      defaultValue = "chaos",
      description =
          "chaos: one process crossing every layer, an instance per business id; messages: many"
              + " instances of four processes waiting on shared correlation keys, each message"
              + " published once, checked to be taken at most once per process (default"
              + " ${DEFAULT-VALUE})")
  String workload;

  @Option(
      names = "--keys",
      paramLabel = "N",
      defaultValue = "3",
      description =
          "for --workload messages: how many correlation keys the instances share (default"
              + " ${DEFAULT-VALUE})")
  int keys;

  @Option(
      names = "--brokers",
      paramLabel = "N",
      defaultValue = "3",
      description = "brokers (default ${DEFAULT-VALUE})")
  int brokers;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      defaultValue = "3",
      description = "partitions (default ${DEFAULT-VALUE})")
  int partitions;

  @Option(
      names = "--replication",
      paramLabel = "N",
      defaultValue = "3",
      description = "replication factor (default ${DEFAULT-VALUE})")
  int replication;

  @Option(
      names = "--config",
      paramLabel = "KEY=VALUE",
      description = "a broker setting, e.g. raft.flush.mode=async; repeatable")
  Map<String, String> config = new LinkedHashMap<>();

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "this help")
  boolean help;

  List<Fault> faultList;

  /**
   * Brokers started beside the cluster, outside it (node ids from --brokers on), for the scale
   * fault to add and take out again: 3 -> 5 -> 3 with the default three brokers.
   */
  int spares() {
    return faultList.contains(Fault.SCALE) ? SCALE_SPARES : 0;
  }

  static final int SCALE_SPARES = 2;

  /** Whether the run is the message mode. */
  boolean messages() {
    return workload.equals("messages");
  }

  static ChaosOptions parse(String[] args) {
    return CommandLines.parse(new ChaosOptions(), args, ChaosOptions::resolve);
  }

  private ChaosOptions resolve() {
    CommandLines.positive("--brokers", brokers);
    CommandLines.positive("--keys", keys);
    if (!workload.equals("chaos") && !workload.equals("messages")) {
      throw new IllegalArgumentException("--workload must be chaos or messages, got " + workload);
    }
    CommandLines.positive("--partitions", partitions);
    CommandLines.positive("--replication", replication);
    if (replication > brokers) {
      throw new IllegalArgumentException(
          "--replication " + replication + " is more than --brokers " + brokers);
    }
    if (rate <= 0) {
      throw new IllegalArgumentException("--rate must be positive, got " + rate);
    }
    if (slowLinkDelay.toMillis() < 1 || slowLinkDelay.toMillis() > 10_000) {
      throw new IllegalArgumentException(
          "--slow-link-delay must be 1 ms to 10 s, got " + slowLinkDelay.toMillis() + " ms");
    }
    for (var each : Map.of("--duration", duration, "--hold", hold, "--settle", settle).entrySet()) {
      if (each.getValue().isZero() || each.getValue().isNegative()) {
        throw new IllegalArgumentException(each.getKey() + " must be positive");
      }
    }
    faultList =
        CommandLines.names("--faults", faults, Fault.labels()).stream().map(Fault::of).toList();
    if (faultList.contains(Fault.DISK_FULL)) {
      if (diskFullDir == null) {
        throw new IllegalArgumentException(
            "the disk-full fault needs --disk-full-dir DIR: an empty directory on a small file"
                + " system of its own, where one broker keeps its data");
      }
      String unusable;
      try {
        unusable = DiskFiller.unusable(diskFullDir, dir);
      } catch (java.io.IOException e) {
        unusable = "cannot be read: " + e.getMessage();
      }
      if (unusable != null) {
        throw new IllegalArgumentException("--disk-full-dir: " + unusable);
      }
    }
    if (faultList.contains(Fault.RESTORE)
        && config.getOrDefault("data.backup.store", "none").equals("none")) {
      throw new IllegalArgumentException(
          "the restore fault needs a backup store every broker shares, e.g. --config"
              + " data.backup.store=filesystem --config data.backup.filesystem.basePath=DIR");
    }
    if (faultList.contains(Fault.SCALE) && faultList.contains(Fault.RESTORE)) {
      throw new IllegalArgumentException(
          "the scale and restore faults cannot run together yet: a restore of a cluster that"
              + " changed size is not tested");
    }
    if (seed == null) {
      seed = new java.util.Random().nextLong();
    }
    return this;
  }

  /**
   * --config as the brokers' {@code TERN_*} environment, with fault injection on when the
   * partition, split or slow fault needs it.
   */
  Map<String, String> environment() {
    Map<String, String> environment = new LinkedHashMap<>();
    if (faultList.contains(Fault.PARTITION)
        || faultList.contains(Fault.SPLIT)
        || faultList.contains(Fault.SLOW)) {
      environment.put("TERN_EXPERIMENTAL_FAULTINJECTION_ENABLED", "true");
    }
    if (faultList.contains(Fault.DISK_FULL)) {
      // The small file system is far below the default watermark: keep the broker taking work
      // until the fault fills it.
      environment.put("TERN_DATA_DISK_MINFREEBYTES", "64MB");
    }
    if (spares() > 0) {
      // Every broker is told the cluster's size, so that the spares start outside it.
      environment.put("TERN_CLUSTER_CLUSTERSIZE", Integer.toString(brokers));
    }
    config.forEach(
        (key, value) ->
            environment.put(
                key.startsWith("TERN_") ? key : BrokerConfigLoader.environmentVariable(key),
                value));
    return environment;
  }
}

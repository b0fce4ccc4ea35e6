package io.tern.benchmark.soak;

import io.tern.benchmark.common.CommandLines;
import io.tern.engine.broker.BrokerConfigLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of the soak: the load, the cluster it runs on, the recording and the verdicts. */
@Command(
    name = "soak",
    usageHelpAutoWidth = true,
    description =
        "A long run under steady load, the weekly benchmark: a starter at a fixed rate and job"
            + " workers with the official client, on a local cluster it starts (--brokers) or an"
            + " existing one (--gateway, --management). Every interval it appends the client's and"
            + " every broker's signals to DIR/intervals.jsonl (a restarted soak goes on with the"
            + " same series); at the end it writes DIR/report.html and DIR/report.md and judges"
            + " throughput, latency, drift, leaks and stability. Exit code 0 when every verdict"
            + " passes, 1 when one fails, 2 for a wrong command line.")
final class SoakOptions {
  @Option(
      names = "--dir",
      paramLabel = "DIR",
      required = true,
      description = "the run's data and report (appended to if it exists)")
  Path dir;

  @Option(
      names = "--duration",
      paramLabel = "DUR",
      converter = DurationConverter.class,
      defaultValue = "0",
      description = "from the run's first start, e.g. 7d; 0 = until stopped (default)")
  Duration duration;

  @Option(
      names = "--interval",
      paramLabel = "DUR",
      converter = DurationConverter.class,
      defaultValue = "10s",
      description = "how often signals are recorded (default ${DEFAULT-VALUE})")
  Duration interval;

  @Option(
      names = "--rate",
      paramLabel = "N",
      defaultValue = "150",
      description = "instances started per second (default ${DEFAULT-VALUE})")
  double rate;

  @Option(
      names = "--workers",
      paramLabel = "N",
      defaultValue = "3",
      description = "job workers (default ${DEFAULT-VALUE})")
  int workers;

  @Option(
      names = "--capacity",
      paramLabel = "N",
      defaultValue = "60",
      description = "jobs each worker holds at once (default ${DEFAULT-VALUE})")
  int capacity;

  @Option(
      names = "--completion-delay",
      paramLabel = "DUR",
      converter = DurationConverter.class,
      defaultValue = "50ms",
      description = "each job's work (default ${DEFAULT-VALUE})")
  Duration completionDelay;

  @Option(names = "--polling", description = "workers poll for jobs instead of streaming them")
  boolean polling;

  @Mixin WorkloadOptions workloadOptions;

  @Option(
      names = "--brokers",
      paramLabel = "N",
      defaultValue = "3",
      description = "local cluster: brokers (default ${DEFAULT-VALUE})")
  int brokers;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      defaultValue = "3",
      description = "local cluster: partitions (default ${DEFAULT-VALUE})")
  int partitions;

  @Option(
      names = "--replication",
      paramLabel = "N",
      defaultValue = "3",
      description = "local cluster: replication factor (default ${DEFAULT-VALUE})")
  int replication;

  @Option(
      names = "--config",
      paramLabel = "KEY=VALUE",
      description =
          "local cluster: a broker setting, e.g. raft.flush.mode=async or an experiment flag; repeatable")
  Map<String, String> config = new LinkedHashMap<>();

  @Option(
      names = "--gateway",
      paramLabel = "HOST:PORT",
      description = "an existing cluster's gateway")
  String gateway;

  @Option(
      names = "--management",
      paramLabel = "HOST:PORT,...",
      split = ",",
      description = "with --gateway: every broker's management address, in node order")
  List<String> management = new ArrayList<>();

  @Option(
      names = "--baseline",
      paramLabel = "DIR",
      description = "an earlier run's directory to compare with")
  Path baseline;

  @Mixin ThresholdOptions thresholdOptions;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "this help")
  boolean help;

  SoakWorkload workload;
  String jobType;
  Thresholds thresholds;

  static SoakOptions parse(String[] args) {
    return CommandLines.parse(new SoakOptions(), args, SoakOptions::resolve);
  }

  private SoakOptions resolve() {
    if (interval.isZero() || interval.isNegative()) {
      throw new IllegalArgumentException("--interval must be positive");
    }
    if (rate <= 0) {
      throw new IllegalArgumentException("--rate must be positive, got " + rate);
    }
    CommandLines.positive("--workers", workers);
    CommandLines.positive("--capacity", capacity);
    if (gateway == null) {
      CommandLines.positive("--brokers", brokers);
      CommandLines.positive("--partitions", partitions);
      CommandLines.positive("--replication", replication);
      if (replication > brokers) {
        throw new IllegalArgumentException(
            "--replication " + replication + " is more than --brokers " + brokers);
      }
      if (!management.isEmpty()) {
        throw new IllegalArgumentException("--management goes with --gateway");
      }
    } else if (management.isEmpty()) {
      throw new IllegalArgumentException(
          "--gateway needs --management host:port,... (every broker's, for its signals)");
    }
    workload = workloadOptions.resolve();
    jobType = workloadOptions.jobType;
    thresholds = thresholdOptions.thresholds();
    return this;
  }

  /** --config as the brokers' {@code TERN_*} environment. */
  Map<String, String> environment() {
    Map<String, String> environment = new LinkedHashMap<>();
    config.forEach(
        (key, value) ->
            environment.put(
                key.startsWith("TERN_") ? key : BrokerConfigLoader.environmentVariable(key),
                value));
    return environment;
  }
}

package io.tern.benchmark.scaling;

import io.tern.benchmark.common.CommandLines;
import io.tern.benchmark.common.StandardOptions;
import io.tern.engine.broker.BrokerConfigLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The scaling benchmark's command line (docs/benchmarks.md, "Scaling benchmark"). */
@Command(
    name = "scaling",
    description =
        "Online scaling's targets on local broker processes: throughput while partitions move"
            + " (t1), a large partition's move against copying its snapshot (t2), 3 against 6"
            + " brokers at one load (t3).")
final class ScalingOptions {
  static final List<String> TARGETS = List.of("t1", "t2", "t3");

  @Option(
      names = "--targets",
      paramLabel = "LIST",
      defaultValue = "t1,t2,t3",
      description = "any of t1,t2,t3 (default ${DEFAULT-VALUE})")
  String targets;

  @Option(
      names = "--rounds",
      paramLabel = "N",
      defaultValue = "1",
      description =
          "rounds of each target; t2 moves the partition back and forth, t3 alternates which"
              + " cluster goes first (default ${DEFAULT-VALUE})")
  int rounds;

  @Option(
      names = "--quick",
      description = "smoke run: short windows, --state-mb 64, --t3-rate 30 (explicit values win)")
  boolean quick;

  @Option(
      names = "--warmup",
      paramLabel = "SECONDS",
      description =
          "t1, t3: load before measuring (default 90, quick 3): fresh broker JVMs spend a"
              + " third of the CPU in the JIT compilers for their first 60 s")
  Integer warmupSeconds;

  @Option(
      names = "--steady",
      paramLabel = "SECONDS",
      description = "t1: the steady window before the change (default 20, quick 5)")
  Integer steadySeconds;

  @Option(
      names = "--after",
      paramLabel = "SECONDS",
      description = "t1: measured after the change completed (default 10, quick 3)")
  Integer afterSeconds;

  @Option(
      names = "--in-flight",
      paramLabel = "N",
      defaultValue = "16",
      description = "t1: instances in flight, closed loop (default ${DEFAULT-VALUE})")
  int inFlight;

  @Option(
      names = "--partitions",
      paramLabel = "N",
      defaultValue = "3",
      description =
          "t1: partitions of the 3 brokers (replication 3); broker 3 is added (default"
              + " ${DEFAULT-VALUE})")
  int partitions;

  @Option(
      names = "--state-mb",
      paramLabel = "MB",
      description = "t2: variable bytes put in the partition's state (default 1024, quick 64)")
  Integer stateMb;

  @Option(
      names = "--variable-kb",
      paramLabel = "KB",
      defaultValue = "256",
      description = "t2: the variable of each waiting instance (default ${DEFAULT-VALUE})")
  int variableKb;

  @Option(
      names = "--t3-rate",
      paramLabel = "PER_SECOND",
      description = "t3: creates per second, open loop, on both clusters (default 100, quick 30)")
  Integer t3Rate;

  @Option(
      names = "--t3-seconds",
      paramLabel = "SECONDS",
      description = "t3: the measured window on each cluster (default 30, quick 8)")
  Integer t3Seconds;

  @Option(
      names = "--t3-partitions",
      paramLabel = "N",
      defaultValue = "6",
      description = "t3: partitions of both clusters (default ${DEFAULT-VALUE})")
  int t3Partitions;

  @Option(
      names = "--change-timeout",
      paramLabel = "SECONDS",
      defaultValue = "900",
      description = "how long a change may take before the run gives up (default ${DEFAULT-VALUE})")
  int changeTimeoutSeconds;

  @Option(
      names = "--flush",
      defaultValue = "sync",
      paramLabel = "MODE",
      description = "the brokers' raft.flush.mode (default ${DEFAULT-VALUE})")
  String flushMode;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description = "a configuration key of every broker, e.g. --set raft.heartbeatIntervalMs=50")
  Map<String, String> settings = new LinkedHashMap<>();

  @Mixin StandardOptions files = new StandardOptions();

  /** What a run does, checked. */
  record Settings(
      List<String> targets,
      int rounds,
      Duration warmup,
      Duration steady,
      Duration after,
      int inFlight,
      int partitions,
      long stateBytes,
      int variableBytes,
      double t3Rate,
      Duration t3Window,
      int t3Partitions,
      Duration changeTimeout,
      String flushMode,
      Map<String, String> environment,
      Path dataParentDir,
      Path jsonOut) {}

  /** The settings of {@code args}; null when only help was asked for. */
  static Settings parse(String[] args) {
    return CommandLines.parse(new ScalingOptions(), args, ScalingOptions::resolve);
  }

  private Settings resolve() {
    CommandLines.positive("--rounds", rounds);
    CommandLines.positive("--in-flight", inFlight);
    CommandLines.positive("--partitions", partitions);
    CommandLines.positive("--variable-kb", variableKb);
    CommandLines.positive("--t3-partitions", t3Partitions);
    CommandLines.positive("--change-timeout", changeTimeoutSeconds);
    if (variableKb > 3 * 1024) {
      throw new IllegalArgumentException(
          "--variable-kb must be at most 3072: a create over gateway.maxMessageSize (4MB) is"
              + " refused, got "
              + variableKb);
    }
    Map<String, String> environment = new LinkedHashMap<>();
    settings.forEach(
        (key, value) -> environment.put(BrokerConfigLoader.environmentVariable(key), value));
    return new Settings(
        CommandLines.names("--targets", targets, TARGETS),
        rounds,
        Duration.ofSeconds(positive("--warmup", warmupSeconds, 90, 3)),
        Duration.ofSeconds(positive("--steady", steadySeconds, 20, 5)),
        Duration.ofSeconds(positive("--after", afterSeconds, 10, 3)),
        inFlight,
        partitions,
        positive("--state-mb", stateMb, 1024, 64) * 1_000_000L,
        variableKb * 1024,
        positive("--t3-rate", t3Rate, 100, 30),
        Duration.ofSeconds(positive("--t3-seconds", t3Seconds, 30, 8)),
        t3Partitions,
        Duration.ofSeconds(changeTimeoutSeconds),
        flushMode,
        environment,
        files.dataParentDir(),
        files.jsonOut("scaling"));
  }

  private int positive(String option, Integer given, int full, int smoke) {
    return CommandLines.positive(option, given != null ? given : quick ? smoke : full);
  }
}

package io.tern.benchmark.load;

import io.tern.benchmark.common.BenchmarkFiles;
import io.tern.benchmark.common.OptionValues;
import java.nio.file.Path;
import java.time.Duration;

/** Options of the workflow load benchmark. */
record LoadOptions(
    String gateway,
    Path dataParentDir,
    Path jsonOut,
    Duration warmup,
    Duration duration,
    int inFlight,
    int tasks,
    int payloadBytes,
    boolean streaming,
    long completionDelayMs,
    String flushMode,
    int brokers,
    int partitions,
    int replication) {
  static final String USAGE =
      String.join(
          "\n",
          "Usage: java -jar tern-benchmark.jar load [options]",
          "",
          "Workflow load through the gateway with the official Java client: a starter keeps N",
          "process instances in flight (each created with result), a worker completes their jobs.",
          "Reports instances/s and end-to-end latency percentiles (create-with-result round trip).",
          "Works against Tern or Zeebe alike (--gateway); without it, starts a local single",
          "Tern broker in this process (data under --dir).",
          "",
          "  --gateway HOST:PORT  a running gateway (default: launch a local broker)",
          "  --in-flight N        instances in flight (default 16; 1 = one at a time)",
          "  --tasks N            service tasks per process (default 1)",
          "  --payload BYTES      size of the instance's variables (default 0)",
          "  --streaming on|off   job push streaming for the worker (default on)",
          "  --completion-delay MS  the worker's work per job (default 0)",
          "  --warmup SECONDS     not measured (default 10)",
          "  --duration SECONDS   measured (default 30)",
          "  --flush MODE         the local brokers' raft.flush.mode (default sync)",
          "  --brokers N          launch N local brokers, one process each, and use node 0's",
          "                       gateway (default 1: one broker inside this process)",
          "  --partitions P       partitions of the local cluster (default: N)",
          "  --replication R      replicas of each partition (default: N, at most 3)",
          "  --quick              --warmup 3 --duration 8",
          "  --dir PATH           where the local broker's data goes (default target)",
          "  --out FILE           JSON results (default load-benchmark.json next to the jar)");

  static LoadOptions parse(String[] args) {
    String gateway = null;
    Path dir = Path.of("target");
    Path out = BenchmarkFiles.defaultJsonOut("load-benchmark.json");
    Duration warmup = Duration.ofSeconds(10);
    Duration duration = Duration.ofSeconds(30);
    int inFlight = 16;
    int tasks = 1;
    int payload = 0;
    boolean streaming = true;
    long delayMs = 0;
    String flush = "sync";
    int brokers = 1;
    int partitions = -1;
    int replication = -1;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      switch (option) {
        case "--gateway" -> gateway = value(args, ++i, option);
        case "--in-flight" -> inFlight = Integer.parseInt(value(args, ++i, option));
        case "--tasks" -> tasks = Integer.parseInt(value(args, ++i, option));
        case "--payload" -> payload = Integer.parseInt(value(args, ++i, option));
        case "--streaming" -> streaming = onOff(value(args, ++i, option), option);
        case "--completion-delay" -> delayMs = Long.parseLong(value(args, ++i, option));
        case "--warmup" -> warmup = Duration.ofSeconds(Long.parseLong(value(args, ++i, option)));
        case "--duration" ->
            duration = Duration.ofSeconds(Long.parseLong(value(args, ++i, option)));
        case "--flush" -> flush = value(args, ++i, option);
        case "--brokers" -> brokers = Integer.parseInt(value(args, ++i, option));
        case "--partitions" -> partitions = Integer.parseInt(value(args, ++i, option));
        case "--replication" -> replication = Integer.parseInt(value(args, ++i, option));
        case "--quick" -> {
          warmup = Duration.ofSeconds(3);
          duration = Duration.ofSeconds(8);
        }
        case "--dir" -> dir = Path.of(value(args, ++i, option));
        case "--out" -> out = Path.of(value(args, ++i, option));
        case "--help", "-h" -> {
          System.out.println(USAGE);
          return null;
        }
        default -> throw new IllegalArgumentException("Unknown option " + option + "\n" + USAGE);
      }
    }
    if (inFlight < 1 || tasks < 1 || payload < 0 || delayMs < 0 || duration.isZero()) {
      throw new IllegalArgumentException(
          "--in-flight, --tasks and --duration must be positive; --payload and"
              + " --completion-delay at least 0");
    }
    if (brokers < 1) {
      throw new IllegalArgumentException("--brokers must be at least 1");
    }
    partitions = partitions < 0 ? brokers : partitions;
    replication = replication < 0 ? Math.min(3, brokers) : replication;
    if (partitions < 1 || replication < 1 || replication > brokers) {
      throw new IllegalArgumentException(
          "--partitions must be positive and --replication from 1 to --brokers");
    }
    if (gateway != null && brokers > 1) {
      throw new IllegalArgumentException("--brokers launches a local cluster; not with --gateway");
    }
    return new LoadOptions(
        gateway,
        dir,
        out,
        warmup,
        duration,
        inFlight,
        tasks,
        payload,
        streaming,
        delayMs,
        flush,
        brokers,
        partitions,
        replication);
  }

  private static boolean onOff(String value, String option) {
    if (!value.equals("on") && !value.equals("off")) {
      throw new IllegalArgumentException(option + " takes on or off, got " + value);
    }
    return value.equals("on");
  }

  private static String value(String[] args, int i, String option) {
    return OptionValues.value(args, i, option, USAGE);
  }
}

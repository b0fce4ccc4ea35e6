package io.tern.benchmark.state;

import io.tern.benchmark.common.CommandLines;
import io.tern.benchmark.common.StandardOptions;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options of the state-store benchmark. */
record StateOptions(
    Path dataParentDir,
    Path jsonOut,
    int workflows,
    int tasks,
    int payloadBytes,
    long scanIntervalMs,
    long timeoutMs,
    List<String> configs) {
  static final String CONFIGS = "tuned,defaults";
  static final List<String> ALL_CONFIGS = List.of(CONFIGS.split(","));
  static final int MIN_PAYLOAD_BYTES = 8;

  /** The command line as picocli reads it: {@code state --help} prints it. */
  @Command(
      name = "state",
      description =
          "The state-store workload of a workflow engine (LittleHorse's benchmark) on one"
              + " partition's RocksDB, as Tern's stream processor drives it: one thread, one"
              + " transaction per command, a periodic range scan of due timers that deletes and"
              + " updates during the scan. Compares Tern's RocksDB tuning with RocksDB's defaults"
              + " in the same run.")
  static final class Arguments {
    @Option(
        names = "--workflows",
        paramLabel = "N",
        description = "concurrent workflows (default 1000, quick 100)")
    Integer workflows;

    @Option(
        names = "--tasks",
        paramLabel = "N",
        description = "tasks per workflow, run one after another (default 1000, quick 100)")
    Integer tasks;

    @Option(
        names = "--payload-bytes",
        paramLabel = "N",
        defaultValue = "1024",
        description =
            "bytes of each task run's payload, at least "
                + MIN_PAYLOAD_BYTES
                + " (default ${DEFAULT-VALUE})")
    int payloadBytes;

    @Option(
        names = "--scan-interval-ms",
        paramLabel = "N",
        defaultValue = "100",
        description = "how often due timers are scanned (default ${DEFAULT-VALUE})")
    long scanIntervalMs;

    @Option(
        names = "--timeout-ms",
        paramLabel = "N",
        defaultValue = "1000",
        description = "each task's timeout timer (default ${DEFAULT-VALUE})")
    long timeoutMs;

    @Option(
        names = "--configs",
        paramLabel = "LIST",
        defaultValue = CONFIGS,
        description = "any of " + CONFIGS + " (default both)")
    String configs;

    @Option(names = "--quick", description = "100 workflows x 100 tasks")
    boolean quick;

    @Mixin StandardOptions files = new StandardOptions();
  }

  /**
   * The options in {@code args}, or null after printing the usage when they ask for help.
   *
   * @throws CommandLines.UsageException naming what is wrong, with the usage
   */
  static StateOptions parse(String[] args) {
    return CommandLines.parse(new Arguments(), args, StateOptions::resolve);
  }

  private static StateOptions resolve(Arguments arguments) {
    int workflows =
        arguments.workflows != null ? arguments.workflows : arguments.quick ? 100 : 1000;
    int tasks = arguments.tasks != null ? arguments.tasks : arguments.quick ? 100 : 1000;
    if (arguments.payloadBytes < MIN_PAYLOAD_BYTES) {
      throw new IllegalArgumentException(
          "--payload-bytes must be at least "
              + MIN_PAYLOAD_BYTES
              + ", got "
              + arguments.payloadBytes);
    }
    return new StateOptions(
        arguments.files.dataParentDir(),
        arguments.files.jsonOut("state"),
        CommandLines.positive("--workflows", workflows),
        CommandLines.positive("--tasks", tasks),
        arguments.payloadBytes,
        CommandLines.positive("--scan-interval-ms", arguments.scanIntervalMs),
        CommandLines.positive("--timeout-ms", arguments.timeoutMs),
        CommandLines.names("--configs", arguments.configs, ALL_CONFIGS));
  }

  /** Disk the run needs at most: each config's state, uncompacted, twice over. */
  long requiredFreeBytes() {
    return 4L * workflows * tasks * (payloadBytes + 200);
  }
}

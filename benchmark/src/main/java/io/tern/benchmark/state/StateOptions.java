package io.tern.benchmark.state;

import io.tern.benchmark.common.BenchmarkFiles;
import io.tern.benchmark.common.OptionValues;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

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
  static final List<String> ALL_CONFIGS = List.of("tuned", "defaults");

  static final String USAGE =
      String.join(
          "\n",
          "Usage: java -jar tern-benchmark.jar state [options]",
          "",
          "The state-store workload of a workflow engine (LittleHorse's benchmark) on one",
          "partition's RocksDB, as Tern's stream processor drives it: one thread, one transaction",
          "per command, a periodic range scan of due timers that deletes and updates during the",
          "scan. Compares Tern's RocksDB tuning with RocksDB's defaults in the same run.",
          "",
          "  --workflows N          concurrent workflows (default 1000)",
          "  --tasks N              tasks per workflow, run one after another (default 1000)",
          "  --payload-bytes N      bytes of each task run's payload (default 1024)",
          "  --scan-interval-ms N   how often due timers are scanned (default 100)",
          "  --timeout-ms N         each task's timeout timer (default 1000)",
          "  --configs LIST         tuned,defaults (default both)",
          "  --quick                100 workflows x 100 tasks",
          "  --dir PATH             where the scratch data goes (default target)",
          "  --out FILE             JSON results (default state-benchmark.json next to the jar)");

  static StateOptions parse(String[] args) {
    Path dir = Path.of("target");
    Path out = BenchmarkFiles.defaultJsonOut("state-benchmark.json");
    int workflows = 1000;
    int tasks = 1000;
    int payloadBytes = 1024;
    long scanIntervalMs = 100;
    long timeoutMs = 1000;
    List<String> configs = ALL_CONFIGS;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      switch (option) {
        case "--workflows" -> workflows = positive(value(args, ++i, option), option);
        case "--tasks" -> tasks = positive(value(args, ++i, option), option);
        case "--payload-bytes" -> payloadBytes = positive(value(args, ++i, option), option);
        case "--scan-interval-ms" -> scanIntervalMs = positive(value(args, ++i, option), option);
        case "--timeout-ms" -> timeoutMs = positive(value(args, ++i, option), option);
        case "--configs" -> {
          configs = Arrays.asList(value(args, ++i, option).split(","));
          for (String config : configs) {
            if (!ALL_CONFIGS.contains(config)) {
              throw new IllegalArgumentException(
                  "Unknown config " + config + "; known: " + ALL_CONFIGS);
            }
          }
        }
        case "--quick" -> {
          workflows = 100;
          tasks = 100;
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
    if (payloadBytes < 8) {
      throw new IllegalArgumentException("--payload-bytes must be at least 8");
    }
    return new StateOptions(
        dir, out, workflows, tasks, payloadBytes, scanIntervalMs, timeoutMs, configs);
  }

  /** Disk the run needs at most: each config's state, uncompacted, twice over. */
  long requiredFreeBytes() {
    return 4L * workflows * tasks * (payloadBytes + 200);
  }

  private static String value(String[] args, int i, String option) {
    return OptionValues.value(args, i, option, USAGE);
  }

  private static int positive(String text, String option) {
    int value = Integer.parseInt(text);
    if (value < 1) {
      throw new IllegalArgumentException(option + " must be positive, got " + text);
    }
    return value;
  }
}

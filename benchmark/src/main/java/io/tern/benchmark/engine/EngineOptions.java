package io.tern.benchmark.engine;

import io.tern.benchmark.common.BenchmarkFiles;
import io.tern.benchmark.common.OptionValues;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Options of the engine benchmark. */
record EngineOptions(
    Path dataParentDir,
    Path jsonOut,
    int instances,
    int window,
    List<Integer> tasks,
    List<Boolean> batching) {
  static final String USAGE =
      String.join(
          "\n",
          "Usage: java -jar tern-benchmark.jar engine [options]",
          "",
          "Engine-only throughput on one partition (single replica, sync flush, no network):",
          "process instances per second and records per instance, for processes of 1 and 10",
          "service tasks, with batch processing on and off.",
          "",
          "  --instances N   process instances per measurement (default 20000)",
          "  --window N      instances in flight, and jobs activated at once (default 500)",
          "  --tasks LIST    tasks per process (default 1,10)",
          "  --batching LIST on,off (default both)",
          "  --quick         2000 instances",
          "  --dir PATH      where the scratch data goes (default target)",
          "  --out FILE      JSON results (default engine-benchmark.json next to the jar)");

  static EngineOptions parse(String[] args) {
    Path dir = Path.of("target");
    Path out = BenchmarkFiles.defaultJsonOut("engine-benchmark.json");
    int instances = 20_000;
    int window = 500;
    List<Integer> tasks = List.of(1, 10);
    List<Boolean> batching = List.of(true, false);
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      switch (option) {
        case "--instances" -> instances = Integer.parseInt(value(args, ++i, option));
        case "--window" -> window = Integer.parseInt(value(args, ++i, option));
        case "--tasks" -> {
          tasks = new ArrayList<>();
          for (String t : value(args, ++i, option).split(",")) {
            tasks.add(Integer.parseInt(t.trim()));
          }
        }
        case "--batching" -> {
          batching = new ArrayList<>();
          for (String b : value(args, ++i, option).split(",")) {
            if (!b.equals("on") && !b.equals("off")) {
              throw new IllegalArgumentException("--batching takes on and/or off, got " + b);
            }
            batching.add(b.equals("on"));
          }
        }
        case "--quick" -> instances = 2000;
        case "--dir" -> dir = Path.of(value(args, ++i, option));
        case "--out" -> out = Path.of(value(args, ++i, option));
        case "--help", "-h" -> {
          System.out.println(USAGE);
          return null;
        }
        default -> throw new IllegalArgumentException("Unknown option " + option + "\n" + USAGE);
      }
    }
    if (instances < 1 || window < 1 || tasks.stream().anyMatch(t -> t < 1)) {
      throw new IllegalArgumentException("--instances, --window and --tasks must be positive");
    }
    return new EngineOptions(dir, out, instances, window, tasks, batching);
  }

  private static String value(String[] args, int i, String option) {
    return OptionValues.value(args, i, option, USAGE);
  }
}

package io.tern.benchmark.state;

import io.tern.benchmark.common.BenchmarkFiles;
import io.tern.benchmark.common.Json;
import io.tern.benchmark.common.Progress;
import io.tern.engine.state.StateConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs {@link StateWorkload} with Tern's tuned state configuration and with RocksDB's defaults,
 * each on a fresh directory, and prints them side by side with the target: the seed's 1M-task run
 * in at most {@link #TARGET_TOTAL_S} seconds, without a stall above {@link #STALL_LIMIT_MS} ms.
 */
public final class StateBenchmark {
  private static final double TARGET_TOTAL_S = 35;
  private static final double STALL_LIMIT_MS = 500;

  private StateBenchmark() {}

  public static int run(String[] args) throws Exception {
    StateOptions options = StateOptions.parse(args);
    if (options == null) {
      return 0;
    }
    Progress progress = new Progress();
    List<StateResult> results = new ArrayList<>();
    int exit =
        BenchmarkFiles.runInScratch(
            options.dataParentDir(),
            "state-bench-",
            options.requiredFreeBytes(),
            root -> {
              progress.log("State-store benchmark in %s: %s", root, options);
              for (String config : options.configs()) {
                StateConfig stateConfig =
                    config.equals("tuned")
                        ? StateConfig.defaults()
                        : StateConfig.rocksDbDefaults(StateConfig.DEFAULT_DISABLE_WAL);
                results.add(
                    new StateWorkload(options, progress)
                        .run(config, stateConfig, root.resolve(config)));
                progress.log("%s done", config);
              }
            });
    if (exit != 0) {
      return exit;
    }
    print(options, results);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("workflows", options.workflows());
    json.put("tasksPerWorkflow", options.tasks());
    json.put("payloadBytes", options.payloadBytes());
    json.put("results", results.stream().map(StateResult::toJson).toList());
    Json.write(options.jsonOut(), json);
    System.out.println("JSON results: " + options.jsonOut().toAbsolutePath());
    return 0;
  }

  private static void print(StateOptions options, List<StateResult> results) {
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "%,d workflows x %,d tasks x %d-byte payloads%n",
        options.workflows(),
        options.tasks(),
        options.payloadBytes());
    System.out.printf(
        Locale.ROOT,
        "%-9s %8s %9s | %-27s | %-20s | %-27s | %7s %9s | %9s%n",
        "config",
        "total s",
        "tasks/s",
        "task start ms avg/p99/max",
        "commit ms p50/p99/max",
        "scan ms p50/p99/max (n, del)",
        "stalls",
        "max gap",
        "disk MiB");
    for (StateResult r : results) {
      System.out.printf(
          Locale.ROOT,
          "%-9s %8.1f %9.0f | %6.1f %6.1f %7.1f       | %5.2f %5.2f %7.1f | %5.1f %5.1f %6.1f (%d, %d) | %7d %7.0fms | %9.1f%n",
          r.config(),
          r.totalS(),
          r.tasksPerS(),
          r.taskStartUs().getMean() / 1000,
          r.taskStartUs().getValueAtPercentile(99) / 1000.0,
          r.taskStartUs().getMaxValue() / 1000.0,
          r.commitUs().getValueAtPercentile(50) / 1000.0,
          r.commitUs().getValueAtPercentile(99) / 1000.0,
          r.commitUs().getMaxValue() / 1000.0,
          r.scanUs().getValueAtPercentile(50) / 1000.0,
          r.scanUs().getValueAtPercentile(99) / 1000.0,
          r.scanUs().getMaxValue() / 1000.0,
          r.scanUs().getTotalCount(),
          r.timersDeleted(),
          r.stalls(),
          r.longestGapMs(),
          r.diskBytes() / 1048576.0);
    }
    results.stream()
        .filter(r -> r.config().equals("tuned"))
        .findFirst()
        .ifPresent(
            tuned -> {
              boolean fast = tuned.totalS() <= TARGET_TOTAL_S;
              boolean smooth = tuned.longestGapMs() <= STALL_LIMIT_MS;
              System.out.printf(
                  Locale.ROOT,
                  "target (tuned): total <= %.0f s: %s (%.1f s); no stall > %.0f ms: %s (longest"
                      + " %.0f ms)%n",
                  TARGET_TOTAL_S,
                  fast ? "PASS" : "FAIL",
                  tuned.totalS(),
                  STALL_LIMIT_MS,
                  smooth ? "PASS" : "FAIL",
                  tuned.longestGapMs());
            });
  }
}

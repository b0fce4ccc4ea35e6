package io.tern.benchmark.scaling;

import io.camunda.client.CamundaClient;
import io.tern.benchmark.common.Json;
import io.tern.benchmark.common.Progress;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The benchmark of online scaling's targets (docs/scaling.md), each on real local broker processes
 * started for it: t1, throughput and failed creates while partitions move under load ({@link
 * MoveUnderLoad}); t2, the move of a large partition against copying its snapshot between the same
 * two brokers' directories ({@link LargeMove}); t3, 3 brokers against 6 at one fixed load, as CPU
 * per instance per broker ({@link BrokerCount}). Each target's rounds, medians and verdict are
 * printed and written as JSON.
 */
public final class ScalingBenchmark {
  private ScalingBenchmark() {}

  public static int run(String[] args) throws Exception {
    ScalingOptions.Settings settings = ScalingOptions.parse(args);
    if (settings == null) {
      return 0;
    }
    Progress progress = new Progress();
    Path dir =
        Files.createTempDirectory(
            Files.createDirectories(settings.dataParentDir()), "scaling-benchmark-");
    Map<String, Object> results = new LinkedHashMap<>();
    results.put("benchmark", "scaling");
    results.put("rounds", settings.rounds());
    results.put("flushMode", settings.flushMode());
    results.put("settings", new LinkedHashMap<>(settings.environment()));
    results.put("cores", Runtime.getRuntime().availableProcessors());
    List<String> summary = new ArrayList<>();
    boolean allMeasured = true;
    boolean allMet = true;
    try {
      for (String target : settings.targets()) {
        Map<String, Object> result;
        try {
          result =
              switch (target) {
                case "t1" -> MoveUnderLoad.measure(settings, dir.resolve("t1"), progress);
                case "t2" -> LargeMove.measure(settings, dir.resolve("t2"), progress);
                case "t3" -> BrokerCount.measure(settings, dir.resolve("t3"), progress);
                default -> throw new IllegalStateException(target);
              };
        } catch (Exception e) {
          // The other targets still run; this one is reported as not measured, with why.
          progress.log("%s could not be measured: %s", target, e);
          result = new LinkedHashMap<>();
          result.put("measured", false);
          result.put("met", false);
          result.put("error", e.toString());
          result.put("verdict", "NOT MEASURED: " + e);
        }
        results.put(target, result);
        allMeasured &= Boolean.TRUE.equals(result.get("measured"));
        allMet &= Boolean.TRUE.equals(result.get("met"));
        summary.add(target + ": " + result.get("verdict"));
        Json.write(settings.jsonOut(), results); // what is done so far survives a later failure
      }
      results.put("allMeasured", allMeasured);
      results.put("allTargetsMet", allMet);
      Json.write(settings.jsonOut(), results);
    } finally {
      deleteData(dir);
    }
    System.out.println();
    System.out.println("Scaling targets" + (settings.rounds() > 1 ? " (medians of rounds)" : ""));
    summary.forEach(line -> System.out.println("  " + line));
    System.out.println("JSON results: " + settings.jsonOut().toAbsolutePath());
    System.out.println("Broker logs: " + dir.toAbsolutePath());
    return allMeasured ? 0 : 1;
  }

  /** A client of {@code gateway} without retries, so that every failed create is seen. */
  static CamundaClient client(String gateway) {
    return CamundaClient.newClientBuilder()
        .grpcAddress(URI.create("http://" + gateway))
        .preferRestOverGrpc(false)
        .useDefaultRetryPolicy(false)
        .defaultRequestTimeout(Duration.ofSeconds(30))
        .numJobWorkerExecutionThreads(1)
        .build();
  }

  static double median(List<Double> values) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = values.stream().sorted().toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  static double round(double value, int decimals) {
    double scale = Math.pow(10, decimals);
    return Math.round(value * scale) / scale;
  }

  /** Sleeps {@code duration}: the length of a measured window, not a wait for a condition. */
  static void hold(Duration duration) throws InterruptedException {
    Thread.sleep(duration.toMillis());
  }

  /**
   * Deletes every broker's data directory ({@code broker-N}) and snapshot copy ({@code copy-*})
   * under {@code dir}; the brokers' logs stay.
   */
  static void deleteData(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    List<Path> data;
    try (Stream<Path> paths = Files.walk(dir)) {
      data =
          paths
              .filter(Files::isDirectory)
              .filter(path -> path.getFileName().toString().matches("broker-\\d+|copy-.*"))
              .toList();
    }
    for (Path directory : data) {
      deleteTree(directory);
    }
  }

  /** Deletes {@code directory} and everything under it, if it is there. */
  static void deleteTree(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}

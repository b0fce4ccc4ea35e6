package io.tern.benchmark.load;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ClientStatusException;
import io.grpc.Status;
import io.tern.benchmark.common.Progress;
import io.tern.benchmark.load.ExperimentMatrix.Configuration;
import io.tern.benchmark.load.ExperimentResults.Result;
import io.tern.benchmark.load.ExperimentResults.Window;
import io.tern.engine.cluster.PartitionDistribution;
import io.tern.engine.record.Keys;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code tern-benchmark experiment}: the latency experiment as one command. For each configuration
 * of the matrix it starts a local cluster with those broker keys and the injected latency, puts
 * every partition back on its primary, measures the round trip to each partition's leader, runs
 * each workload at its fixed rate (warmup, then the measured windows), and stops the cluster; then
 * writes the report ({@link ExperimentReport}).
 */
public final class ExperimentBenchmark {
  private static final int MAX_ERRORS_SHOWN = 5;
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private ExperimentBenchmark() {}

  public static int run(String[] args) throws Exception {
    ExperimentOptions options;
    try {
      options = ExperimentOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      return 2;
    }
    if (options == null) {
      return 0;
    }
    List<Configuration> matrix = options.matrix;
    Progress progress = new Progress();
    String runId = Long.toString(System.currentTimeMillis(), 36);
    List<Result> results = new ArrayList<>();
    Map<String, Object> setup = setup(options);
    if (options.gateway != null) {
      setup.put("cluster", "existing, gateway " + options.gateway);
      setup.put("flags the brokers report", flags(options.management));
      try (CamundaClient client = client(options.gateway)) {
        for (String workload : options.workloads) {
          results.add(
              measure(
                  client,
                  workload,
                  new Configuration("as configured", Map.of()),
                  options,
                  options.management,
                  Map.of(),
                  progress));
        }
      }
    } else {
      List<Result> all = new ArrayList<>();
      for (int round = 1; round <= options.rounds; round++) {
        int done = 0;
        for (Configuration configuration : matrix) {
          progress.log(
              "round %d of %d, configuration %d of %d: %s %s",
              round,
              options.rounds,
              ++done,
              matrix.size(),
              configuration.name(),
              configuration.keys().isEmpty() ? "(the defaults)" : configuration.keys());
          all.addAll(runLocal(configuration, options, runId, setup, round, progress));
        }
      }
      results.addAll(ExperimentResults.mergeRounds(all));
    }
    String page = ExperimentReport.write(options.outDir, setup, results);
    System.out.println();
    System.out.println(page);
    System.out.println("Report: " + options.outDir.toAbsolutePath().resolve("report.md"));
    long failed = results.stream().mapToLong(Result::failed).sum();
    return failed == 0 ? 0 : 1;
  }

  private static Map<String, Object> setup(ExperimentOptions options) {
    Map<String, Object> setup = new LinkedHashMap<>();
    setup.put("date", LocalDate.now().toString());
    setup.put(
        "machine",
        Runtime.getRuntime().availableProcessors()
            + " cores, "
            + System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + ", Java "
            + System.getProperty("java.version"));
    if (options.gateway == null) {
      setup.put(
          "cluster",
          options.brokers
              + " local broker processes, "
              + options.partitions
              + " partitions, replication "
              + options.replication
              + ", every partition led by its primary");
      setup.put("client", options.describeClient());
      setup.put("injected latency", options.describeLatency());
    }
    Map<String, Object> load = new LinkedHashMap<>();
    for (String workload : options.workloads) {
      load.put(workload, options.rate(workload) + " creates/s with result");
    }
    setup.put("workloads", load);
    setup.put(
        "windows",
        options.warmupSeconds
            + " s warmup, then "
            + options.repeat
            + " x "
            + options.durationSeconds
            + " s measured per workload"
            + (options.rounds > 1
                ? ", in each of "
                    + options.rounds
                    + " rounds of the whole matrix (configurations alternated; medians over all"
                    + " windows of all rounds)"
                : ""));
    return setup;
  }

  private static List<Result> runLocal(
      Configuration configuration,
      ExperimentOptions options,
      String runId,
      Map<String, Object> setup,
      int round,
      Progress progress)
      throws Exception {
    Path data =
        Files.createTempDirectory(
            Files.createDirectories(options.dataParentDir), "experiment-" + configuration.name());
    Map<String, String> settings = ExperimentMatrix.environment(configuration.keys(), runId);
    if (options.latencyMs > 0) {
      // Applies between brokers only: a standalone gateway is never delayed.
      settings.put("TERN_EXPERIMENTAL_NETWORK_LATENCY", options.latencyMs + "ms");
      settings.put(
          "TERN_EXPERIMENTAL_NETWORK_LATENCYBETWEEN",
          options.latencyBetween.equalsIgnoreCase("all") ? "" : options.latencyBetween);
    }
    String flush = settings.getOrDefault("TERN_RAFT_FLUSH_MODE", "sync");
    List<Result> results = new ArrayList<>();
    try (LocalCluster cluster =
        LocalCluster.start(
            options.brokers,
            options.partitions,
            options.replication,
            flush,
            settings,
            data,
            progress)) {
      List<String> management = cluster.managementAddresses();
      Map<Integer, Integer> leaders =
          onPrimaries(management, cluster.managementAuthorization(), options.brokers, progress);
      String balance = leaderBalance(leaders, options.brokers);
      progress.log("leaders: %s", balance);
      setup.put("leaders, " + configuration.name() + ", round " + round, balance);
      String gateway =
          switch (options.client) {
            case ExperimentOptions.CLIENT_STANDALONE -> cluster.startStandaloneGateway(progress);
            case ExperimentOptions.CLIENT_LEADER -> cluster.gateway(options.soleLeader());
            default -> cluster.gateway();
          };
      try (CamundaClient client = client(gateway)) {
        Map<Integer, Long> trips = roundTrips(client, management);
        progress.log(
            "round trip from the client's gateway (%s) to each partition's leader, ms: %s",
            options.client, trips);
        for (String workload : options.workloads) {
          results.add(
              measure(client, workload, configuration, options, management, trips, progress));
        }
      }
    } finally {
      deleteRecursively(data);
      try (var shm = Files.list(Path.of("/dev/shm"))) {
        for (Path each :
            shm.filter(p -> p.getFileName().toString().equals("tern-experiment-" + runId))
                .toList()) {
          deleteRecursively(each);
        }
      } catch (IOException noShm) {
        // nothing there to clean
      }
    }
    return results;
  }

  private static Result measure(
      CamundaClient client,
      String workload,
      Configuration configuration,
      ExperimentOptions options,
      List<String> management,
      Map<Integer, Long> trips,
      Progress progress)
      throws Exception {
    LoadStats stats = new LoadStats();
    AtomicInteger errorsShown = new AtomicInteger();
    LoadDriver.Workload load =
        new LoadDriver.Workload(
            Workloads.model(workload),
            Workloads.payloadBytes(workload),
            true,
            true,
            256,
            Duration.ZERO,
            REQUEST_TIMEOUT);
    double rate = options.rate(workload);
    List<Window> windows = new ArrayList<>();
    try (LoadDriver driver =
        new LoadDriver(
            client,
            load,
            stats,
            error -> {
              if (errorsShown.incrementAndGet() <= MAX_ERRORS_SHOWN) {
                progress.log("%s", error);
              }
            })) {
      driver.start();
      progress.log(
          "%s, %s: %.1f creates/s, warming up %d s",
          configuration.name(), workload, rate, options.warmupSeconds);
      driver.openLoop(rate, System.nanoTime() + TimeUnit.SECONDS.toNanos(options.warmupSeconds));
      if (!trips.isEmpty()) {
        // Again, warm: the first probe ran against brokers and a client that had done nothing yet
        // (cold code, 15-25 ms through a local gateway), and the floor counts a trip per job.
        Map<Integer, Long> warm = roundTrips(client, management);
        if (!warm.isEmpty()) {
          progress.log("round trip after the warmup, ms: %s", warm);
          trips = warm;
        }
      }
      MetricsWindow metrics = new MetricsWindow(management);
      for (int repeat = 1; repeat <= options.repeat; repeat++) {
        metrics.open();
        stats.interval(); // what the window measures starts now
        long startNs = System.nanoTime();
        driver.openLoop(rate, startNs + TimeUnit.SECONDS.toNanos(options.durationSeconds));
        double seconds = (System.nanoTime() - startNs) / 1e9;
        Window window = Window.of(stats.interval(), metrics.close(), seconds);
        windows.add(window);
        progress.log(
            "%s, %s, window %d of %d: PEL p50 %s ms, p99 %s ms, %.1f PI/s, commit p50 %s ms,"
                + " %.1f commits and %.1f commands per instance",
            configuration.name(),
            workload,
            repeat,
            options.repeat,
            ExperimentReport.ms(window.pelP50()),
            ExperimentReport.ms(window.pelP99()),
            window.throughput(),
            ExperimentReport.ms(window.commitP50()),
            window.commitsPerInstance(),
            window.commandsPerInstance());
      }
      if (!driver.awaitOutstanding(REQUEST_TIMEOUT)) {
        progress.log("%d instance(s) still running after the last window", driver.outstanding());
      }
    }
    return new Result(workload, configuration.name(), configuration.keys(), rate, windows, trips);
  }

  /**
   * Asks for rebalancing until every partition is led by its primary (or 60 s passed); returns each
   * partition's leader (node id) as found last.
   */
  public static Map<Integer, Integer> onPrimaries(
      List<String> management, String authorization, int brokers, Progress progress)
      throws InterruptedException {
    LimiterGauges leaders = new LimiterGauges(management);
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    Map<Integer, Integer> found = new TreeMap<>();
    while (System.nanoTime() < deadline) {
      Map<Integer, LimiterGauges.Partition> led = leaders.read();
      found.clear();
      led.forEach((partition, state) -> found.put(partition, state.node()));
      boolean balanced = !led.isEmpty();
      for (Map.Entry<Integer, LimiterGauges.Partition> partition : led.entrySet()) {
        balanced &=
            partition.getValue().node()
                == PartitionDistribution.primaryOf(partition.getKey(), brokers);
      }
      if (balanced) {
        return found;
      }
      try {
        http.send(
            HttpRequest.newBuilder(
                    URI.create("http://" + management.get(0) + "/actuator/rebalance"))
                .header("Authorization", authorization)
                .POST(HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
      } catch (IOException notYet) {
        // the broker answers once it is up
      }
      Thread.sleep(500);
    }
    progress.log("not every partition is led by its primary; measuring as it is");
    return found;
  }

  /**
   * How many partitions each node leads, and which are off their primary: e.g. "node 0: 3, node 1:
   * 3; all on their primaries".
   */
  public static String leaderBalance(Map<Integer, Integer> leaders, int brokers) {
    Map<Integer, Integer> perNode = new TreeMap<>();
    for (int node = 0; node < brokers; node++) {
      perNode.put(node, 0);
    }
    List<String> off = new ArrayList<>();
    leaders.forEach(
        (partition, node) -> {
          perNode.merge(node, 1, Integer::sum);
          int primary = PartitionDistribution.primaryOf(partition, brokers);
          if (node != primary) {
            off.add("partition " + partition + " on node " + node + ", primary " + primary);
          }
        });
    StringBuilder text = new StringBuilder();
    perNode.forEach(
        (node, count) ->
            text.append(text.length() == 0 ? "" : ", ")
                .append("node ")
                .append(node)
                .append(": ")
                .append(count));
    text.append(
        leaders.isEmpty()
            ? "; no leader known"
            : off.isEmpty() ? "; all on their primaries" : "; off their primaries: " + off);
    return text.toString();
  }

  /**
   * The fastest of five round trips from the client through its gateway to each partition's leader:
   * cancelling an instance the partition never had, answered NOT_FOUND by its leader.
   */
  private static Map<Integer, Long> roundTrips(CamundaClient client, List<String> management) {
    Map<Integer, Long> trips = new TreeMap<>();
    for (int partitionId : new LimiterGauges(management).read().keySet()) {
      long fastestMs = Long.MAX_VALUE;
      for (int i = 0; i < 5; i++) {
        long key = Keys.encode(partitionId, Keys.MAX_COUNTER - i);
        long startNs = System.nanoTime();
        try {
          client.newCancelInstanceCommand(key).send().join();
        } catch (ClientStatusException e) {
          if (e.getStatusCode() != Status.Code.NOT_FOUND) {
            continue;
          }
        }
        fastestMs = Math.min(fastestMs, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
      }
      if (fastestMs != Long.MAX_VALUE) {
        trips.put(partitionId, fastestMs);
      }
    }
    return trips;
  }

  /** What each broker reports of its experiment flags ({@code GET /actuator/flags}). */
  private static Map<String, String> flags(List<String> management) {
    Map<String, String> flags = new LinkedHashMap<>();
    HttpClient http = HttpClient.newHttpClient();
    for (String address : management) {
      try {
        HttpResponse<String> answer =
            http.send(
                HttpRequest.newBuilder(URI.create("http://" + address + "/actuator/flags"))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
        flags.put(
            address, answer.statusCode() == 200 ? answer.body() : "HTTP " + answer.statusCode());
      } catch (IOException e) {
        flags.put(address, "no answer: " + e.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return flags;
  }

  private static CamundaClient client(String gateway) {
    return CamundaClient.newClientBuilder()
        .grpcAddress(URI.create("http://" + gateway))
        .preferRestOverGrpc(false)
        .defaultRequestTimeout(REQUEST_TIMEOUT)
        .numJobWorkerExecutionThreads(1)
        .build();
  }

  private static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (var paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}

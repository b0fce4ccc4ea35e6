package io.tern.benchmark.load;

import io.camunda.client.CamundaClient;
import io.camunda.client.CamundaClientBuilder;
import io.tern.benchmark.common.Json;
import io.tern.benchmark.common.Progress;
import io.tern.engine.broker.Broker;
import io.tern.engine.broker.BrokerConfigLoader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.HdrHistogram.Histogram;

/**
 * The workflow load benchmark: the official client's starter and worker ({@link LoadDriver})
 * against a gateway, with a line a second of what happened and of each partition leader's
 * backpressure limit, and the whole run's figures and series as JSON.
 */
public final class LoadBenchmark {
  /** Failures beyond this many are counted, not printed. */
  private static final int MAX_ERRORS_SHOWN = 5;

  /** Past the request timeout, how long instances still in flight at the end may take. */
  private static final Duration DRAIN_GRACE = Duration.ofSeconds(5);

  /** Under the local brokers' directory: the throwaway CA's certificates and keys (--tls). */
  private static final String TLS_DIRECTORY = "tls";

  private LoadBenchmark() {}

  public static int run(String[] args) throws Exception {
    LoadOptions options;
    try {
      options = LoadOptions.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      return 2;
    }
    if (options == null) {
      return 0;
    }
    Progress progress = new Progress();
    Broker broker = null;
    LocalCluster cluster = null;
    Path localData = null;
    String gateway = options.gateway;
    List<String> management = options.management;
    Path caFile = options.tlsCaFile;
    String rest = options.restAddress;
    if (gateway == null) {
      localData =
          Files.createTempDirectory(
              Files.createDirectories(options.dataParentDir), "load-benchmark-");
      Map<String, String> settings = new LinkedHashMap<>();
      if (options.tls()) {
        LocalPki pki = LocalPki.create(localData.resolve(TLS_DIRECTORY), options.brokers);
        settings.putAll(pki.brokerSettings());
        caFile = pki.caCertificate();
      }
      settings.putAll(options.environment()); // --set has the last word, as in a config file
      if (options.brokers == 1) {
        broker = startLocalBroker(options, settings, localData, progress);
        gateway = "127.0.0.1:" + broker.gatewayPort();
        management = List.of("127.0.0.1:" + broker.managementPort());
        rest = "127.0.0.1:" + broker.restPort();
      } else {
        cluster =
            LocalCluster.start(
                options.brokers,
                options.partitions,
                options.replication,
                options.flushMode,
                settings,
                localData,
                progress);
        gateway = cluster.gateway();
        management = cluster.managementAddresses();
        rest = cluster.restAddress();
        // Which broker leads what decides how many commands cross the command API from node 0's
        // gateway: left to the elections, it differed between runs and so did the figures.
        Map<Integer, Integer> leaders =
            ExperimentBenchmark.onPrimaries(
                management, cluster.managementAuthorization(), options.brokers, progress);
        progress.log("leaders: %s", ExperimentBenchmark.leaderBalance(leaders, options.brokers));
      }
    }
    CamundaClientBuilder builder =
        CamundaClient.newClientBuilder()
            .grpcAddress(URI.create((options.tls() ? "https://" : "http://") + gateway))
            .preferRestOverGrpc(false)
            .credentialsProvider(options.oauth.credentialsProvider(System.getenv()))
            .defaultRequestTimeout(Duration.ofSeconds(options.requestTimeoutSeconds))
            .numJobWorkerExecutionThreads(1);
    if (options.rest()) {
      // Only the creates go over REST (LoadDriver asks for it per command): the worker and the
      // deployment stay on gRPC, so the comparison with a gRPC run is about the creates alone.
      builder.restAddress(URI.create((options.tls() ? "https://" : "http://") + rest));
    }
    if (caFile != null) {
      builder.caCertificatePath(caFile.toString());
    }
    try (CamundaClient client = builder.build()) {
      List<Long> brokerPids = new java.util.ArrayList<>();
      if (cluster != null) {
        for (int node = 0; node < cluster.size(); node++) {
          brokerPids.add(cluster.pid(node));
        }
      }
      Map<String, Object> results =
          measure(client, options, gateway, management, CpuWindow.of(brokerPids), progress);
      Json.write(options.jsonOut, results);
      System.out.println("JSON results: " + options.jsonOut.toAbsolutePath());
      System.out.println("Chart: " + options.chartOut.toAbsolutePath());
      return ((Number) results.get("failedInstances")).longValue() == 0 ? 0 : 1;
    } finally {
      if (broker != null) {
        broker.close();
      }
      if (cluster != null) {
        cluster.close();
        for (int node = 0; node < options.brokers; node++) {
          deleteRecursively(localData.resolve("broker-" + node)); // the logs stay
        }
        deleteRecursively(localData.resolve(TLS_DIRECTORY)); // keys have no use after the run
        System.out.println("Broker logs: " + localData.toAbsolutePath());
      } else if (localData != null) {
        deleteRecursively(localData);
      }
    }
  }

  private static void deleteRecursively(Path directory) throws java.io.IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (var paths = Files.walk(directory)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }

  /**
   * Starts the in-process broker; {@code extraSettings} are TERN_* settings on top of the
   * benchmark's, "{node}" in a value standing for its node id (0), as for a {@link LocalCluster}.
   */
  private static Broker startLocalBroker(
      LoadOptions options, Map<String, String> extraSettings, Path data, Progress progress)
      throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("TERN_DATA_DIRECTORY", data.toString());
    settings.put("TERN_NETWORK_HOST", "127.0.0.1");
    settings.put("TERN_NETWORK_COMMANDPORT", "0");
    settings.put("TERN_NETWORK_INTERNALPORT", "0");
    settings.put("TERN_GATEWAY_PORT", "0");
    settings.put("TERN_MANAGEMENT_PORT", "0");
    settings.put("TERN_GATEWAY_REST_PORT", "0");
    settings.put("TERN_RAFT_FLUSH_MODE", options.flushMode);
    settings.put("TERN_CLUSTER_PARTITIONSCOUNT", Integer.toString(options.partitions));
    // No exporter unless asked, as in a LocalCluster (and as a Zeebe broker runs none).
    settings.put("TERN_EXPORTING_HISTORY_ENABLED", "false");
    extraSettings.forEach((key, value) -> settings.put(key, value.replace("{node}", "0")));
    Broker broker = Broker.start(BrokerConfigLoader.load(null, settings));
    if (!broker.awaitReady(Duration.ofMinutes(1))) {
      broker.close();
      throw new IllegalStateException("the local broker did not become ready in a minute");
    }
    progress.log(
        "local broker ready (%d partition(s), raft.flush.mode %s%s%s, data under %s)",
        options.partitions,
        options.flushMode,
        options.tls() ? ", gateway and cluster TLS" : "",
        options.settings.isEmpty() ? "" : ", " + options.settings,
        data);
    return broker;
  }

  private static Map<String, Object> measure(
      CamundaClient client,
      LoadOptions options,
      String gateway,
      List<String> management,
      CpuWindow cpu,
      Progress progress)
      throws Exception {
    LimiterGauges gauges = new LimiterGauges(management);
    LoadStats stats = new LoadStats();
    AtomicInteger errorsShown = new AtomicInteger();
    LoadDriver.Workload workload = options.workload();
    try (LoadDriver driver =
        new LoadDriver(
            client,
            workload,
            stats,
            error -> {
              if (errorsShown.incrementAndGet() <= MAX_ERRORS_SHOWN) {
                progress.log("%s", error);
              }
            })) {
      driver.start();
      progress.log(
          "starting: %s, %d task(s), %s over %s, %d-byte payload, streaming %s, TLS %s, OAuth"
              + " %s, warmup %d s, measuring %d s",
          options.openLoop()
              ? String.format("%.0f creates/s (open loop)", options.rate)
              : options.inFlight + " in flight",
          options.tasks,
          options.withResult ? "with result" : "without result",
          options.rest() ? "REST" : "gRPC",
          options.payloadBytes,
          options.streaming ? "on" : "off",
          options.tls() ? "on" : "off",
          options.oauth.enabled() ? "on" : "off",
          options.warmupSeconds,
          options.durationSeconds);
      LoadReporter reporter =
          new LoadReporter(
              stats,
              gauges,
              new ExporterLags(management),
              new MetricsWindow(management),
              cpu,
              driver::outstanding,
              progress);
      long startNs = System.nanoTime();
      long measureFromNs = startNs + options.warmup().toNanos();
      long endNs = measureFromNs + options.duration().toNanos();
      reporter.start(startNs, measureFromNs, endNs);
      try {
        if (options.openLoop()) {
          driver.openLoop(options.rate, endNs);
        } else {
          driver.closedLoop(options.inFlight, endNs, Duration.ofMillis(options.backoffMs));
        }
        boolean drained = driver.awaitOutstanding(workload.requestTimeout().plus(DRAIN_GRACE));
        if (!drained) {
          progress.log("%d instance(s) still in flight after the run", driver.outstanding());
        }
      } finally {
        reporter.stop();
      }
      return results(options, gateway, reporter, progress);
    }
  }

  /** The chart's title: the load and where it ran. */
  private static String title(LoadOptions options) {
    String load =
        options.openLoop()
            ? String.format("%.0f creates/s", options.rate)
            : options.inFlight + " in flight";
    String target =
        options.gateway != null
            ? options.gateway
            : options.brokers + (options.brokers == 1 ? " broker" : " brokers");
    return String.format(
        "%s, %d task(s), %s%s, %s%s%s",
        load,
        options.tasks,
        options.withResult ? "with result" : "without result",
        options.rest() ? " over REST" : "",
        target,
        options.tls() ? ", TLS" : "",
        options.oauth.enabled() ? ", OAuth" : "");
  }

  private static Map<String, Object> results(
      LoadOptions options, String gateway, LoadReporter reporter, Progress progress)
      throws java.io.IOException {
    LoadStats.Interval measured = reporter.measured();
    double seconds = options.durationSeconds;
    Map<String, Object> results = new LinkedHashMap<>();
    results.put("benchmark", "load");
    results.put("gateway", gateway);
    // What was secured, so that secured and plaintext runs are told apart when compared.
    results.put("tls", options.tls());
    results.put("oauth", options.oauth.enabled());
    if (options.gateway == null) {
      results.put("localBrokers", options.brokers);
      results.put("localPartitions", options.partitions);
      results.put("localReplication", options.replication);
      results.put("flushMode", options.flushMode);
      results.put("settings", new LinkedHashMap<>(options.settings));
    }
    if (options.openLoop()) {
      results.put("ratePerSecond", options.rate);
    } else {
      results.put("inFlight", options.inFlight);
    }
    results.put("tasks", options.tasks);
    results.put("withResult", options.withResult);
    results.put("api", options.rest() ? "rest" : "grpc");
    results.put("payloadBytes", options.payloadBytes);
    results.put("streaming", options.streaming);
    results.put("completionDelayMs", options.completionDelayMs);
    results.put("measuredSeconds", seconds);
    results.put("sentInstances", measured.sent);
    results.put("completedInstances", measured.ended);
    results.put("refusedInstances", measured.refused);
    results.put("failedInstances", reporter.failedTotal());
    results.put("refusedTotal", reporter.refusedTotal());
    results.put("instancesPerSecond", measured.ended / seconds);
    results.put("latencyMs", percentiles(measured.endLatency));
    if (!options.withResult) {
      results.put("createLatencyMs", percentiles(measured.createLatency));
    }
    results.put("refusalLatencyMs", percentiles(measured.refusalLatency));
    results.put("processingLatencyMs", reporter.processingLatency());
    results.put("limiter", reporter.limiterSummary());
    Map<String, Object> cpu = reporter.cpu();
    if (!cpu.isEmpty()) {
      results.put("cpu", cpu);
    }
    Map<String, Object> lags = reporter.exporterLagSummary();
    if (!lags.isEmpty()) {
      results.put("exporterLagSeconds", lags);
    }
    results.put("series", reporter.series().stream().map(LoadReporter.Row::json).toList());
    progress.log(
        "done: %d instances in %.0f s = %.0f PI/s; latency p50 %.2f ms, p90 %.2f ms, p99 %.2f"
            + " ms, p99.9 %.2f ms, max %.2f ms; %d refused (%d in all), %d failed",
        measured.ended,
        seconds,
        measured.ended / seconds,
        ms(measured.endLatency, 50),
        ms(measured.endLatency, 90),
        ms(measured.endLatency, 99),
        ms(measured.endLatency, 99.9),
        measured.endLatency.getMaxValue() / 1e6,
        measured.refused,
        reporter.refusedTotal(),
        reporter.failedTotal());
    if (measured.refused > 0) {
      progress.log(
          "refusals answered in p50 %.2f ms, p99 %.2f ms, max %.2f ms",
          ms(measured.refusalLatency, 50),
          ms(measured.refusalLatency, 99),
          measured.refusalLatency.getMaxValue() / 1e6);
    }
    progress.log(
        "accepted commands, write to processed (brokers' histograms, bucket bounds in ms): %s",
        reporter.processingLatency());
    progress.log("backpressure limit, per partition: %s", reporter.limiterSummary());
    if (!cpu.isEmpty()) {
      progress.log(
          "CPU over the measured window: %.1f s (%s), %.3f ms per instance, JIT %.1f s (%.0f%%)",
          cpu.get("seconds"),
          cpu.get("byProcessSeconds"),
          cpu.get("msPerInstance"),
          cpu.get("jitSeconds"),
          100 * (double) cpu.get("jitShare"));
      if ((double) cpu.get("jitShare") > CpuWindow.JIT_SHARE_WARNING) {
        progress.log(
            "warning: the JIT compilers took %.0f%% of the measured window's CPU: the warmup was"
                + " too short for a steady state (--warmup)",
            100 * (double) cpu.get("jitShare"));
      }
    }
    if (!lags.isEmpty()) {
      progress.log(
          "exporter lag over the measured window (seconds, sampled each second): %s", lags);
    }
    LoadChart.write(options.chartOut, title(options), reporter.series());
    return results;
  }

  static Map<String, Object> percentiles(Histogram histogram) {
    Map<String, Object> figures = new LinkedHashMap<>();
    figures.put("count", histogram.getTotalCount());
    figures.put("p50", ms(histogram, 50));
    figures.put("p90", ms(histogram, 90));
    figures.put("p99", ms(histogram, 99));
    figures.put("p999", ms(histogram, 99.9));
    figures.put("max", histogram.getMaxValue() / 1e6);
    return figures;
  }

  static double ms(Histogram histogram, double percentile) {
    return histogram.getValueAtPercentile(percentile) / 1e6;
  }
}

package io.tern.benchmark.load;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.worker.JobWorker;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.builder.AbstractFlowNodeBuilder;
import io.tern.benchmark.common.Json;
import io.tern.benchmark.common.Progress;
import io.tern.engine.broker.Broker;
import io.tern.engine.broker.BrokerConfigLoader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The workflow load benchmark: the official client's starter and worker against a gateway,
 * instances per second and the create-with-result round trip's percentiles.
 */
public final class LoadBenchmark {
  private static final String PROCESS_ID = "load-benchmark";
  private static final String JOB_TYPE = "load-benchmark-task";

  /** Failures beyond this many are counted, not printed. */
  private static final int MAX_ERRORS_SHOWN = 5;

  private static final long MAX_LATENCY_NS = TimeUnit.MINUTES.toNanos(1);

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
    String gateway = options.gateway();
    if (gateway == null) {
      localData =
          Files.createTempDirectory(
              Files.createDirectories(options.dataParentDir()), "load-benchmark-");
      if (options.brokers() == 1) {
        broker = startLocalBroker(options, localData, progress);
        gateway = "127.0.0.1:" + broker.gatewayPort();
      } else {
        cluster =
            LocalCluster.start(
                options.brokers(),
                options.partitions(),
                options.replication(),
                options.flushMode(),
                localData,
                progress);
        gateway = cluster.gateway();
      }
    }
    try (CamundaClient client =
        CamundaClient.newClientBuilder()
            .grpcAddress(URI.create("http://" + gateway))
            .preferRestOverGrpc(false)
            .defaultRequestTimeout(Duration.ofSeconds(30))
            .numJobWorkerExecutionThreads(1)
            .build()) {
      Map<String, Object> results = measure(client, options, gateway, progress);
      Json.write(options.jsonOut(), results);
      System.out.println("JSON results: " + options.jsonOut().toAbsolutePath());
      return ((Number) results.get("failedInstances")).longValue() == 0 ? 0 : 1;
    } finally {
      if (broker != null) {
        broker.close();
      }
      if (cluster != null) {
        cluster.close();
        for (int node = 0; node < options.brokers(); node++) {
          deleteRecursively(localData.resolve("broker-" + node)); // the logs stay
        }
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

  private static Broker startLocalBroker(LoadOptions options, Path data, Progress progress)
      throws Exception {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("TERN_DATA_DIRECTORY", data.toString());
    settings.put("TERN_NETWORK_HOST", "127.0.0.1");
    settings.put("TERN_NETWORK_COMMANDPORT", "0");
    settings.put("TERN_NETWORK_INTERNALPORT", "0");
    settings.put("TERN_GATEWAY_PORT", "0");
    settings.put("TERN_MANAGEMENT_ENABLE", "false");
    settings.put("TERN_RAFT_FLUSH_MODE", options.flushMode());
    settings.put("TERN_CLUSTER_PARTITIONSCOUNT", Integer.toString(options.partitions()));
    Broker broker = Broker.start(BrokerConfigLoader.load(null, settings));
    if (!broker.awaitReady(Duration.ofMinutes(1))) {
      broker.close();
      throw new IllegalStateException("the local broker did not become ready in a minute");
    }
    progress.log(
        "local broker ready (%d partition(s), raft.flush.mode %s, data under %s)",
        options.partitions(), options.flushMode(), data);
    return broker;
  }

  private static Map<String, Object> measure(
      CamundaClient client, LoadOptions options, String gateway, Progress progress)
      throws Exception {
    client
        .newDeployResourceCommand()
        .addResourceBytes(processXml(options.tasks()), PROCESS_ID + ".bpmn")
        .send()
        .join();
    Map<String, Object> variables = Map.of("payload", "x".repeat(options.payloadBytes()));
    long delayMs = options.completionDelayMs();
    try (JobWorker worker =
        client
            .newWorker()
            .jobType(JOB_TYPE)
            .handler(
                (jobClient, job) -> {
                  if (delayMs > 0) {
                    Thread.sleep(delayMs);
                  }
                  jobClient.newCompleteCommand(job).send();
                })
            .maxJobsActive(Math.max(32, options.inFlight() * 2))
            .streamEnabled(options.streaming())
            .open()) {
      Recorder recorder = new Recorder(MAX_LATENCY_NS, 3);
      Histogram measured = new Histogram(MAX_LATENCY_NS, 3);
      Semaphore window = new Semaphore(options.inFlight());
      AtomicLong completed = new AtomicLong();
      AtomicLong failed = new AtomicLong();
      long startNs = System.nanoTime();
      long measureFromNs = startNs + options.warmup().toNanos();
      long endNs = measureFromNs + options.duration().toNanos();
      long nextReportNs = startNs + TimeUnit.SECONDS.toNanos(1);
      long completedAtLastReport = 0;
      long measuredCompleted = -1;
      progress.log(
          "starting: %d in flight, %d task(s), %d-byte payload, streaming %s, warmup %d s,"
              + " measuring %d s",
          options.inFlight(),
          options.tasks(),
          options.payloadBytes(),
          options.streaming() ? "on" : "off",
          options.warmup().toSeconds(),
          options.duration().toSeconds());
      while (System.nanoTime() < endNs) {
        if (!window.tryAcquire(10, TimeUnit.MILLISECONDS)) {
          nextReportNs =
              report(
                  progress,
                  recorder,
                  measured,
                  completed,
                  nextReportNs,
                  completedAtLastReport,
                  measureFromNs);
          completedAtLastReport = completed.get();
          continue;
        }
        long sentNs = System.nanoTime();
        if (measuredCompleted < 0 && sentNs >= measureFromNs) {
          measuredCompleted = completed.get();
          recorder.getIntervalHistogram(); // drop the warmup's latencies
          measured.reset();
        }
        client
            .newCreateInstanceCommand()
            .bpmnProcessId(PROCESS_ID)
            .latestVersion()
            .variables(variables)
            .withResult()
            .requestTimeout(Duration.ofSeconds(30))
            .send()
            .whenComplete(
                (result, error) -> {
                  if (error == null) {
                    recorder.recordValue(Math.min(System.nanoTime() - sentNs, MAX_LATENCY_NS));
                    completed.incrementAndGet();
                  } else if (failed.incrementAndGet() <= MAX_ERRORS_SHOWN) {
                    progress.log("instance failed: %s", error);
                  }
                  window.release();
                });
        if (System.nanoTime() >= nextReportNs) {
          nextReportNs =
              report(
                  progress,
                  recorder,
                  measured,
                  completed,
                  nextReportNs,
                  completedAtLastReport,
                  measureFromNs);
          completedAtLastReport = completed.get();
        }
      }
      long measuredNs = System.nanoTime() - measureFromNs;
      window.acquire(options.inFlight()); // the last ones answer (and are counted)
      measured.add(recorder.getIntervalHistogram());
      long count = completed.get() - Math.max(0, measuredCompleted);
      double perSecond = count / (measuredNs / 1e9);
      Map<String, Object> results = new LinkedHashMap<>();
      results.put("benchmark", "load");
      results.put("gateway", gateway);
      if (options.gateway() == null) {
        results.put("localBrokers", options.brokers());
        results.put("localPartitions", options.partitions());
        results.put("localReplication", options.replication());
        results.put("flushMode", options.flushMode());
      }
      results.put("inFlight", options.inFlight());
      results.put("tasks", options.tasks());
      results.put("payloadBytes", options.payloadBytes());
      results.put("streaming", options.streaming());
      results.put("completionDelayMs", options.completionDelayMs());
      results.put("measuredSeconds", measuredNs / 1e9);
      results.put("completedInstances", count);
      results.put("failedInstances", failed.get());
      results.put("instancesPerSecond", perSecond);
      results.put("latencyMsP50", measured.getValueAtPercentile(50) / 1e6);
      results.put("latencyMsP90", measured.getValueAtPercentile(90) / 1e6);
      results.put("latencyMsP99", measured.getValueAtPercentile(99) / 1e6);
      results.put("latencyMsP999", measured.getValueAtPercentile(99.9) / 1e6);
      results.put("latencyMsMax", measured.getMaxValue() / 1e6);
      progress.log(
          "done: %d instances in %.1f s = %.0f PI/s; latency p50 %.2f ms, p90 %.2f ms, p99 %.2f"
              + " ms, p99.9 %.2f ms, max %.2f ms; %d failed",
          count,
          measuredNs / 1e9,
          perSecond,
          measured.getValueAtPercentile(50) / 1e6,
          measured.getValueAtPercentile(90) / 1e6,
          measured.getValueAtPercentile(99) / 1e6,
          measured.getValueAtPercentile(99.9) / 1e6,
          measured.getMaxValue() / 1e6,
          failed.get());
      return results;
    }
  }

  /** A progress line each second: the last second's rate and latencies. */
  private static long report(
      Progress progress,
      Recorder recorder,
      Histogram measured,
      AtomicLong completed,
      long nextReportNs,
      long completedAtLastReport,
      long measureFromNs) {
    long now = System.nanoTime();
    if (now < nextReportNs) {
      return nextReportNs;
    }
    Histogram second = recorder.getIntervalHistogram();
    if (now >= measureFromNs) {
      measured.add(second);
    }
    progress.log(
        "%s %5d PI/s, p50 %.2f ms, p99 %.2f ms",
        now < measureFromNs ? "warmup   " : "measuring",
        completed.get() - completedAtLastReport,
        second.getValueAtPercentile(50) / 1e6,
        second.getValueAtPercentile(99) / 1e6);
    return now + TimeUnit.SECONDS.toNanos(1);
  }

  /** start, then {@code tasks} service tasks of the benchmark's job type, then end. */
  private static byte[] processXml(int tasks) {
    AbstractFlowNodeBuilder<?, ?> flow = Bpmn.createExecutableProcess(PROCESS_ID).startEvent();
    for (int i = 1; i <= tasks; i++) {
      flow = flow.serviceTask("task-" + i, task -> task.zeebeJobType(JOB_TYPE));
    }
    return Bpmn.convertToString(flow.endEvent().done()).getBytes(StandardCharsets.UTF_8);
  }
}

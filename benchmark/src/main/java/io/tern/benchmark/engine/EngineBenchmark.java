package io.tern.benchmark.engine;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.builder.AbstractFlowNodeBuilder;
import io.tern.benchmark.common.BenchmarkFiles;
import io.tern.benchmark.common.Json;
import io.tern.benchmark.common.Progress;
import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.processor.ProcessorConfig;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.RecordValue;
import io.tern.engine.workflow.processing.WorkflowEngine;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.journal.JournalReader;
import io.tern.journal.JournalRecord;
import io.tern.raft.server.FlushMode;
import io.tern.raft.storage.JournalRaftLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Engine-only throughput on one partition (a single replica, sync flush, no network): a starter
 * creates process instances with a bounded number in flight while a worker activates and completes
 * their jobs, for one-task and ten-task processes, with batch processing on and off. Prints process
 * instances per second and records written per instance.
 */
public final class EngineBenchmark {
  private static final Duration TIMEOUT = Duration.ofMinutes(10);
  private static final String JOB_TYPE = "bench";

  private final EngineOptions options;
  private final Progress progress = new Progress();
  private final Map<Long, CompletableFuture<byte[]>> waiting = new ConcurrentHashMap<>();
  private final AtomicLong nextRequest = new AtomicLong(1);
  private final AtomicLong jobsCompleted = new AtomicLong();

  private EngineBenchmark(EngineOptions options) {
    this.options = options;
  }

  public static int run(String[] args) throws Exception {
    if (System.getProperty("org.slf4j.simpleLogger.defaultLogLevel") == null) {
      System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    }
    EngineOptions options = EngineOptions.parse(args);
    if (options == null) {
      return 0;
    }
    List<Map<String, Object>> results = new ArrayList<>();
    int exit =
        BenchmarkFiles.runInScratch(
            options.dataParentDir(),
            "engine-bench-",
            2L << 30,
            root -> {
              EngineBenchmark benchmark = new EngineBenchmark(options);
              for (int tasks : options.tasks()) {
                for (boolean batch : options.batching()) {
                  results.add(
                      benchmark.measure(tasks, batch, root.resolve("t" + tasks + "-" + batch)));
                }
              }
            });
    if (exit != 0) {
      return exit;
    }
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "%-6s %-17s %12s %14s %10s%n",
        "tasks",
        "batch processing",
        "instances",
        "instances/s",
        "records");
    for (Map<String, Object> r : results) {
      System.out.printf(
          Locale.ROOT,
          "%-6s %-17s %12d %14.0f %10.1f%n",
          r.get("tasksPerProcess"),
          r.get("batchProcessing"),
          r.get("instances"),
          (double) r.get("instancesPerSecond"),
          (double) r.get("recordsPerInstance"));
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("flushMode", "sync");
    json.put("results", results);
    Json.write(options.jsonOut(), json);
    System.out.println("JSON results: " + options.jsonOut().toAbsolutePath());
    return 0;
  }

  private Map<String, Object> measure(int tasks, boolean batch, Path directory) throws Exception {
    ProcessorConfig config =
        ProcessorConfig.defaults()
            .withMaxCommandsInBatch(batch ? ProcessorConfig.DEFAULT_MAX_COMMANDS_IN_BATCH : 1);
    jobsCompleted.set(0);
    try (SingleMemberPartition broker =
        new SingleMemberPartition(
            directory,
            FlushMode.SYNC,
            config,
            WorkflowEngine::create,
            (streamId, requestId, answer) -> answered(requestId, answer))) {
      broker.awaitProcessing(TIMEOUT);
      deploy(broker, tasks);
      int instances = options.instances();
      long totalJobs = (long) instances * tasks;
      Thread worker = new Thread(() -> work(broker, totalJobs), "bench-worker");
      long startNs = System.nanoTime();
      worker.start();
      Semaphore inFlight = new Semaphore(options.window());
      for (int i = 0; i < instances; i++) {
        inFlight.acquire();
        ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
        creation.bpmnProcessId = "bench";
        send(broker, CreationIntent.CREATE, -1, creation)
            .whenComplete((answer, error) -> inFlight.release());
      }
      worker.join(TIMEOUT.toMillis());
      // The last completions' follow-ups (the processes completing) may still be under way.
      long[] counts = countRecords(broker);
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (counts[1] < instances && System.nanoTime() < deadline) {
        Thread.sleep(20);
        counts = countRecords(broker);
      }
      double seconds = (System.nanoTime() - startNs) / 1e9;
      if (counts[1] != instances) {
        throw new IllegalStateException(
            counts[1] + " of " + instances + " instances completed; the run is not valid");
      }
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("tasksPerProcess", tasks);
      result.put("batchProcessing", batch ? "on (100)" : "off (1)");
      result.put("instances", instances);
      result.put("seconds", seconds);
      result.put("instancesPerSecond", instances / seconds);
      result.put("recordsPerInstance", counts[0] / (double) instances);
      progress.log(
          "%d task(s), batch processing %s: %d instances in %.2f s = %.0f/s, %.1f records each",
          tasks,
          batch ? "on" : "off",
          instances,
          seconds,
          instances / seconds,
          counts[0] / (double) instances);
      return result;
    }
  }

  private void deploy(SingleMemberPartition broker, int tasks) throws Exception {
    AbstractFlowNodeBuilder<?, ?> builder = Bpmn.createExecutableProcess("bench").startEvent();
    for (int t = 1; t <= tasks; t++) {
      builder = builder.serviceTask("task-" + t, s -> s.zeebeJobType(JOB_TYPE));
    }
    byte[] xml = Bpmn.convertToString(builder.endEvent().done()).getBytes(StandardCharsets.UTF_8);
    DeploymentValue deployment = new DeploymentValue();
    deployment.resources.add(new DeploymentValue.Resource("bench.bpmn", xml));
    send(broker, DeploymentIntent.CREATE, -1, deployment)
        .get(TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /** Activates and completes jobs until {@code totalJobs} completions were answered. */
  private void work(SingleMemberPartition broker, long totalJobs) {
    JobBatchValue request = new JobBatchValue();
    request.type = JOB_TYPE;
    request.worker = "bench";
    request.maxJobsToActivate = options.window();
    request.timeoutMs = TIMEOUT.toMillis();
    JobValue completion = new JobValue();
    try {
      while (jobsCompleted.get() < totalJobs) {
        byte[] answer = send(broker, JobBatchIntent.ACTIVATE, -1, request).get();
        JobBatchValue batch = new JobBatchValue().readFrom(new UnsafeBuffer(answer));
        if (batch.jobKeys.isEmpty()) {
          Thread.sleep(1);
          continue;
        }
        List<CompletableFuture<byte[]>> completions = new ArrayList<>();
        for (long jobKey : batch.jobKeys) {
          completions.add(
              send(broker, JobIntent.COMPLETE, jobKey, completion)
                  .thenApply(
                      bytes -> {
                        jobsCompleted.incrementAndGet();
                        return bytes;
                      }));
        }
        // Wait for this batch's completions so the next activation finds the next tasks' jobs.
        CompletableFuture.allOf(completions.toArray(CompletableFuture[]::new)).get();
      }
    } catch (Exception e) {
      throw new IllegalStateException("the worker failed", e);
    }
  }

  private CompletableFuture<byte[]> send(
      SingleMemberPartition broker, Intent intent, long key, RecordValue value) {
    long requestId = nextRequest.getAndIncrement();
    CompletableFuture<byte[]> answer = new CompletableFuture<>();
    waiting.put(requestId, answer);
    while (true) {
      try {
        broker.partition().intake().write(0, requestId, intent, key, value);
        return answer;
      } catch (LogStreamWriter.NotWritableException e) {
        // The proposal queue is full: back off without taking a core from the engine.
        java.util.concurrent.locks.LockSupport.parkNanos(100_000);
      }
    }
  }

  private void answered(long requestId, LoggedRecord answer) {
    CompletableFuture<byte[]> future = waiting.remove(requestId);
    if (future == null) {
      return;
    }
    if (answer.rejectionType() != io.tern.engine.record.sbe.RejectionType.NONE) {
      future.completeExceptionally(
          new IllegalStateException("rejected: " + answer.rejectionReason()));
      return;
    }
    byte[] bytes = new byte[answer.value().capacity()];
    answer.value().getBytes(0, bytes);
    future.complete(bytes);
  }

  /** Records in the log, and completed process instances. */
  private static long[] countRecords(SingleMemberPartition broker) {
    long records = 0;
    long completedProcesses = 0;
    RecordBatch batch = new RecordBatch();
    ProcessInstanceValue value = new ProcessInstanceValue();
    long commit = broker.partition().raft().commitIndex();
    try (JournalReader reader = broker.partition().raft().journal().openReader()) {
      while (reader.hasNext() && reader.getNextIndex() <= commit) {
        JournalRecord entry = reader.next();
        if (!JournalRaftLog.isApplicationEntry(entry.data())) {
          continue;
        }
        int header = JournalRaftLog.HEADER_LENGTH;
        batch.wrap(entry.data(), header, entry.data().capacity() - header);
        while (batch.hasNext()) {
          LoggedRecord record = batch.next();
          records++;
          if (record.intent() == ProcessInstanceIntent.ELEMENT_COMPLETED
              && value.<ProcessInstanceValue>readFrom(record.value()).elementType
                  == BpmnElementType.PROCESS) {
            completedProcesses++;
          }
        }
      }
    }
    return new long[] {records, completedProcesses};
  }
}

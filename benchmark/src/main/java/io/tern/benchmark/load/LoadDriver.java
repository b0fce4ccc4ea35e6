package io.tern.benchmark.load;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ClientStatusException;
import io.camunda.client.api.command.CreateProcessInstanceCommandStep1;
import io.camunda.client.api.command.CreateProcessInstanceCommandStep1.CreateProcessInstanceCommandStep3;
import io.camunda.client.api.command.ProblemException;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.worker.JobClient;
import io.camunda.client.api.worker.JobWorker;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.builder.AbstractFlowNodeBuilder;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.tern.engine.record.Keys;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The starter and the worker of a load run, with the official client: deploys a process of N
 * service tasks, completes its jobs, and creates instances either in a closed loop (a fixed number
 * of instances in flight) or in an open loop (a fixed rate, whatever the answers).
 *
 * <p>An instance is in flight from its create until it ends: with {@code withResult}, until the
 * create's answer (the instance's result); without, until the completion of its last job is
 * acknowledged (the worker reads the create's send time from a variable). A create refused with
 * RESOURCE_EXHAUSTED ends the instance's turn at once; in the closed loop its slot sends again
 * after {@code backoff}, as an application backing off would.
 */
public final class LoadDriver implements AutoCloseable {
  static final String PROCESS_ID = "load-benchmark";

  /** The start of every driver's job type. */
  static final String JOB_TYPE = "load-benchmark-task";

  /** The variable carrying the create's intended send time ({@link System#nanoTime}). */
  static final String SENT_AT = "loadSentAtNs";

  /**
   * The process the instances run: {@code bpmn} gives it for a job type, which every service task
   * gets and the driver's worker completes; {@code lastTaskId} ends an instance that is not
   * awaited.
   */
  record Model(String processId, Function<String, byte[]> bpmn, String lastTaskId) {
    /** start, then {@code tasks} service tasks, then end. */
    static Model tasks(int tasks) {
      return new Model(PROCESS_ID, jobType -> processXml(tasks, jobType), "task-" + tasks);
    }
  }

  /**
   * What each instance does. {@code rest}: its create goes over the REST API (the client's
   * restAddress) rather than gRPC; the worker and the deployment stay on gRPC.
   */
  public record Workload(
      Model model,
      int payloadBytes,
      boolean withResult,
      boolean streaming,
      int workerCapacity,
      Duration completionDelay,
      Duration requestTimeout,
      boolean rest) {
    /** Instances of {@code model}, created over gRPC. */
    Workload(
        Model model,
        int payloadBytes,
        boolean withResult,
        boolean streaming,
        int workerCapacity,
        Duration completionDelay,
        Duration requestTimeout) {
      this(
          model,
          payloadBytes,
          withResult,
          streaming,
          workerCapacity,
          completionDelay,
          requestTimeout,
          false);
    }

    /** Instances of start, {@code tasks} service tasks, end. */
    public Workload(
        int tasks,
        int payloadBytes,
        boolean withResult,
        boolean streaming,
        int workerCapacity,
        Duration completionDelay,
        Duration requestTimeout) {
      this(
          Model.tasks(tasks),
          payloadBytes,
          withResult,
          streaming,
          workerCapacity,
          completionDelay,
          requestTimeout,
          false);
    }

    /** The same, with its creates over REST ({@code true}) or gRPC. */
    Workload overRest(boolean overRest) {
      return new Workload(
          model,
          payloadBytes,
          withResult,
          streaming,
          workerCapacity,
          completionDelay,
          requestTimeout,
          overRest);
    }
  }

  private final CamundaClient client;
  private final Workload workload;
  private final LoadStats stats;
  private final Consumer<String> errors;
  private final String payload;
  private final String lastTaskId;
  private final ScheduledExecutorService timer;
  private final AtomicLong outstanding = new AtomicLong();
  private final String jobType;

  /**
   * Instances created without result and not ended yet (true), or ended before their create's
   * answer came (false): whichever of the two comes second removes the key.
   */
  private final Map<Long, Boolean> running = new ConcurrentHashMap<>();

  private volatile Semaphore window; // the closed loop's, else null
  private volatile boolean stopped;
  private JobWorker worker;
  private long processDefinitionKey;

  /**
   * @param errors told about failures other than refusals (the caller decides how many to show)
   */
  public LoadDriver(
      CamundaClient client, Workload workload, LoadStats stats, Consumer<String> errors) {
    this.client = client;
    this.workload = workload;
    this.stats = stats;
    this.errors = errors;
    this.payload = "x".repeat(workload.payloadBytes());
    this.lastTaskId = workload.model().lastTaskId();
    this.jobType = JOB_TYPE + "-" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "load-timer");
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Deploys the process with a job type of this driver's own, opens the worker, and waits until
   * every partition has the deployment ({@link Deployments}).
   *
   * <p>A driver of an earlier run on the same client may still hold a job stream for a moment after
   * it closed: with a shared job type, its worker could take and complete this run's jobs unseen by
   * this driver. Instances are created by this deployment's key, so that none starts an earlier
   * driver's version of the process.
   */
  public void start() {
    worker =
        client
            .newWorker()
            .jobType(jobType)
            .handler(this::handle)
            .maxJobsActive(workload.workerCapacity())
            .streamEnabled(workload.streaming())
            .open();
    processDefinitionKey =
        Deployments.deployEverywhere(
            client, workload.model().processId(), workload.model().bpmn().apply(jobType));
  }

  /** start, then {@code tasks} service tasks of {@code jobType}, then end. */
  static byte[] processXml(int tasks, String jobType) {
    AbstractFlowNodeBuilder<?, ?> flow = Bpmn.createExecutableProcess(PROCESS_ID).startEvent();
    for (int i = 1; i <= tasks; i++) {
      flow = flow.serviceTask("task-" + i, task -> task.zeebeJobType(jobType));
    }
    return Bpmn.convertToString(flow.endEvent().done()).getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Keeps {@code inFlight} instances in flight until {@code untilNs} ({@link System#nanoTime}),
   * then returns (the instances still in flight go on; see {@link #awaitOutstanding}).
   */
  public void closedLoop(int inFlight, long untilNs, Duration backoff) throws InterruptedException {
    Semaphore slots = new Semaphore(inFlight);
    window = slots;
    try {
      while (System.nanoTime() < untilNs && !stopped) {
        if (!slots.tryAcquire(10, TimeUnit.MILLISECONDS)) {
          continue;
        }
        create(System.nanoTime(), backoff);
      }
    } finally {
      window = null; // instances ending from now on free no slot
    }
  }

  /**
   * Sends {@code perSecond} creates a second until {@code untilNs}, on schedule whatever the
   * answers; each latency counts from the create's scheduled time, so a stalled sender cannot hide
   * a slow system.
   */
  public void openLoop(double perSecond, long untilNs) {
    long periodNs = (long) (1e9 / perSecond);
    long startNs = System.nanoTime();
    for (long i = 0; ; i++) {
      long dueNs = startNs + i * periodNs;
      if (dueNs >= untilNs || stopped) {
        return;
      }
      long waitNs = dueNs - System.nanoTime();
      if (waitNs > 0) {
        LockSupport.parkNanos(waitNs);
      }
      create(dueNs, Duration.ZERO);
    }
  }

  /**
   * Ends a loop running in another thread at its next create, for a run whose length is not known
   * when it starts (a cluster change under load lasts as long as the change).
   */
  public void stop() {
    stopped = true;
  }

  /** Waits until every instance sent has ended, been refused or failed; false on timeout. */
  public boolean awaitOutstanding(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (outstanding.get() > 0) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  long outstanding() {
    return outstanding.get();
  }

  /** Instances created without result whose end was not seen yet (to look into what is stuck). */
  List<Long> runningInstances() {
    List<Long> keys = new ArrayList<>();
    running.forEach(
        (key, created) -> {
          if (created) {
            keys.add(key);
          }
        });
    return keys;
  }

  private void create(long sentNs, Duration backoff) {
    stats.sent();
    outstanding.incrementAndGet();
    Map<String, Object> variables = new HashMap<>(4);
    variables.put("payload", payload);
    variables.put(SENT_AT, sentNs);
    CreateProcessInstanceCommandStep1 create = client.newCreateInstanceCommand();
    if (workload.rest()) {
      create = create.useRest();
    }
    CreateProcessInstanceCommandStep3 command =
        create.processDefinitionKey(processDefinitionKey).variables(variables);
    if (workload.withResult()) {
      command
          .withResult()
          .requestTimeout(workload.requestTimeout())
          .send()
          .whenComplete(
              (result, error) -> {
                if (error == null) {
                  ended(sentNs, result.getProcessInstanceKey());
                } else {
                  notCreated(sentNs, error, backoff);
                }
              });
    } else {
      command
          .requestTimeout(workload.requestTimeout())
          .send()
          .whenComplete(
              (created, error) -> {
                if (error == null) {
                  stats.created(System.nanoTime() - sentNs); // it ends with its last job
                  running.merge(created.getProcessInstanceKey(), true, (ended, again) -> null);
                } else {
                  notCreated(sentNs, error, backoff);
                }
              });
    }
  }

  /** The instance {@code instanceKey} ended (its partition is in its key, as in Zeebe). */
  private void ended(long sentNs, long instanceKey) {
    stats.ended(System.nanoTime() - sentNs, Keys.partitionOf(instanceKey));
    finished(Duration.ZERO);
  }

  private void notCreated(long sentNs, Throwable error, Duration backoff) {
    if (statusOf(error) == Status.Code.RESOURCE_EXHAUSTED) {
      stats.refused(System.nanoTime() - sentNs);
      finished(backoff);
    } else {
      Status.Code code = statusOf(error);
      stats.failed(code == null ? rootOf(error).getClass().getSimpleName() : code.name());
      errors.accept("instance failed: " + describe(error));
      finished(Duration.ZERO);
    }
  }

  /** The instance's turn is over: frees its slot of the closed loop, after {@code delay}. */
  private void finished(Duration delay) {
    outstanding.decrementAndGet();
    Semaphore slots = window;
    if (slots == null) {
      return;
    }
    if (delay.isZero()) {
      slots.release();
    } else {
      Runnable release = slots::release;
      timer.schedule(release, delay.toNanos(), TimeUnit.NANOSECONDS);
    }
  }

  private void handle(JobClient jobClient, ActivatedJob job) {
    if (workload.completionDelay().isZero()) {
      complete(jobClient, job);
    } else {
      timer.schedule(
          () -> complete(jobClient, job),
          workload.completionDelay().toNanos(),
          TimeUnit.NANOSECONDS);
    }
  }

  private void complete(JobClient jobClient, ActivatedJob job) {
    boolean endsInstance = !workload.withResult() && job.getElementId().equals(lastTaskId);
    long sentNs = endsInstance ? ((Number) job.getVariable(SENT_AT)).longValue() : 0;
    jobClient
        .newCompleteCommand(job)
        .send()
        .whenComplete(
            (done, error) -> {
              if (error != null) {
                errors.accept("job completion failed: " + describe(error));
              }
              if (!endsInstance) {
                return;
              }
              if (error == null) {
                running.merge(job.getProcessInstanceKey(), false, (created, ended) -> null);
                ended(sentNs, job.getProcessInstanceKey());
              } else {
                stats.failed();
                finished(Duration.ZERO);
              }
            });
  }

  /**
   * The gRPC status an error from the client carries, or null; a REST problem's HTTP status as the
   * gRPC code Camunda maps it from (429: RESOURCE_EXHAUSTED, ...).
   */
  public static Status.Code statusOf(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof ClientStatusException status) {
        return status.getStatusCode();
      }
      if (cause instanceof ProblemException problem) {
        return ofHttpStatus(problem.code());
      }
      if (cause instanceof StatusRuntimeException status) {
        return status.getStatus().getCode();
      }
    }
    return null;
  }

  static Status.Code ofHttpStatus(int httpStatus) {
    return switch (httpStatus) {
      case 400 -> Status.Code.INVALID_ARGUMENT;
      case 401 -> Status.Code.UNAUTHENTICATED;
      case 403 -> Status.Code.PERMISSION_DENIED;
      case 404 -> Status.Code.NOT_FOUND;
      case 409 -> Status.Code.FAILED_PRECONDITION;
      case 429 -> Status.Code.RESOURCE_EXHAUSTED;
      case 503 -> Status.Code.UNAVAILABLE;
      case 504 -> Status.Code.DEADLINE_EXCEEDED;
      default -> Status.Code.UNKNOWN;
    };
  }

  private static Throwable rootOf(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root;
  }

  private static String describe(Throwable error) {
    Throwable shown =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    return shown.toString();
  }

  @Override
  public void close() {
    if (worker != null) {
      worker.close();
    }
    timer.shutdownNow();
  }
}

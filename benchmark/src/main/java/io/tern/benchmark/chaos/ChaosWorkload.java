package io.tern.benchmark.chaos;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.response.ProcessInstanceEvent;
import io.grpc.Status;
import io.tern.benchmark.chaos.Op.Kind;
import io.tern.benchmark.chaos.Op.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;

/**
 * The chaos run's clients: instances created at a fixed rate (each with a unique business id), a
 * message published for each, and polling workers that complete the jobs of both tasks. Every
 * request and its answer go to the {@link History}. Requests go to the gateway of a broker picked
 * at random among the ones the faults left up.
 */
final class ChaosWorkload implements Workload {
  /** What a request may take before its outcome counts as unknown. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

  /** How long a worker holds an activated job before the broker may hand it out again. */
  static final Duration JOB_TIMEOUT = Duration.ofSeconds(15);

  /** How long an activation waits for jobs (long polling). */
  static final Duration ACTIVATION_POLL = Duration.ofSeconds(2);

  /** Creations (with their publications) in flight at most: faults must not pile them up. */
  static final int MAX_IN_FLIGHT = 32;

  static final int MAX_JOBS_PER_ACTIVATION = 32;
  private static final int WORKERS_PER_TASK = 2;

  /** How long a publication is tried again while refused or unanswered. */
  static final Duration PUBLISH_TIME_LIMIT = Duration.ofMinutes(2);

  static final String ALREADY_EXISTS = Status.Code.ALREADY_EXISTS.name();
  static final Duration PUBLISH_RETRY_PAUSE = Duration.ofSeconds(1);

  /** Long enough for any instance to reach its message catch whatever the faults. */
  static final Duration MESSAGE_TTL = Duration.ofHours(1);

  /** Refusals after which the request certainly did not take effect. */
  private static final Set<Status.Code> DEFINITE =
      Set.of(
          Status.Code.RESOURCE_EXHAUSTED,
          Status.Code.INVALID_ARGUMENT,
          Status.Code.NOT_FOUND,
          Status.Code.FAILED_PRECONDITION,
          Status.Code.ALREADY_EXISTS,
          Status.Code.PERMISSION_DENIED,
          Status.Code.UNAUTHENTICATED);

  private final List<CamundaClient> clients;
  private final IntPredicate usable;
  private final History history;
  private final double rate;
  private final AtomicBoolean creating = new AtomicBoolean();
  private final AtomicBoolean working = new AtomicBoolean();
  private final AtomicLong created = new AtomicLong();
  private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
  private final ExecutorService requests = Executors.newFixedThreadPool(MAX_IN_FLIGHT);
  private final List<Thread> threads = new ArrayList<>();

  /**
   * @param clients one per broker, by node id
   * @param usable whether a broker's gateway may be used now (not killed or paused)
   */
  ChaosWorkload(List<CamundaClient> clients, IntPredicate usable, History history, double rate) {
    this.clients = clients;
    this.usable = usable;
    this.history = history;
    this.rate = rate;
  }

  @Override
  public void start() {
    creating.set(true);
    working.set(true);
    threads.add(started(new Thread(this::create, "chaos-creator")));
    for (String task : List.of(ChaosProcess.TASK_A, ChaosProcess.TASK_B)) {
      for (int i = 0; i < WORKERS_PER_TASK; i++) {
        threads.add(started(new Thread(() -> work(task), "chaos-" + task + "-" + i)));
      }
    }
  }

  private static Thread started(Thread thread) {
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  /** Instances created so far (any outcome). */
  @Override
  public long created() {
    return created.get();
  }

  /** Stops creating; the workers go on, so that the instances can end. */
  @Override
  public void stopCreating() throws InterruptedException {
    creating.set(false);
    threads.get(0).join();
    inFlight.acquire(MAX_IN_FLIGHT); // the last creations and publications answered
    inFlight.release(MAX_IN_FLIGHT);
  }

  private void create() {
    long periodNs = (long) (1e9 / rate);
    long next = System.nanoTime();
    while (creating.get()) {
      long waitNs = next - System.nanoTime();
      if (waitNs > 0) {
        java.util.concurrent.locks.LockSupport.parkNanos(waitNs);
        continue;
      }
      next += periodNs;
      if (!inFlight.tryAcquire()) {
        continue; // the cluster is not answering: skip, do not pile up
      }
      String biz = "i-" + created.incrementAndGet();
      requests.execute(
          () -> {
            try {
              createOne(biz);
            } finally {
              inFlight.release();
            }
          });
    }
  }

  private void createOne(String biz) {
    long start = history.now();
    Op op = Op.of(Kind.CREATE, Outcome.OK, biz);
    try {
      ProcessInstanceEvent instance =
          call(
              client()
                  .newCreateInstanceCommand()
                  .bpmnProcessId(ChaosProcess.PROCESS_ID)
                  .latestVersion()
                  .variables(Map.of(ChaosProcess.BIZ, biz))
                  .requestTimeout(REQUEST_TIMEOUT)
                  .send());
      history.record(op.withInstance(instance.getProcessInstanceKey()), start);
    } catch (Exception e) {
      Op failed = history.record(failure(op, e), start);
      if (failed.outcome() == Outcome.FAIL) {
        return; // no instance: nothing to publish to
      }
    }
    publish(biz);
  }

  private void publish(String biz) {
    long deadline = System.nanoTime() + PUBLISH_TIME_LIMIT.toNanos();
    for (int attempt = 1; ; attempt++) {
      String publication = biz + "-p" + attempt;
      long start = history.now();
      Op op =
          Op.of(Kind.PUBLISH, Outcome.OK, biz)
              .withVars(Map.of(ChaosProcess.MESSAGE_ID, publication))
              .withDetail("m-" + biz);
      try {
        call(
            client()
                .newPublishMessageCommand()
                .messageName(ChaosProcess.MESSAGE)
                .correlationKey(biz)
                .messageId("m-" + biz) // a retry of a publication that took effect is refused
                .timeToLive(MESSAGE_TTL)
                .variables(Map.of(ChaosProcess.MESSAGE_ID, publication))
                .requestTimeout(REQUEST_TIMEOUT)
                .send());
        history.record(op, start);
        return;
      } catch (Exception e) {
        Op failed = history.record(failure(op, e), start);
        if (ALREADY_EXISTS.equals(failed.error()) || System.nanoTime() > deadline) {
          return; // an earlier attempt took effect, or the cluster refuses for too long
        }
      }
      pause(PUBLISH_RETRY_PAUSE); // refused (backpressure) or no answer: again
    }
  }

  private void work(String task) {
    while (working.get()) {
      long start = history.now();
      List<ActivatedJob> jobs;
      try {
        jobs =
            call(client()
                    .newActivateJobsCommand()
                    .jobType(task)
                    .maxJobsToActivate(MAX_JOBS_PER_ACTIVATION)
                    .timeout(JOB_TIMEOUT)
                    .requestTimeout(ACTIVATION_POLL)
                    .send())
                .getJobs();
      } catch (Exception e) {
        history.record(failure(Op.of(Kind.ACTIVATE, Outcome.OK, null).withJob(0, task), e), start);
        pause(ACTIVATION_POLL); // the gateway is down or slow: not a busy loop
        continue;
      }
      for (ActivatedJob job : jobs) {
        Map<String, String> read = new HashMap<>();
        job.getVariablesAsMap().forEach((name, value) -> read.put(name, String.valueOf(value)));
        history.record(
            Op.of(Kind.ACTIVATE, Outcome.OK, read.get(ChaosProcess.BIZ))
                .withInstance(job.getProcessInstanceKey())
                .withJob(job.getKey(), task)
                .withVars(read),
            start);
      }
      for (ActivatedJob job : jobs) {
        complete(job, task);
      }
    }
  }

  private void complete(ActivatedJob job, String task) {
    Map<String, String> written =
        task.equals(ChaosProcess.TASK_A)
            ? Map.of(ChaosProcess.A_OUT, ChaosProcess.aValue(job.getKey()))
            : Map.of(ChaosProcess.B_OUT, "b-" + job.getKey());
    Op op =
        Op.of(Kind.COMPLETE, Outcome.OK, String.valueOf(job.getVariablesAsMap().get("biz")))
            .withInstance(job.getProcessInstanceKey())
            .withJob(job.getKey(), task)
            .withVars(written);
    long start = history.now();
    try {
      call(
          client()
              .newCompleteCommand(job.getKey())
              .variables(written)
              .requestTimeout(REQUEST_TIMEOUT)
              .send());
      history.record(op, start);
    } catch (Exception e) {
      history.record(failure(op, e), start);
    }
  }

  private CamundaClient client() {
    return client(clients, usable);
  }

  /** A usable broker's client, picked at random; any if none is. */
  static CamundaClient client(List<CamundaClient> clients, IntPredicate usable) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    int first = random.nextInt(clients.size());
    for (int i = 0; i < clients.size(); i++) {
      int node = (first + i) % clients.size();
      if (usable.test(node)) {
        return clients.get(node);
      }
    }
    return clients.get(first);
  }

  static <T> T call(io.camunda.client.api.CamundaFuture<T> future) throws Exception {
    // The client's own deadline is the request timeout; this one is for a gateway that hangs.
    return future.get(REQUEST_TIMEOUT.toMillis() + 5_000, TimeUnit.MILLISECONDS);
  }

  /** The operation as failed: refused if its status says so for certain, else unknown. */
  static Op failure(Op op, Throwable error) {
    if (error instanceof TimeoutException) {
      return new Op(
          0,
          op.kind(),
          0,
          0,
          Outcome.UNKNOWN,
          "TIMEOUT",
          op.biz(),
          op.instanceKey(),
          op.jobKey(),
          op.task(),
          op.vars(),
          op.detail());
    }
    Status.Code code = statusOf(error);
    Outcome outcome = code != null && DEFINITE.contains(code) ? Outcome.FAIL : Outcome.UNKNOWN;
    String described = code != null ? code.name() : error.getClass().getSimpleName();
    return new Op(
        0,
        op.kind(),
        0,
        0,
        outcome,
        described,
        op.biz(),
        op.instanceKey(),
        op.jobKey(),
        op.task(),
        op.vars(),
        op.detail());
  }

  private static Status.Code statusOf(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof io.camunda.client.api.command.ClientStatusException status) {
        return status.getStatusCode();
      }
      if (cause instanceof io.grpc.StatusRuntimeException status) {
        return status.getStatus().getCode();
      }
    }
    return null;
  }

  static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Stops the workers and waits for them. */
  @Override
  public void close() throws InterruptedException {
    creating.set(false);
    working.set(false);
    for (Thread thread : threads) {
      thread.join(REQUEST_TIMEOUT.toMillis() * 3);
    }
    requests.shutdownNow();
    requests.awaitTermination(REQUEST_TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS);
  }
}

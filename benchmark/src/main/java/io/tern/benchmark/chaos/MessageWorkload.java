package io.tern.benchmark.chaos;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ActivatedJob;
import io.tern.benchmark.chaos.MessageProcesses.Way;
import io.tern.benchmark.chaos.Op.Kind;
import io.tern.benchmark.chaos.Op.Outcome;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntPredicate;

/**
 * The message mode's clients: at a fixed rate, the next of the {@link Way}s in turn gets an
 * instance (except the message start event, whose instances the messages start) and one message,
 * both on one of a few correlation keys that many instances share. Every message has its own
 * message id, so a retry of a publication that took effect is refused; it carries that id and its
 * key as variables. A worker per way completes the "took" jobs, whose activations record which
 * instance took which message; one more completes the non-interrupting process's "done" jobs, which
 * read the list of all messages its boundary event took.
 */
final class MessageWorkload implements Workload {
  private final List<CamundaClient> clients;
  private final IntPredicate usable;
  private final History history;
  private final double rate;
  private final int keys;
  private final AtomicBoolean creating = new AtomicBoolean();
  private final AtomicBoolean working = new AtomicBoolean();
  private final AtomicLong created = new AtomicLong();
  private final Semaphore inFlight = new Semaphore(ChaosWorkload.MAX_IN_FLIGHT);
  private final ExecutorService requests =
      Executors.newFixedThreadPool(ChaosWorkload.MAX_IN_FLIGHT);
  private final List<Thread> threads = new ArrayList<>();

  /**
   * @param keys how many correlation keys the instances share
   */
  MessageWorkload(
      List<CamundaClient> clients, IntPredicate usable, History history, double rate, int keys) {
    this.clients = clients;
    this.usable = usable;
    this.history = history;
    this.rate = rate;
    this.keys = keys;
  }

  @Override
  public void start() {
    creating.set(true);
    working.set(true);
    threads.add(started(new Thread(this::create, "msg-creator")));
    for (Way way : Way.values()) {
      threads.add(started(new Thread(() -> work(way.tookJobType()), "msg-" + way.tookJobType())));
    }
    String done = Way.NON_INTERRUPTING.doneJobType();
    threads.add(started(new Thread(() -> work(done), "msg-" + done)));
  }

  private static Thread started(Thread thread) {
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  @Override
  public long created() {
    return created.get();
  }

  @Override
  public void stopCreating() throws InterruptedException {
    creating.set(false);
    threads.get(0).join();
    inFlight.acquire(ChaosWorkload.MAX_IN_FLIGHT);
    inFlight.release(ChaosWorkload.MAX_IN_FLIGHT);
  }

  private void create() {
    long periodNs = (long) (1e9 / rate);
    long next = System.nanoTime();
    while (creating.get()) {
      long waitNs = next - System.nanoTime();
      if (waitNs > 0) {
        LockSupport.parkNanos(waitNs);
        continue;
      }
      next += periodNs;
      if (!inFlight.tryAcquire()) {
        continue; // the cluster is not answering: skip, do not pile up
      }
      long n = created.incrementAndGet();
      Way way = Way.values()[(int) (n % Way.values().length)];
      // Every way on every key in turn, whatever the number of keys.
      String key = "k-" + (n / Way.values().length) % keys;
      requests.execute(
          () -> {
            try {
              createOne(n, way, key);
            } finally {
              inFlight.release();
            }
          });
    }
  }

  private void createOne(long n, Way way, String key) {
    if (way != Way.START) {
      long start = history.now();
      Op op = Op.of(Kind.CREATE, Outcome.OK, key).withVars(Map.of("process", way.processId));
      try {
        long instance =
            ChaosWorkload.call(
                    client()
                        .newCreateInstanceCommand()
                        .bpmnProcessId(way.processId)
                        .latestVersion()
                        .variables(
                            way == Way.NON_INTERRUPTING
                                ? Map.of(
                                    MessageProcesses.KEY, key, MessageProcesses.TAKEN, List.of())
                                : Map.of(MessageProcesses.KEY, key))
                        .requestTimeout(ChaosWorkload.REQUEST_TIMEOUT)
                        .send())
                .getProcessInstanceKey();
        history.record(op.withInstance(instance), start);
      } catch (Exception e) {
        history.record(ChaosWorkload.failure(op, e), start);
        // Published all the same: a message more than instances on a key stays buffered, and
        // messages are what the check is about.
      }
    }
    publish("m-" + n, way, key);
  }

  /** Publishes once: tried again only while the outcome is unknown or refused for load. */
  private void publish(String messageId, Way way, String key) {
    Map<String, String> variables =
        Map.of(MessageProcesses.MESSAGE_ID, messageId, MessageProcesses.MESSAGE_KEY, key);
    long deadline = System.nanoTime() + ChaosWorkload.PUBLISH_TIME_LIMIT.toNanos();
    while (true) {
      long start = history.now();
      Op op =
          Op.of(Kind.PUBLISH, Outcome.OK, key).withVars(variables).withDetail(way.messageName());
      try {
        ChaosWorkload.call(
            client()
                .newPublishMessageCommand()
                .messageName(way.messageName())
                .correlationKey(key)
                .messageId(messageId) // a retry of a publication that took effect is refused
                .timeToLive(ChaosWorkload.MESSAGE_TTL)
                .variables(variables)
                .requestTimeout(ChaosWorkload.REQUEST_TIMEOUT)
                .send());
        history.record(op, start);
        return;
      } catch (Exception e) {
        Op failed = history.record(ChaosWorkload.failure(op, e), start);
        if (ChaosWorkload.ALREADY_EXISTS.equals(failed.error()) || System.nanoTime() > deadline) {
          return; // an earlier attempt took effect, or the cluster refuses for too long
        }
      }
      ChaosWorkload.pause(ChaosWorkload.PUBLISH_RETRY_PAUSE);
    }
  }

  private void work(String jobType) {
    while (working.get()) {
      long start = history.now();
      List<ActivatedJob> jobs;
      try {
        jobs =
            ChaosWorkload.call(
                    client()
                        .newActivateJobsCommand()
                        .jobType(jobType)
                        .maxJobsToActivate(ChaosWorkload.MAX_JOBS_PER_ACTIVATION)
                        .timeout(ChaosWorkload.JOB_TIMEOUT)
                        .requestTimeout(ChaosWorkload.ACTIVATION_POLL)
                        .send())
                .getJobs();
      } catch (Exception e) {
        Op failed = Op.of(Kind.ACTIVATE, Outcome.OK, null).withJob(0, jobType);
        history.record(ChaosWorkload.failure(failed, e), start);
        ChaosWorkload.pause(ChaosWorkload.ACTIVATION_POLL); // not a busy loop
        continue;
      }
      for (ActivatedJob job : jobs) {
        Map<String, String> read = new HashMap<>();
        job.getVariablesAsMap().forEach((name, value) -> read.put(name, String.valueOf(value)));
        history.record(
            Op.of(Kind.ACTIVATE, Outcome.OK, read.get(MessageProcesses.MESSAGE_KEY))
                .withInstance(job.getProcessInstanceKey())
                .withJob(job.getKey(), jobType)
                .withVars(read)
                .withDetail(job.getBpmnProcessId()),
            start);
      }
      for (ActivatedJob job : jobs) {
        complete(job, jobType);
      }
    }
  }

  private void complete(ActivatedJob job, String jobType) {
    Op op =
        Op.of(Kind.COMPLETE, Outcome.OK, null)
            .withInstance(job.getProcessInstanceKey())
            .withJob(job.getKey(), jobType);
    long start = history.now();
    try {
      ChaosWorkload.call(
          client()
              .newCompleteCommand(job.getKey())
              .requestTimeout(ChaosWorkload.REQUEST_TIMEOUT)
              .send());
      history.record(op, start);
    } catch (Exception e) {
      history.record(ChaosWorkload.failure(op, e), start);
    }
  }

  private CamundaClient client() {
    return ChaosWorkload.client(clients, usable);
  }

  @Override
  public void close() throws InterruptedException {
    creating.set(false);
    working.set(false);
    for (Thread thread : threads) {
      thread.join(ChaosWorkload.REQUEST_TIMEOUT.toMillis() * 3);
    }
    requests.shutdownNow();
    requests.awaitTermination(ChaosWorkload.REQUEST_TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS);
  }
}

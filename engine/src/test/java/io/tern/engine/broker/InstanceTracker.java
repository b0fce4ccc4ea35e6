package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ClientStatusException;
import io.camunda.client.api.response.ProcessInstanceEvent;
import io.camunda.client.api.worker.JobWorker;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Creates instances of a two-task process while brokers fail, and checks what a client may rely on:
 * every instance whose creation was acknowledged runs to its end, and no job is completed twice.
 * The second task ("done") proves the first completed even when the first completion's answer was
 * lost with a leader; an instance not seen to complete must then be gone (cancelling it answers
 * NOT_FOUND), and it cannot have vanished instead, since it reached "done". Each create carries a
 * unique tag: an instance seen with a tag another instance already had means one create call ran
 * twice (a client resent it after an answer that wrongly said it was not written).
 */
final class InstanceTracker implements AutoCloseable {
  static final String PROCESS_ID = "two-tasks";

  static final byte[] PROCESS =
      Bpmn.convertToString(
              Bpmn.createExecutableProcess(PROCESS_ID)
                  .startEvent()
                  .serviceTask("work", t -> t.zeebeJobType("work"))
                  .serviceTask("done", t -> t.zeebeJobType("done"))
                  .endEvent()
                  .done())
          .getBytes(StandardCharsets.UTF_8);

  private final CamundaClient client;
  private final Set<Long> acknowledged = ConcurrentHashMap.newKeySet();
  private final Set<Long> reachedDone = ConcurrentHashMap.newKeySet();
  private final Set<Long> completed = ConcurrentHashMap.newKeySet();
  private final Map<Long, AtomicInteger> completionsByJob = new ConcurrentHashMap<>();
  private final Map<String, Set<Long>> instancesByTag = new ConcurrentHashMap<>();
  private final Set<Long> startedWork = ConcurrentHashMap.newKeySet();
  private final AtomicInteger nextTag = new AtomicInteger();
  private final AtomicInteger sentInBackground = new AtomicInteger();
  private final List<JobWorker> workers = new ArrayList<>();

  InstanceTracker(CamundaClient client) {
    this.client = client;
    client.newDeployResourceCommand().addResourceBytes(PROCESS, "two-tasks.bpmn").send().join();
    workers.add(worker("work", startedWork::add, instance -> {}));
    workers.add(worker("done", reachedDone::add, completed::add));
  }

  private JobWorker worker(
      String type,
      java.util.function.Consumer<Long> onActivated,
      java.util.function.Consumer<Long> onCompleted) {
    return client
        .newWorker()
        .jobType(type)
        .handler(
            (jobClient, job) -> {
              Object tag = job.getVariablesAsMap().get("tag");
              if (tag != null) {
                instancesByTag
                    .computeIfAbsent(tag.toString(), t -> ConcurrentHashMap.newKeySet())
                    .add(job.getProcessInstanceKey());
              }
              onActivated.accept(job.getProcessInstanceKey());
              jobClient.newCompleteCommand(job).send().join(); // throws unless acknowledged
              completionsByJob
                  .computeIfAbsent(job.getKey(), key -> new AtomicInteger())
                  .incrementAndGet();
              onCompleted.accept(job.getProcessInstanceKey());
            })
        .timeout(Duration.ofSeconds(3))
        .pollInterval(Duration.ofMillis(100))
        .open();
  }

  /** Creates {@code count} instances; remembers those whose creation was acknowledged. */
  void create(int count) {
    List<CompletableFuture<ProcessInstanceEvent>> sent = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      sent.add(
          client
              .newCreateInstanceCommand()
              .bpmnProcessId(PROCESS_ID)
              .latestVersion()
              .variables(Map.of("tag", "create-" + nextTag.incrementAndGet()))
              .send()
              .toCompletableFuture());
    }
    for (CompletableFuture<ProcessInstanceEvent> instance : sent) {
      try {
        acknowledged.add(instance.get(30, TimeUnit.SECONDS).getProcessInstanceKey());
      } catch (Exception notAcknowledged) {
        // a creation that failed (its leader gone mid-request) promises nothing
      }
    }
  }

  /**
   * Sends {@code count} creates {@code spacing} apart from another thread, so that some are in
   * flight whatever happens meanwhile; the future ends when every answer is in.
   */
  CompletableFuture<Void> createInBackground(int count, Duration spacing) {
    return CompletableFuture.runAsync(
        () -> {
          List<CompletableFuture<ProcessInstanceEvent>> sent = new ArrayList<>();
          for (int i = 0; i < count; i++) {
            sent.add(
                client
                    .newCreateInstanceCommand()
                    .bpmnProcessId(PROCESS_ID)
                    .latestVersion()
                    .variables(Map.of("tag", "create-" + nextTag.incrementAndGet()))
                    .send()
                    .toCompletableFuture());
            sentInBackground.incrementAndGet();
            try {
              Thread.sleep(spacing.toMillis()); // pacing: a duration, the load's rate
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
          }
          for (CompletableFuture<ProcessInstanceEvent> instance : sent) {
            try {
              acknowledged.add(instance.get(60, TimeUnit.SECONDS).getProcessInstanceKey());
            } catch (Exception notAcknowledged) {
              // its outcome is unknown to the client: no promise to check
            }
          }
        });
  }

  /** How many creates {@link #createInBackground} has sent so far. */
  int sentInBackground() {
    return sentInBackground.get();
  }

  int acknowledgedCount() {
    return acknowledged.size();
  }

  /** The instances whose creation was acknowledged so far. */
  Set<Long> acknowledged() {
    return Set.copyOf(acknowledged);
  }

  /** Waits for every acknowledged instance to reach "done", then checks the promises. */
  void assertEveryAcknowledgedInstanceCompleted(Duration timeout) throws InterruptedException {
    awaitOrGoOn(
        timeout,
        () -> reachedDone.containsAll(acknowledged) && completed.containsAll(acknowledged));
    assertThat(reachedDone)
        .as("acknowledged instances that reached 'done'")
        .containsAll(acknowledged);
    for (Long instance : acknowledged) {
      if (!completed.contains(instance)) {
        assertThatThrownBy(() -> client.newCancelInstanceCommand(instance).send().join())
            .as("instance %d reached 'done' and must have ended", instance)
            .isInstanceOfSatisfying(
                ClientStatusException.class,
                e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.NOT_FOUND));
      }
    }
    assertThat(completionsByJob.values())
        .as("completions acknowledged per job")
        .allSatisfy(count -> assertThat(count).hasValue(1));
  }

  /**
   * Waits until every instance that started (acknowledged or not) reached "done", then checks that
   * no create call made two instances.
   */
  void assertNoCreateRanTwice(Duration timeout) throws InterruptedException {
    awaitOrGoOn(timeout, () -> reachedDone.containsAll(startedWork));
    assertThat(reachedDone).as("instances that started reached 'done'").containsAll(startedWork);
    Map<String, Set<Long>> twice = new java.util.TreeMap<>();
    instancesByTag.forEach(
        (tag, instances) -> {
          if (instances.size() > 1) {
            twice.put(tag, instances);
          }
        });
    assertThat(twice).as("create calls that made more than one instance").isEmpty();
    assertThat(instancesByTag).as("tags seen").isNotEmpty();
  }

  @Override
  public void close() {
    workers.forEach(JobWorker::close);
  }

  /**
   * Waits up to {@code timeout} for {@code condition}; if it does not hold by then, goes on: the
   * caller's assertions say what is missing.
   */
  private static void awaitOrGoOn(Duration timeout, Callable<Boolean> condition) {
    try {
      Awaitility.await()
          .atMost(timeout)
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(50))
          .until(condition);
    } catch (ConditionTimeoutException e) {
      // the assertions that follow report it
    }
  }
}

package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A message correlates at most once per process, whichever of the commands between the message's
 * partition (1) and the instances' (2) is lost, and whichever partition's leader changes meanwhile.
 * Each scenario: two instances of one process wait on one correlation key; a message is published
 * and one instance takes it, while some of the commands are lost and a leader may change; once they
 * flow again, a second message must go to the other instance, and each message to one only. The
 * scenarios of one kind of waiting element run one after another on one cluster, each on a
 * correlation key of its own.
 */
class MessageOnceTest extends PartitionsTestBase {
  private static final int MESSAGES = 1;
  private static final int INSTANCES = 2;

  /** What is lost until the scenario lets commands flow again. */
  enum Lost {
    /** Both answers: nothing tells the message partition that the message was taken. */
    TAKEN_AND_DELETE,
    /** The answer "taken" (CORRELATE to the message partition). */
    TAKEN,
    /** The DELETE of the taker's subscription, which names the message it took. */
    DELETE,
    /** The message partition's offer (CORRELATE to the process instance partition). */
    OFFER,
    NOTHING
  }

  /** Whose leader changes while commands are lost. */
  enum LeaderChange {
    NONE,
    MESSAGE_PARTITION,
    INSTANCE_PARTITION
  }

  /** The waiting elements: what they are, and what makes the taker leave once it took. */
  private record Waiting(
      String process, String message, String variable, BpmnModelInstance model) {}

  private final Map<Long, Long> workJobs = new HashMap<>();
  private int scenarios;

  @Test
  void aMessageCatchEventTakesAMessageNoOtherInstanceOfItsProcessGets() {
    everyScenario(
        new Waiting("order", "paid", "orderId", MessageCorrelationTest.waitForPayment()), false);
  }

  @Test
  void anInterruptingBoundaryEventTakesAMessageNoOtherInstanceOfItsProcessGets() {
    everyScenario(
        new Waiting(
            "guard", "ping", "id", MigrateProcessInstanceTest.pinged("guard", "ping", true)),
        false);
  }

  @Test
  void aNonInterruptingBoundaryEventsMessageGoesToNoOtherInstanceWhenItsTaskEndsBeforeTheAnswer() {
    everyScenario(
        new Waiting(
            "guard", "ping", "id", MigrateProcessInstanceTest.pinged("guard", "ping", false)),
        true);
  }

  /**
   * A subscription that stays open takes message 1, then message 2; then an offer of message 1,
   * sent before the message partition heard "taken" and delayed, arrives: it is one it took
   * already, however late, and triggers nothing.
   */
  @Test
  void aLateOfferOfAMessageTakenBeforeTheLastIsNotTakenAgain() {
    cluster.start();
    deployed(
        deploy(
            cluster.leader(1),
            "guard.bpmn",
            xml(MigrateProcessInstanceTest.pinged("guard", "ping", false))));
    await(
        () -> cluster.count(1, DeploymentIntent.FULLY_DISTRIBUTED) == 1,
        "the process on every partition");
    String key = cluster.keyOnPartition(MESSAGES, "late-");
    create(instances(), "guard", "{\"id\": \"" + key + "\"}");
    await(() -> opened(key) == 1, "the subscription to open");
    long first = publish(cluster.leader(MESSAGES), "ping", key, 60_000, "", "").key();
    await(() -> taken(key).size() == 1, "the first message taken");
    await(
        () -> cluster.count(MESSAGES, MessageSubscriptionIntent.CORRELATED) == 1,
        "the message partition to hear it");
    long second = publish(cluster.leader(MESSAGES), "ping", key, 60_000, "", "").key();
    await(() -> takenPerMessage(key).containsKey(second), "the second message taken");
    long answered = offersAnsweredWithoutTaking();
    // Now the first message's offer, late.
    MessageSubscriptionValue late = new MessageSubscriptionValue().copyFrom(taken(key).get(0));
    late.variables = new byte[0];
    cluster.leader(INSTANCES).write(ProcessMessageSubscriptionIntent.CORRELATE, -1, late);
    await(
        () -> offersAnsweredWithoutTaking() > answered,
        "the late offer of the first message to be answered");
    assertThat(takenPerMessage(key))
        .as("each message taken once by the subscription that stayed open")
        .containsOnlyKeys(first, second)
        .allSatisfy((message, times) -> assertThat(times).isOne());
  }

  /**
   * Seeds for {@link #underRandomLossAndLeaderChangesEachMessageGoesToOneInstancePerProcess}: two
   * new ones each run (printed in the test's name), or those of {@code
   * -Dtern.messageOnce.seeds=1,2}.
   */
  static List<Long> seeds() {
    String given = System.getProperty("tern.messageOnce.seeds", "");
    if (!given.isBlank()) {
      return java.util.Arrays.stream(given.split(","))
          .map(String::trim)
          .map(Long::valueOf)
          .toList();
    }
    java.util.Random random = new java.util.Random();
    return List.of(random.nextLong(), random.nextLong());
  }

  /**
   * Three processes wait on one correlation key, three instances each, spread over partitions 2 and
   * 3: a message catch event, an interrupting and a non-interrupting boundary event. Messages are
   * published while 30% of the commands between partitions are lost and leaders change at random.
   * Once healed, each instance of the catch event's and the interrupting event's process takes one
   * message, each message goes to one instance of each process, and nothing more.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void underRandomLossAndLeaderChangesEachMessageGoesToOneInstancePerProcess(long seed) {
    System.out.println(
        "MessageOnceTest seed " + seed + " (again: -Dtern.messageOnce.seeds=" + seed + ")");
    java.util.Random random = new java.util.Random(seed);
    cluster.start();
    List<BpmnModelInstance> models =
        List.of(
            MessageCorrelationTest.waitForPayment(),
            MigrateProcessInstanceTest.pinged("stop", "ping", true),
            MigrateProcessInstanceTest.pinged("guard", "ping", false));
    for (int i = 0; i < models.size(); i++) {
      deployed(deploy(cluster.leader(1), "p" + i + ".bpmn", xml(models.get(i))));
    }
    await(
        () -> cluster.count(1, DeploymentIntent.FULLY_DISTRIBUTED) == 3,
        "the processes on every partition");
    String key = cluster.keyOnPartition(MESSAGES);
    for (int i = 0; i < 3; i++) {
      for (String process : List.of("order", "stop", "guard")) {
        String variable = process.equals("order") ? "orderId" : "id";
        create(cluster.leader(2 + i % 2), process, "{\"" + variable + "\": \"" + key + "\"}");
      }
    }
    await(
        () -> ofKeyEverywhere(ProcessMessageSubscriptionIntent.CREATED, key).size() == 9,
        "nine subscriptions");

    cluster.loseAtRandom(seed, 0.3);
    for (int i = 0; i < 6; i++) {
      publish(cluster.leader(MESSAGES), i % 2 == 0 ? "paid" : "ping", key, 60_000, "", "");
      if (random.nextDouble() < 0.5) {
        int partition = 1 + random.nextInt(PARTITIONS);
        cluster.changeLeader(partition, "seeded-" + i);
      }
    }
    await(
        () -> takenBy(key, "order") == 3 && takenBy(key, "stop") == 3 && takenBy(key, "guard") == 3,
        "seed " + seed + ": each message to one instance of each process");
    cluster.loseAtRandom(seed, 0);
    Map<String, Long> perProcessAndMessage =
        ofKeyEverywhere(ProcessMessageSubscriptionIntent.CORRELATED, key).stream()
            .collect(
                Collectors.groupingBy(
                    took -> took.bpmnProcessId + " took " + took.messageKey,
                    Collectors.counting()));
    assertThat(perProcessAndMessage)
        .as("seed " + seed + ": each message once per process")
        .hasSize(9)
        .allSatisfy((taken, times) -> assertThat(times).as(taken).isOne());
    assertThat(
            ofKeyEverywhere(ProcessMessageSubscriptionIntent.CORRELATED, key).stream()
                .filter(took -> !took.bpmnProcessId.equals("guard"))
                .map(took -> took.processInstanceKey)
                .distinct()
                .count())
        .as("seed " + seed + ": each waiting catch event or interrupting event took one")
        .isEqualTo(6);
  }

  private long takenBy(String key, String process) {
    return ofKeyEverywhere(ProcessMessageSubscriptionIntent.CORRELATED, key).stream()
        .filter(took -> took.bpmnProcessId.equals(process))
        .count();
  }

  /** The subscription events of {@code intent} for {@code key} on both instance partitions. */
  private List<MessageSubscriptionValue> ofKeyEverywhere(Intent intent, String key) {
    List<MessageSubscriptionValue> found = new ArrayList<>(ofKey(2, intent, key));
    found.addAll(ofKey(3, intent, key));
    return found;
  }

  /**
   * Every scenario for {@code waiting}; if {@code leaveAfterTaking}, the taker's task completes as
   * soon as it took the message, before its answer can arrive.
   */
  private void everyScenario(Waiting waiting, boolean leaveAfterTaking) {
    cluster.start();
    deployed(deploy(cluster.leader(1), waiting.process + ".bpmn", xml(waiting.model)));
    await(
        () -> cluster.count(1, DeploymentIntent.FULLY_DISTRIBUTED) == 1,
        "the process on every partition");
    for (Lost lost : Lost.values()) {
      for (LeaderChange change : LeaderChange.values()) {
        scenario(waiting, leaveAfterTaking, lost, change);
      }
    }
  }

  private void scenario(Waiting waiting, boolean leaveAfterTaking, Lost lost, LeaderChange change) {
    String name = waiting.process + ", " + lost + " lost, leader change: " + change;
    String key = cluster.keyOnPartition(MESSAGES, "scenario-" + (scenarios++) + "-");
    List<Long> instances = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      instances.add(
          create(instances(), waiting.process, "{\"" + waiting.variable + "\": \"" + key + "\"}")
              .key());
    }
    await(() -> opened(key) == 2, name + ": both subscriptions to open");
    if (leaveAfterTaking) {
      await(() -> workJobsOf(instances), name + ": both instances' jobs");
    }

    Set<Lost> losing = lose(lost);
    long first = publish(cluster.leader(MESSAGES), waiting.message, key, 60_000, "", "").key();
    if (lost != Lost.OFFER) {
      await(() -> taken(key).size() == 1, name + ": one instance to take the message");
      if (leaveAfterTaking) {
        completeJob(instances(), workJobs.get(taken(key).get(0).processInstanceKey));
      }
    }
    long answeredBefore = offersAnsweredWithoutTaking();
    switch (change) {
      case MESSAGE_PARTITION -> cluster.changeLeader(MESSAGES, "leader-" + scenarios);
      case INSTANCE_PARTITION -> cluster.changeLeader(INSTANCES, "leader-" + scenarios);
      case NONE -> {}
    }
    if (losing.containsAll(EnumSet.of(Lost.TAKEN, Lost.DELETE))) {
      // Nothing told the message partition: it must ask, and hear "taken", not "refused".
      await(
          () -> offersAnsweredWithoutTaking() > answeredBefore,
          name + ": the message partition to offer the message again");
    }
    cluster.releaseAll();
    if (lost == Lost.OFFER) {
      await(() -> taken(key).size() == 1, name + ": one instance to take the message");
      if (leaveAfterTaking) {
        completeJob(instances(), workJobs.get(taken(key).get(0).processInstanceKey));
      }
    }
    long taker = taken(key).get(0).processInstanceKey;
    await(
        () -> closedOnProcessSide(key) == 1 || takenPerMessage(key).containsValue(2L),
        name + ": the taker's subscription to close (or a message taken twice)");

    long second = publish(cluster.leader(MESSAGES), waiting.message, key, 60_000, "", "").key();
    await(
        () -> takenPerMessage(key).containsKey(second) || takenPerMessage(key).containsValue(2L),
        name + ": the other instance's message (or a message taken twice)");
    assertThat(takenPerMessage(key))
        .as(name + ": each message taken by one instance of the process")
        .containsOnlyKeys(first, second)
        .allSatisfy((message, times) -> assertThat(times).isOne());
    assertThat(taken(key).get(1).processInstanceKey).as(name).isNotEqualTo(taker);
  }

  private TestMember instances() {
    return cluster.leader(INSTANCES);
  }

  /** Holds back what {@code lost} names; the kinds of commands it stands for. */
  private Set<Lost> lose(Lost lost) {
    Set<Lost> losing =
        switch (lost) {
          case TAKEN_AND_DELETE -> EnumSet.of(Lost.TAKEN, Lost.DELETE);
          case NOTHING -> EnumSet.noneOf(Lost.class);
          default -> EnumSet.of(lost);
        };
    for (Lost kind : losing) {
      switch (kind) {
        case OFFER -> cluster.hold(ProcessMessageSubscriptionIntent.CORRELATE);
        case TAKEN -> cluster.hold(MessageSubscriptionIntent.CORRELATE);
        case DELETE -> cluster.hold(MessageSubscriptionIntent.DELETE);
        default -> throw new IllegalArgumentException(kind.name());
      }
    }
    return losing;
  }

  /** Whether the "work" jobs of {@code instances} are activated here (their keys kept). */
  private boolean workJobsOf(List<Long> instances) {
    JobBatchValue batch = activate(instances(), "work", 10);
    for (int i = 0; i < batch.jobs.size(); i++) {
      workJobs.put(batch.jobs.get(i).processInstanceKey, batch.jobKeys.get(i));
    }
    return workJobs.keySet().containsAll(instances);
  }

  /** Offers the process instance partition answered with no CORRELATED: refused or taken before. */
  private long offersAnsweredWithoutTaking() {
    return WorkflowTestBase.rejectedCount(
        cluster.logs.get(INSTANCES - 1), ProcessMessageSubscriptionIntent.CORRELATE);
  }

  private long opened(String key) {
    return ofKey(ProcessMessageSubscriptionIntent.CREATED, key).size();
  }

  private long closedOnProcessSide(String key) {
    return ofKey(ProcessMessageSubscriptionIntent.DELETED, key).size();
  }

  /** What the subscriptions on correlation key {@code key} took, in order. */
  private List<MessageSubscriptionValue> taken(String key) {
    return ofKey(ProcessMessageSubscriptionIntent.CORRELATED, key);
  }

  /** How many times each message on correlation key {@code key} was taken. */
  private Map<Long, Long> takenPerMessage(String key) {
    return taken(key).stream()
        .collect(Collectors.groupingBy(took -> took.messageKey, Collectors.counting()));
  }

  /**
   * The instance partition's subscription events of {@code intent} for correlation key {@code key}.
   */
  private List<MessageSubscriptionValue> ofKey(Intent intent, String key) {
    return ofKey(INSTANCES, intent, key);
  }

  private List<MessageSubscriptionValue> ofKey(int partition, Intent intent, String key) {
    List<MessageSubscriptionValue> found = new ArrayList<>();
    for (byte[] value : eventValues(cluster.logs.get(partition - 1), intent)) {
      MessageSubscriptionValue event = new MessageSubscriptionValue();
      event.readFrom(new UnsafeBuffer(value));
      if (event.correlationKey.equals(key)) {
        found.add(event);
      }
    }
    return found;
  }
}

package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.MessageCorrelationIntent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.record.Keys;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.MessageCorrelationValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CorrelateMessage over three partitions: the message is published and offered at once, and the
 * answer names the process instance that took it, on the message's partition or another, or the one
 * a message start event started; NOT_FOUND when nothing takes it, also when the only offer is
 * refused later. After each test every partition replays to its leader's state (the base class).
 */
class CorrelateMessageTest extends PartitionsTestBase {
  private static final int MESSAGES = 1;

  @BeforeEach
  void orderProcessOnEveryPartition() {
    cluster.start();
    deployed(deploy(cluster.leader(1), "order.bpmn", xml(MessageCorrelationTest.waitForPayment())));
    deployed(deploy(cluster.leader(1), "shop.bpmn", xml(startedByOrder())));
    await(
        () -> cluster.count(1, DeploymentIntent.FULLY_DISTRIBUTED) == 2,
        "the processes on every partition");
  }

  private static BpmnModelInstance startedByOrder() {
    return Bpmn.createExecutableProcess("shop")
        .startEvent("ordered")
        .message("order-placed")
        .serviceTask("pack", t -> t.zeebeJobType("pack"))
        .endEvent("end")
        .done();
  }

  private static Answer correlate(TestMember member, String name, String key, String json) {
    MessageCorrelationValue message = new MessageCorrelationValue();
    message.name = name;
    message.correlationKey = key;
    message.variables = json.getBytes(StandardCharsets.UTF_8);
    return member.awaitAnswer(member.send(MessageCorrelationIntent.CORRELATE, -1, message));
  }

  private static MessageCorrelationValue valueOf(Answer answer) {
    return new MessageCorrelationValue().readFrom(new UnsafeBuffer(answer.value()));
  }

  /** An instance of the order process on {@code partition}, waiting for payment {@code key}. */
  private long waitingOn(int partition, String key) {
    long instance =
        create(cluster.leader(partition), "order", "{\"orderId\": \"" + key + "\"}").key();
    assertThat(Keys.partitionOf(instance)).isEqualTo(partition);
    await(
        () -> cluster.count(partition, ProcessMessageSubscriptionIntent.CREATED) >= 1,
        "the subscription to open");
    return instance;
  }

  @Test
  void anInstanceOnTheMessagesPartitionTakesItAndTheAnswerNamesIt() {
    String key = cluster.keyOnPartition(MESSAGES);
    long instance = waitingOn(MESSAGES, key);

    Answer answer = correlate(cluster.leader(MESSAGES), "paid", key, "{\"amount\": 7}");

    assertThat(answer.recordType()).isEqualTo(RecordType.EVENT);
    assertThat(answer.intent()).isEqualTo(MessageCorrelationIntent.CORRELATED);
    MessageCorrelationValue correlated = valueOf(answer);
    assertThat(correlated.processInstanceKey).isEqualTo(instance);
    assertThat(correlated.messageKey).isEqualTo(answer.key());
    JobBatchValue ship = activateWhenAvailable(cluster.leader(MESSAGES), "ship", List.of("amount"));
    assertThat(new String(ship.jobs.get(0).variables, StandardCharsets.UTF_8))
        .isEqualTo("{\"amount\":7}");
    assertThat(cluster.count(MESSAGES, MessageIntent.EXPIRED))
        .as("the message lives for the offer only")
        .isEqualTo(1);
  }

  @Test
  void anInstanceOnAnotherPartitionTakesItAndTheAnswerWaitsForThatPartition() {
    String key = cluster.keyOnPartition(MESSAGES);
    long instance = waitingOn(2, key);

    Answer answer = correlate(cluster.leader(MESSAGES), "paid", key, "{}");

    assertThat(answer.intent()).isEqualTo(MessageCorrelationIntent.CORRELATED);
    assertThat(valueOf(answer).processInstanceKey).isEqualTo(instance);
    assertThat(cluster.count(MESSAGES, MessageCorrelationIntent.CORRELATING))
        .as("pending while partition 2 decided")
        .isEqualTo(1);
    awaitJob(cluster.leader(2), "ship");
  }

  @Test
  void aMessageStartEventStartsAnInstanceAndTheAnswerNamesIt() {
    String key = cluster.keyOnPartition(MESSAGES);

    Answer answer = correlate(cluster.leader(MESSAGES), "order-placed", key, "{\"item\": 3}");

    assertThat(answer.intent()).isEqualTo(MessageCorrelationIntent.CORRELATED);
    long started = valueOf(answer).processInstanceKey;
    assertThat(Keys.partitionOf(started)).isEqualTo(MESSAGES);
    await(
        () ->
            WorkflowTestBase.lifecycle(cluster.logs.get(MESSAGES - 1))
                .contains("pack " + ProcessInstanceIntent.ELEMENT_ACTIVATED),
        "the started instance to reach its task");
    assertThat(cluster.count(MESSAGES, MessageCorrelationIntent.CORRELATING)).isZero();
  }

  @Test
  void nothingWaitingIsNotFoundAndTheMessageIsNotKept() {
    String key = cluster.keyOnPartition(MESSAGES);

    Answer answer = correlate(cluster.leader(MESSAGES), "paid", key, "{}");

    assertThat(answer.rejection()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(answer.reason()).contains("'paid'").contains("'" + key + "'");
    assertThat(cluster.count(MESSAGES, MessageIntent.EXPIRED)).isEqualTo(1);
    // A subscription opened afterwards gets nothing.
    waitingOn(2, key);
    assertThat(cluster.count(MESSAGES, MessageSubscriptionIntent.CORRELATING)).isZero();
  }

  @Test
  void anOfferRefusedBecauseTheElementLeftIsNotFound() {
    BpmnModelInstance guarded =
        Bpmn.createExecutableProcess("guard")
            .startEvent()
            .serviceTask("work", t -> t.zeebeJobType("work"))
            .boundaryEvent(
                "stop", b -> b.message(m -> m.name("stop").zeebeCorrelationKeyExpression("id")))
            .endEvent()
            .moveToActivity("work")
            .endEvent()
            .done();
    deployed(deploy(cluster.leader(1), "guard.bpmn", xml(guarded)));
    await(
        () -> cluster.count(1, DeploymentIntent.FULLY_DISTRIBUTED) == 3,
        "the process on every partition");
    String key = cluster.keyOnPartition(MESSAGES, "guard-");
    create(cluster.leader(2), "guard", "{\"id\": \"" + key + "\"}");
    long work = awaitJob(cluster.leader(2), "work");
    await(
        () -> cluster.count(MESSAGES, MessageSubscriptionIntent.CREATED) == 1,
        "the message side to open");
    // The offer is held; meanwhile the task completes, and its subscription's DELETE is held too.
    cluster.hold(ProcessMessageSubscriptionIntent.CORRELATE);
    cluster.hold(MessageSubscriptionIntent.DELETE);
    long request =
        cluster
            .leader(MESSAGES)
            .send(MessageCorrelationIntent.CORRELATE, -1, correlation("stop", key));
    await(
        () -> cluster.count(MESSAGES, MessageCorrelationIntent.CORRELATING) == 1,
        "the correlation to wait for the offer's answer");
    completeJob(cluster.leader(2), work);
    await(
        () -> cluster.count(2, ProcessMessageSubscriptionIntent.DELETING) == 1,
        "the subscription to close");
    cluster.releaseAll();

    Answer answer = cluster.leader(MESSAGES).awaitAnswer(request);

    assertThat(answer.rejection()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(answer.intent()).isEqualTo(MessageCorrelationIntent.CORRELATE);
    assertThat(cluster.count(MESSAGES, MessageCorrelationIntent.NOT_CORRELATED)).isEqualTo(1);
    assertThat(cluster.count(MESSAGES, MessageCorrelationIntent.CORRELATED)).isZero();
    assertThat(WorkflowTestBase.lifecycle(cluster.logs.get(1)))
        .doesNotContain("stop " + ProcessInstanceIntent.ELEMENT_ACTIVATED);
  }

  /**
   * The message partition's leader changes while the offer is on its way: the new leader, which
   * replayed the pending correlation, logs its outcome when the answer comes (its client's request
   * went with the old leader).
   */
  @Test
  void aNewLeaderOfTheMessagesPartitionLogsTheOutcomeOfAPendingCorrelation() {
    String key = cluster.keyOnPartition(MESSAGES);
    long instance = waitingOn(2, key);
    cluster.hold(MessageSubscriptionIntent.CORRELATE); // the answer "taken"
    cluster.leader(MESSAGES).send(MessageCorrelationIntent.CORRELATE, -1, correlation("paid", key));
    await(
        () -> cluster.count(2, ProcessMessageSubscriptionIntent.CORRELATED) == 1,
        "the instance to take the message");

    cluster.changeLeader(MESSAGES, "second");
    cluster.releaseAll();

    await(
        () -> cluster.count(MESSAGES, MessageCorrelationIntent.CORRELATED) == 1,
        "the new leader to log the outcome");
    List<byte[]> correlated =
        WorkflowTestBase.eventValues(
            cluster.logs.get(MESSAGES - 1), MessageCorrelationIntent.CORRELATED);
    assertThat(
            new MessageCorrelationValue()
                .<MessageCorrelationValue>readFrom(new UnsafeBuffer(correlated.get(0)))
                .processInstanceKey)
        .isEqualTo(instance);
  }

  private static MessageCorrelationValue correlation(String name, String key) {
    MessageCorrelationValue message = new MessageCorrelationValue();
    message.name = name;
    message.correlationKey = key;
    return message;
  }
}

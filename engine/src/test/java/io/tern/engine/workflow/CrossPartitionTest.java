package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.processor.InMemoryLogStorage;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.DeploymentDistributionIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.protocol.ResourceDeletionIntent;
import io.tern.engine.protocol.SignalIntent;
import io.tern.engine.protocol.SignalSubscriptionIntent;
import io.tern.engine.record.Keys;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Messages across three partitions: the instance lives on one, the message on its correlation
 * key's, and they correlate through commands on each other's logs, even when some of those are
 * lost.
 */
class CrossPartitionTest extends PartitionsTestBase {
  private void start() {
    cluster.start();
  }

  /** A correlation key whose messages live on {@code partition}. */
  private String keyOnPartition(int partition) {
    return cluster.keyOnPartition(partition);
  }

  /** Deploys the order process on partition 1 and waits until every partition has it. */
  private void deployEverywhere() {
    deployed(deploy(cluster.leader(1), "order.bpmn", xml(MessageCorrelationTest.waitForPayment())));
    awaitFullDistribution();
  }

  @Test
  void aDeploymentMadeOnPartitionOneReachesEveryPartitionEvenIfACopyIsLost() {
    start();
    cluster.dropNext.set(1); // the copy to partition 2
    DeploymentValue.Process process =
        deployed(
            deploy(cluster.leader(1), "order.bpmn", xml(MessageCorrelationTest.waitForPayment())));
    awaitFullDistribution();
    for (int partition = 1; partition <= PARTITIONS; partition++) {
      Answer created = create(cluster.leader(partition), "order", "{\"orderId\": \"x\"}");
      assertThat(created.rejection()).as("partition %d", partition).isEqualTo(RejectionType.NONE);
      assertThat(Keys.partitionOf(created.key())).isEqualTo(partition);
      assertThat(
              new ProcessInstanceCreationValue()
                  .<ProcessInstanceCreationValue>readFrom(new UnsafeBuffer(created.value()))
                  .processDefinitionKey)
          .as("the same key everywhere")
          .isEqualTo(process.processDefinitionKey());
    }
    assertThat(cluster.dropped.get()).isEqualTo(1);
    assertThat(cluster.count(2, DeploymentIntent.DISTRIBUTED)).isEqualTo(1);

    Answer elsewhere =
        deploy(cluster.leader(2), "order.bpmn", xml(MessageCorrelationTest.waitForPayment()));
    assertThat(elsewhere.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(elsewhere.reason()).contains("partition 1");
  }

  @Test
  void aDeploymentIsFullyDistributedThoughAPartitionsAcknowledgementIsLost() {
    start();
    // Every partition takes its copy, but the acknowledgements are lost: the copies are sent
    // again, and a partition that took its copy before changes nothing, yet must answer again.
    cluster.hold(DeploymentDistributionIntent.COMPLETE);
    deployed(deploy(cluster.leader(1), "order.bpmn", xml(MessageCorrelationTest.waitForPayment())));
    await(
        () ->
            cluster.count(2, DeploymentIntent.DISTRIBUTED) == 1
                && cluster.count(3, DeploymentIntent.DISTRIBUTED) == 1
                && WorkflowTestBase.rejectedCount(cluster.logs.get(1), DeploymentIntent.DISTRIBUTE)
                    >= 1,
        "both copies taken, and one sent again");
    cluster.releaseAll();
    awaitFullDistribution();
    assertThat(cluster.count(2, DeploymentIntent.DISTRIBUTED))
        .as("a copy sent again is taken once")
        .isEqualTo(1);
  }

  private void awaitFullDistribution() {
    await(
        () -> cluster.count(1, DeploymentIntent.FULLY_DISTRIBUTED) == 1,
        "the deployment to reach every partition");
  }

  @Test
  void aMessageStartsAnInstanceOnTheMessagesPartition() {
    start();
    deployed(
        deploy(
            cluster.leader(1),
            "placed.bpmn",
            xml(
                io.camunda.zeebe.model.bpmn.Bpmn.createExecutableProcess("placed-order")
                    .startEvent("placed")
                    .message("placed")
                    .serviceTask("ship", t -> t.zeebeJobType("ship"))
                    .done())));
    awaitFullDistribution();
    String key = keyOnPartition(3);

    publish(cluster.leader(3), "placed", key, 0, "", "");
    awaitJob(cluster.leader(3), "ship");
    assertThat(activate(cluster.leader(1), "ship", 1).jobs).isEmpty();
    assertThat(activate(cluster.leader(2), "ship", 1).jobs).isEmpty();
  }

  @Test
  void anInstanceOnOnePartitionGetsAMessagePublishedOnAnother() {
    start();
    TestMember instances = cluster.leader(1);
    String key = keyOnPartition(3);
    deployEverywhere();
    long instance = create(instances, "order", "{\"orderId\": \"" + key + "\"}").key();
    assertThat(Keys.partitionOf(instance)).isEqualTo(1);
    await(
        () -> cluster.count(3, MessageSubscriptionIntent.CREATED) == 1,
        "the subscription on the message's partition");

    Answer wrongPartition = publish(cluster.leader(2), "paid", key, 0, "", "");
    assertThat(wrongPartition.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(wrongPartition.reason()).contains("belongs to partition 3");

    assertThat(publish(cluster.leader(3), "paid", key, 10_000, "", "{\"paid\": true}").intent())
        .isEqualTo(MessageIntent.PUBLISHED);
    awaitJob(instances, "ship");
    await(
        () -> cluster.count(3, MessageSubscriptionIntent.CORRELATED) == 1,
        "the message partition to learn the message was taken");
    assertThat(WorkflowTestBase.count(cluster.logs.get(0), ProcessInstanceIntent.ELEMENT_COMPLETED))
        .isPositive();
  }

  @Test
  void lostCommandsBetweenPartitionsAreSentAgainUntilAcknowledged() {
    start();
    TestMember instances = cluster.leader(2);
    String key = keyOnPartition(1);
    deployEverywhere();
    cluster.dropNext.set(2); // the subscription's CREATE, then whatever follows
    create(instances, "order", "{\"orderId\": \"" + key + "\"}");
    // The instance is answered before its subscription's CREATE is sent: wait for that drop.
    await(() -> cluster.dropped.get() >= 1, "the subscription's CREATE dropped");
    publish(cluster.leader(1), "paid", key, 60_000, "", "");
    cluster.dropNext.set(1);
    awaitJob(instances, "ship");
    assertThat(cluster.dropped.get()).isGreaterThanOrEqualTo(2);
    await(
        () -> cluster.count(1, MessageSubscriptionIntent.CORRELATED) == 1,
        "the correlation to be acknowledged");
    assertThat(cluster.count(1, MessageSubscriptionIntent.CREATED))
        .as("a CREATE sent again does not create twice")
        .isEqualTo(1);
  }

  @Test
  void aSubscriptionMovedToAnotherProcessIdWaitsUntilOpenAndTheMessagesPartitionFollows() {
    start();
    TestMember instances = cluster.leader(2);
    String key = keyOnPartition(1);
    deployEverywhere();
    long settle =
        deployed(
                deploy(
                    cluster.leader(1),
                    "settle.bpmn",
                    xml(
                        io.camunda.zeebe.model.bpmn.Bpmn.createExecutableProcess("settle")
                            .startEvent()
                            .intermediateCatchEvent(
                                "payment-b",
                                e ->
                                    e.message(
                                        m ->
                                            m.name("paid")
                                                .zeebeCorrelationKeyExpression("orderId")))
                            .serviceTask("settle-task", t -> t.zeebeJobType("settle"))
                            .endEvent()
                            .done())))
            .processDefinitionKey();
    await(
        () -> cluster.count(1, DeploymentIntent.FULLY_DISTRIBUTED) == 2,
        "settle on every partition");

    cluster.dropNext.set(Integer.MAX_VALUE); // nothing reaches another partition until released
    long instance = create(instances, "order", "{\"orderId\": \"" + key + "\"}").key();
    await(
        () -> cluster.count(2, ProcessMessageSubscriptionIntent.CREATING) == 1,
        "the subscription's CREATE, held");
    Answer opening =
        MigrateProcessInstanceTest.migrate(instances, instance, settle, "payment", "payment-b");
    assertThat(opening.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(opening.reason()).contains("still being opened").contains("retry");
    cluster.dropNext.set(0);
    await(
        () -> cluster.count(2, ProcessMessageSubscriptionIntent.CREATED) == 1,
        "the subscription to open");

    cluster.dropNext.set(Integer.MAX_VALUE); // the MIGRATE, and its retries
    MigrateProcessInstanceTest.assertMigrated(
        MigrateProcessInstanceTest.migrate(instances, instance, settle, "payment", "payment-b"));
    Answer again =
        MigrateProcessInstanceTest.migrate(instances, instance, settle, "payment-b", "payment-b");
    assertThat(again.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(again.reason()).contains("not yet moved").contains("retry");
    cluster.dropNext.set(0);
    await(
        () -> cluster.count(2, ProcessMessageSubscriptionIntent.MIGRATION_ACKNOWLEDGED) == 1,
        "the message partition's acknowledgement");
    List<byte[]> moved = eventValues(cluster.logs.get(0), MessageSubscriptionIntent.MIGRATED);
    assertThat(moved).as("a MIGRATE sent again changes nothing again").hasSize(1);
    MessageSubscriptionValue copy =
        new MessageSubscriptionValue().readFrom(new UnsafeBuffer(moved.get(0)));
    assertThat(copy.bpmnProcessId).isEqualTo("settle");
    assertThat(copy.elementId).isEqualTo("payment-b");

    publish(cluster.leader(1), "paid", key, 0, "", "");
    awaitJob(instances, "settle");
  }

  @Test
  void aBoundaryEventMadeNonInterruptingStaysOpenWhileItsMigrateIsLost() {
    start();
    TestMember instances = cluster.leader(2);
    String key = keyOnPartition(1);
    long v1 =
        deployed(
                deploy(
                    cluster.leader(1),
                    "guard.bpmn",
                    xml(MigrateProcessInstanceTest.pinged("guard", "ping", true))))
            .processDefinitionKey();
    long v2 =
        deployed(
                deploy(
                    cluster.leader(1),
                    "guard.bpmn",
                    xml(MigrateProcessInstanceTest.pinged("guard", "ping2", false))))
            .processDefinitionKey();
    await(
        () -> cluster.count(1, DeploymentIntent.FULLY_DISTRIBUTED) == 2,
        "both versions on every partition");
    long instance = createGuard(instances, v1, key);
    long job = awaitJob(instances, "work");
    await(
        () -> cluster.count(2, ProcessMessageSubscriptionIntent.CREATED) == 1,
        "the subscription to open");

    // The message partition's copy still says the first message ends the subscription; the process
    // instance partition's answer to each message says it stays open.
    cluster.heldIntent = MessageSubscriptionIntent.MIGRATE;
    MigrateProcessInstanceTest.assertMigrated(
        MigrateProcessInstanceTest.migrate(
            instances, instance, v2, "work", "work", "ping", "ping2"));
    publish(cluster.leader(1), "ping", key, 60_000, "", "");
    await(
        () -> cluster.count(1, MessageSubscriptionIntent.CORRELATED) == 1,
        "the first message taken");
    publish(cluster.leader(1), "ping", key, 60_000, "", "");
    await(
        () ->
            WorkflowTestBase.count(cluster.logs.get(1), ProcessMessageSubscriptionIntent.CORRELATED)
                == 2,
        "the second message taken");

    cluster.heldIntent = null;
    await(
        () -> cluster.count(2, ProcessMessageSubscriptionIntent.MIGRATION_ACKNOWLEDGED) == 1,
        "the MIGRATE sent again, and acknowledged");
    assertThat(lifecycle(cluster.logs.get(1)))
        .containsOnlyOnce("work " + ProcessInstanceIntent.ELEMENT_ACTIVATED)
        .doesNotContain("work " + ProcessInstanceIntent.ELEMENT_TERMINATED);
    await(
        () ->
            Collections.frequency(
                    lifecycle(cluster.logs.get(1)),
                    "after-ping2 " + ProcessInstanceIntent.ELEMENT_COMPLETED)
                == 2,
        "both messages' paths");
    completeJob(instances, job);
    await(
        () ->
            lifecycle(cluster.logs.get(1))
                .contains("guard " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "the instance's end");
  }

  @Test
  void aSubscriptionThatStaysOpenTakesAMessageOnceThoughItIsOfferedAgain() {
    start();
    TestMember instances = cluster.leader(2);
    String key = keyOnPartition(1);
    long definition =
        deployed(
                deploy(
                    cluster.leader(1),
                    "guard.bpmn",
                    xml(MigrateProcessInstanceTest.pinged("guard", "ping", false))))
            .processDefinitionKey();
    await(
        () -> cluster.count(1, DeploymentIntent.FULLY_DISTRIBUTED) == 1,
        "the process on every partition");
    createGuard(instances, definition, key);
    long job = awaitJob(instances, "work");
    await(
        () -> cluster.count(2, ProcessMessageSubscriptionIntent.CREATED) == 1,
        "the subscription to open");

    // The answer "taken" is lost: the message partition offers the message again, every retry.
    cluster.heldIntent = MessageSubscriptionIntent.CORRELATE;
    publish(cluster.leader(1), "ping", key, 60_000, "", "");
    await(
        () ->
            WorkflowTestBase.count(cluster.logs.get(1), ProcessMessageSubscriptionIntent.CORRELATED)
                    + rejections(cluster.logs.get(1), ProcessMessageSubscriptionIntent.CORRELATE)
                >= 3,
        "the message offered, then offered again twice");
    cluster.heldIntent = null;
    await(
        () -> cluster.count(1, MessageSubscriptionIntent.CORRELATED) == 1,
        "the message partition told that it was taken");
    assertThat(
            WorkflowTestBase.count(
                cluster.logs.get(1), ProcessMessageSubscriptionIntent.CORRELATED))
        .as("taken once")
        .isEqualTo(1);
    await(
        () ->
            lifecycle(cluster.logs.get(1))
                .contains("after-ping " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "the message's path");
    completeJob(instances, job);
    await(
        () ->
            lifecycle(cluster.logs.get(1))
                .contains("guard " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "the instance's end");
    assertThat(
            Collections.frequency(
                lifecycle(cluster.logs.get(1)),
                "after-ping " + ProcessInstanceIntent.ELEMENT_COMPLETED))
        .as("one message, one trigger")
        .isEqualTo(1);
  }

  /** Creates an instance of {@code definition} on {@code instances} with id {@code key}. */
  private static long createGuard(TestMember instances, long definition, String key) {
    ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
    creation.processDefinitionKey = definition;
    creation.variables = ("{\"id\": \"" + key + "\"}").getBytes(StandardCharsets.UTF_8);
    return instances.awaitAnswer(instances.send(CreationIntent.CREATE, -1, creation)).key();
  }

  /** Rejected commands of {@code intent} on the process message subscription, in {@code log}. */
  private static long rejections(InMemoryLogStorage log, Intent intent) {
    return WorkflowTestBase.rejectedCount(log, intent);
  }

  /** A process waiting for signal "go", and one started by it; deployed to every partition. */
  private void deploySignalProcesses() {
    deployed(
        deploy(
            cluster.leader(1),
            "listener.bpmn",
            xml(
                io.camunda.zeebe.model.bpmn.Bpmn.createExecutableProcess("listener")
                    .startEvent("start")
                    .intermediateCatchEvent("wait")
                    .signal("go")
                    .serviceTask("heard", t -> t.zeebeJobType("heard"))
                    .done())));
    deployed(
        deploy(
            cluster.leader(1),
            "started.bpmn",
            xml(
                io.camunda.zeebe.model.bpmn.Bpmn.createExecutableProcess("started")
                    .startEvent("go")
                    .signal("go")
                    .serviceTask("begin", t -> t.zeebeJobType("started"))
                    .done())));
    await(
        () -> cluster.count(1, DeploymentIntent.FULLY_DISTRIBUTED) == 2,
        "both deployments to reach every partition");
    for (int partition = 1; partition <= PARTITIONS; partition++) {
      create(cluster.leader(partition), "listener", "{}");
      int p = partition;
      await(
          () -> cluster.count(p, SignalSubscriptionIntent.CREATED) == 1,
          "the listener's subscription on partition " + p);
    }
  }

  @Test
  void aSignalReachesEveryPartitionOnceEvenIfACopyIsLostAndStartsOneInstance() {
    start();
    deploySignalProcesses();

    cluster.dropNext.set(1); // the copy to partition 2
    assertThat(SignalEventsTest.broadcast(cluster.leader(1), "go", "{}").intent())
        .isEqualTo(SignalIntent.BROADCASTED);
    for (int partition = 1; partition <= PARTITIONS; partition++) {
      awaitJob(cluster.leader(partition), "heard");
    }
    await(() -> cluster.count(1, SignalIntent.ACKNOWLEDGED) == 2, "both copies acknowledged");
    assertThat(cluster.dropped.get()).isEqualTo(1);
    awaitJob(cluster.leader(1), "started");
    for (int partition = 2; partition <= PARTITIONS; partition++) {
      assertThat(cluster.count(partition, SignalIntent.BROADCASTED))
          .as("partition %d took its copy once", partition)
          .isEqualTo(1);
      assertThat(activate(cluster.leader(partition), "started", 1).jobs)
          .as("signal start events start instances on partition 1 only")
          .isEmpty();
    }
    assertThat(activate(cluster.leader(1), "started", 10).jobs).isEmpty();
  }

  @Test
  void aSignalThrownOnAnotherPartitionStartsAnInstanceOnPartitionOne() {
    start();
    deploySignalProcesses();
    deployed(
        deploy(
            cluster.leader(1),
            "thrower.bpmn",
            xml(
                io.camunda.zeebe.model.bpmn.Bpmn.createExecutableProcess("thrower")
                    .startEvent("start")
                    .endEvent("shout", e -> e.signal("go"))
                    .done())));
    await(
        () -> cluster.count(1, DeploymentIntent.FULLY_DISTRIBUTED) == 3,
        "the thrower to reach every partition");

    create(cluster.leader(3), "thrower", "{}");
    awaitJob(cluster.leader(1), "started");
    for (int partition = 1; partition <= PARTITIONS; partition++) {
      awaitJob(cluster.leader(partition), "heard");
    }
    await(
        () -> cluster.count(3, SignalIntent.ACKNOWLEDGED) == 2,
        "the thrower's partition to hear from both others");
  }

  @Test
  void aDeletionReachesEveryPartitionEvenIfACopyIsLost() {
    start();
    deployEverywhere(); // version 1 of "order"
    DeploymentValue.Process v2 =
        deployed(deploy(cluster.leader(1), "order.bpmn", xml(oneTask("order", "second-version"))));
    await(
        () -> cluster.count(1, DeploymentIntent.FULLY_DISTRIBUTED) == 2,
        "version 2 on every partition");

    cluster.dropNext.set(1); // the copy to partition 2
    assertThat(DeleteResourceTest.delete(cluster.leader(1), v2.processDefinitionKey()).rejection())
        .isEqualTo(RejectionType.NONE);
    await(
        () -> cluster.count(1, ResourceDeletionIntent.ACKNOWLEDGED) == 2,
        "both copies acknowledged");
    for (int partition = 1; partition <= PARTITIONS; partition++) {
      Answer created = create(cluster.leader(partition), "order", "{\"orderId\": \"x\"}");
      assertThat(
              new ProcessInstanceCreationValue()
                  .<ProcessInstanceCreationValue>readFrom(new UnsafeBuffer(created.value()))
                  .version)
          .as("partition %d creates version 1 again", partition)
          .isEqualTo(1);
    }
    Answer elsewhere = DeleteResourceTest.delete(cluster.leader(2), v2.processDefinitionKey());
    assertThat(elsewhere.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(elsewhere.reason()).contains("partition 1");
  }
}

package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.JobBatchValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Messages on one partition: catch events, receive tasks, boundary events, buffering, expiry. */
class MessageCorrelationTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent ACTIVATED = ProcessInstanceIntent.ELEMENT_ACTIVATED;
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;
  private static final ProcessInstanceIntent TERMINATED = ProcessInstanceIntent.ELEMENT_TERMINATED;

  static BpmnModelInstance waitForPayment() {
    return Bpmn.createExecutableProcess("order")
        .startEvent("start")
        .intermediateCatchEvent(
            "payment", e -> e.message(m -> m.name("paid").zeebeCorrelationKeyExpression("orderId")))
        .serviceTask("ship", t -> t.zeebeJobType("ship"))
        .endEvent("end")
        .done();
  }

  /** Subscriptions created on the message's side (the process side may correlate first). */
  private long subscriptionsOpened() {
    return countOf(MessageSubscriptionIntent.CREATED);
  }

  @Test
  void aMessageCatchEventWaitsForItsMessageAndTakesItsVariables() {
    TestMember leader = leader();
    deployed(deploy(leader, "order.bpmn", xml(waitForPayment())));
    create(leader, "order", "{\"orderId\": \"o-1\"}");
    create(leader, "order", "{\"orderId\": \"o-2\"}");
    await(() -> subscriptionsOpened() == 2, "both subscriptions to open");

    Answer published = publish(leader, "paid", "o-2", 0, "", "{\"amount\": 42}");
    assertThat(published.intent()).isEqualTo(MessageIntent.PUBLISHED);
    JobBatchValue ship = activateWhenAvailable(leader, "ship", List.of("orderId", "amount"));
    assertThat(new String(ship.jobs.get(0).variables, StandardCharsets.UTF_8))
        .as("only the instance with that correlation key, with the message's variables")
        .isEqualTo("{\"amount\":42,\"orderId\":\"o-2\"}");
    assertThat(activate(leader, "ship", 5).jobs).isEmpty();
    assertThat(countOf(MessageIntent.EXPIRED))
        .as("a message without time to live is gone once offered")
        .isEqualTo(1);
  }

  @Test
  void aBufferedMessageCorrelatesToALaterSubscriptionOncePerProcessUntilItExpires() {
    TestMember leader = leader();
    deployed(deploy(leader, "order.bpmn", xml(waitForPayment())));
    assertThat(publish(leader, "paid", "o-1", 60_000, "", "").intent())
        .isEqualTo(MessageIntent.PUBLISHED);

    create(leader, "order", "{\"orderId\": \"o-1\"}");
    awaitJob(leader, "ship");
    create(leader, "order", "{\"orderId\": \"o-1\"}");
    await(() -> subscriptionsOpened() == 2, "the second subscription to open");
    assertThat(activate(leader, "ship", 5).jobs)
        .as("the message went to one instance of the process only")
        .isEmpty();

    publish(leader, "paid", "o-1", 100, "", "");
    awaitJob(leader, "ship");
    publish(leader, "paid", "o-3", 100, "", "");
    await(() -> countOf(MessageIntent.EXPIRED) == 2, "the messages to expire");
    create(leader, "order", "{\"orderId\": \"o-3\"}");
    await(() -> subscriptionsOpened() == 3, "the third subscription to open");
    assertThat(activate(leader, "ship", 5).jobs)
        .as("an expired message correlates no more")
        .isEmpty();
  }

  @Test
  void aMessageIdIsPublishedOnceWhileItLives() {
    TestMember leader = leader();
    assertThat(publish(leader, "paid", "o-1", 200, "m-1", "").intent())
        .isEqualTo(MessageIntent.PUBLISHED);
    Answer again = publish(leader, "paid", "o-1", 200, "m-1", "");
    assertThat(again.rejection()).isEqualTo(RejectionType.ALREADY_EXISTS);
    assertThat(again.reason()).contains("'m-1'");
    assertThat(publish(leader, "paid", "o-2", 200, "m-1", "").intent())
        .as("another correlation key")
        .isEqualTo(MessageIntent.PUBLISHED);
    await(() -> countOf(MessageIntent.EXPIRED) == 2, "the messages to expire");
    assertThat(publish(leader, "paid", "o-1", 200, "m-1", "").intent())
        .as("expired: the id is free again")
        .isEqualTo(MessageIntent.PUBLISHED);

    Answer noName = publish(leader, " ", "o-1", 0, "", "");
    assertThat(noName.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    Answer badTtl = publish(leader, "paid", "o-1", -1, "", "");
    assertThat(badTtl.reason()).contains("time to live");
    Answer badVariables = publish(leader, "paid", "o-1", 0, "", "[1]");
    assertThat(badVariables.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
  }

  @Test
  void aReceiveTaskAndMessageBoundaryEventsInterruptOrNot() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .receiveTask("confirm")
            .message(m -> m.name("confirmed").zeebeCorrelationKeyExpression("id"))
            .serviceTask("work", t -> t.zeebeJobType("work"))
            .boundaryEvent(
                "note",
                b ->
                    b.cancelActivity(false)
                        .message(m -> m.name("note").zeebeCorrelationKeyExpression("id")))
            .endEvent("noted")
            .moveToActivity("work")
            .boundaryEvent(
                "cancel", b -> b.message(m -> m.name("cancel").zeebeCorrelationKeyExpression("id")))
            .endEvent("canceled")
            .moveToActivity("work")
            .endEvent("done")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p", "{\"id\": 7}");
    await(() -> subscriptionsOpened() == 1, "the receive task's subscription");

    publish(leader, "confirmed", "7", 0, "", "");
    long work = awaitJob(leader, "work");
    await(() -> subscriptionsOpened() == 3, "the boundary events' subscriptions");
    // The second note is buffered while the first is being correlated, and follows it.
    publish(leader, "note", "7", 60_000, "", "");
    publish(leader, "note", "7", 60_000, "", "");
    await(
        () -> lifecycle().stream().filter(l -> l.equals("noted " + COMPLETED)).count() == 2,
        "two notes");
    assertThat(lifecycle()).doesNotContain("work " + TERMINATED);

    publish(leader, "cancel", "7", 0, "", "");
    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
    assertThat(lifecycle())
        .containsSubsequence(
            "confirm " + ACTIVATED,
            "confirm " + COMPLETED,
            "work " + TERMINATED,
            "canceled " + COMPLETED);
    assertThat(countOf(JobIntent.CANCELED)).isEqualTo(1);
    assertThat(completeJob(leader, work).rejection()).isEqualTo(RejectionType.NOT_FOUND);
    await(
        () -> countOf(ProcessMessageSubscriptionIntent.DELETED) == 3,
        "every subscription to be closed: the interrupting ones keep the message they took until"
            + " the message partition acknowledged their DELETE");
    assertThat(countOf(MessageSubscriptionIntent.DELETED))
        .as("the message partition had ended the interrupting ones when it heard 'taken'")
        .isEqualTo(1);
  }

  @Test
  void leavingTheElementClosesItsSubscriptionSoLaterMessagesStayBuffered() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .serviceTask("work", t -> t.zeebeJobType("work"))
            .boundaryEvent(
                "stop", b -> b.message(m -> m.name("stop").zeebeCorrelationKeyExpression("id")))
            .endEvent("stopped")
            .moveToActivity("work")
            .endEvent("done")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p", "{\"id\": \"a\"}");
    long work = awaitJob(leader, "work");
    await(() -> subscriptionsOpened() == 1, "the subscription");
    completeJob(leader, work);
    await(() -> countOf(MessageSubscriptionIntent.DELETED) == 1, "the message side to be deleted");
    await(
        () -> countOf(ProcessMessageSubscriptionIntent.DELETED) == 1,
        "the process side to be deleted");
    publish(leader, "stop", "a", 60_000, "", "");
    assertThat(lifecycle()).doesNotContain("stopped " + ACTIVATED);
    assertThat(countOf(MessageSubscriptionIntent.CORRELATING)).isZero();
  }

  @Test
  void aCorrelationKeyThatCannotBeEvaluatedRaisesAnIncident() {
    TestMember leader = leader();
    deployed(deploy(leader, "order.bpmn", xml(waitForPayment())));
    create(leader, "order", "{\"orderId\": {\"nested\": true}}");
    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    assertThat(subscriptionsOpened()).isZero();
  }
}

package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.JobBatchValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Event-based gateways: a message and a timer race; the first wins, the other is canceled. */
class EventBasedGatewayTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent ACTIVATED = ProcessInstanceIntent.ELEMENT_ACTIVATED;
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;

  /** Waits for message "paid" (key orderId), or gives up after {@code timeout}. */
  private static BpmnModelInstance paymentOrTimeout(String timeout) {
    return Bpmn.createExecutableProcess("order")
        .startEvent("start")
        .eventBasedGateway("race")
        .intermediateCatchEvent(
            "payment", e -> e.message(m -> m.name("paid").zeebeCorrelationKeyExpression("orderId")))
        .serviceTask("ship", t -> t.zeebeJobType("ship"))
        .endEvent("shipped")
        .moveToNode("race")
        .intermediateCatchEvent("timeout", e -> e.timerWithDuration(timeout))
        .serviceTask("cancel", t -> t.zeebeJobType("cancel"))
        .endEvent("canceled")
        .done();
  }

  @Test
  void theMessageWinsAndTheTimerIsCanceled() {
    TestMember leader = leader();
    deployed(deploy(leader, "order.bpmn", xml(paymentOrTimeout("PT1H"))));
    create(leader, "order", "{\"orderId\": \"o-1\"}");
    await(() -> countOf(MessageSubscriptionIntent.CREATED) == 1, "the subscription to open");
    assertThat(countOf(TimerIntent.CREATED)).isEqualTo(1);

    publish(leader, "paid", "o-1", 0, "", "{\"amount\": 42}");
    JobBatchValue ship = activateWhenAvailable(leader, "ship", List.of("amount"));
    assertThat(new String(ship.jobs.get(0).variables, StandardCharsets.UTF_8))
        .isEqualTo("{\"amount\":42}");
    assertThat(countOf(TimerIntent.CANCELED)).isEqualTo(1);
    assertThat(lifecycle())
        .containsSubsequence("race " + COMPLETED, "payment " + ACTIVATED, "payment " + COMPLETED)
        .doesNotContain("timeout " + ACTIVATED);
    completeJob(leader, ship.jobKeys.get(0));
    await(() -> lifecycle().contains("order " + COMPLETED), "the order to complete");
  }

  @Test
  void theTimerWinsAndTheSubscriptionIsClosed() {
    TestMember leader = leader();
    deployed(deploy(leader, "order.bpmn", xml(paymentOrTimeout("PT0.2S"))));
    create(leader, "order", "{\"orderId\": \"o-1\"}");

    completeJob(leader, awaitJob(leader, "cancel"));
    await(() -> lifecycle().contains("order " + COMPLETED), "the order to complete");
    assertThat(lifecycle())
        .containsSubsequence("race " + COMPLETED, "timeout " + COMPLETED)
        .doesNotContain("payment " + ACTIVATED);
    await(
        () -> countOf(ProcessMessageSubscriptionIntent.DELETED) == 1, "the subscription to close");

    // A late message finds no subscription: nothing else happens.
    publish(leader, "paid", "o-1", 0, "", "");
    assertThat(activate(leader, "ship", 1).jobs).isEmpty();
    assertThat(lifecycle()).doesNotContain("ship " + ACTIVATED);
  }

  @Test
  void aGatewayLeadingToSomethingElseThanTimerOrMessageCatchEventsIsRejected() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .eventBasedGateway("race")
            .intermediateCatchEvent("tick", e -> e.timerWithDuration("PT1M"))
            .endEvent("a")
            .moveToNode("race")
            .serviceTask("task", t -> t.zeebeJobType("task"))
            .endEvent("b")
            .done();
    Answer answer = deploy(leader, "p.bpmn", xml(model));
    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason()).contains("'race'");
  }
}

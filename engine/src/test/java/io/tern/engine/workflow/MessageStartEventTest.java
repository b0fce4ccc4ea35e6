package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.MessageStartEventSubscriptionIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Message start events: instances started by published messages, one per correlation key. */
class MessageStartEventTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;

  /** Starts on message "placed", then a job "ship". */
  private static BpmnModelInstance startedByMessage() {
    return Bpmn.createExecutableProcess("order")
        .startEvent("placed")
        .message("placed")
        .serviceTask("ship", t -> t.zeebeJobType("ship"))
        .endEvent("end")
        .done();
  }

  private long instancesStarted() {
    return countOf(MessageStartEventSubscriptionIntent.CORRELATED);
  }

  @Test
  void aPublishedMessageStartsAnInstanceWithItsVariables() {
    TestMember leader = leader();
    deployed(deploy(leader, "order.bpmn", xml(startedByMessage())));

    publish(leader, "placed", "o-1", 0, "", "{\"orderId\": \"o-1\"}");
    JobBatchValue ship = activateWhenAvailable(leader, "ship", List.of());
    assertThat(JsonDocuments.toJava(ship.jobs.get(0).variables))
        .isEqualTo(Map.of("orderId", "o-1"));
    assertThat(lifecycle())
        .containsSubsequence(
            "order " + ProcessInstanceIntent.ELEMENT_ACTIVATED, "placed " + COMPLETED);
    completeJob(leader, ship.jobKeys.get(0));
    await(() -> lifecycle().contains("order " + COMPLETED), "the instance to complete");
  }

  @Test
  void aSecondMessageWithTheSameKeyWaitsUntilTheFirstInstanceEnds() {
    TestMember leader = leader();
    deployed(deploy(leader, "order.bpmn", xml(startedByMessage())));

    publish(leader, "placed", "o-1", 60_000, "", "{\"n\": 1}");
    publish(leader, "placed", "o-1", 60_000, "", "{\"n\": 2}");
    publish(leader, "placed", "o-2", 60_000, "", "{\"n\": 3}");
    publish(leader, "placed", "", 60_000, "", "{\"n\": 4}");
    publish(leader, "placed", "", 60_000, "", "{\"n\": 5}");
    await(() -> countOf(JobIntent.CREATED) == 4, "four instances");
    JobBatchValue first = activate(leader, "ship", 10, List.of("n"));
    assertThat(first.jobs.stream().map(job -> JsonDocuments.toJava(job.variables)))
        .as("another key, and messages without a key, start at once; o-1's second waits")
        .containsExactlyInAnyOrder(
            Map.of("n", 1L), Map.of("n", 3L), Map.of("n", 4L), Map.of("n", 5L));

    int ofFirstMessage =
        first.jobs.stream()
            .map(job -> JsonDocuments.toJava(job.variables))
            .toList()
            .indexOf(Map.of("n", 1L));
    completeJob(leader, first.jobKeys.get(ofFirstMessage));
    JobBatchValue next = activateWhenAvailable(leader, "ship", List.of("n"));
    assertThat(JsonDocuments.toJava(next.jobs.get(0).variables)).isEqualTo(Map.of("n", 2L));
    assertThat(instancesStarted()).isEqualTo(5);
  }

  @Test
  void messagesPublishedBeforeTheDeploymentStartNothing() {
    TestMember leader = leader();
    publish(leader, "placed", "o-1", 60_000, "", "");
    deployed(deploy(leader, "order.bpmn", xml(startedByMessage())));
    assertThat(instancesStarted()).isZero();

    publish(leader, "placed", "o-2", 60_000, "", "");
    awaitJob(leader, "ship");
    assertThat(instancesStarted()).isEqualTo(1);
  }

  @Test
  void aNewVersionWithoutTheMessageStartEventClosesTheSubscription() {
    TestMember leader = leader();
    deployed(deploy(leader, "order.bpmn", xml(startedByMessage())));
    deployed(deploy(leader, "order.bpmn", xml(oneTask("order", "ship"))));

    publish(leader, "placed", "o-1", 0, "", "");
    create(leader, "order"); // the none start event of version 2
    awaitJob(leader, "ship");
    assertThat(instancesStarted()).isZero();
  }

  @Test
  void aProcessThatStartsOnlyByMessageCannotBeCreatedByCommand() {
    TestMember leader = leader();
    deployed(deploy(leader, "order.bpmn", xml(startedByMessage())));

    Answer created = create(leader, "order");
    assertThat(created.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(created.reason()).contains("'order'").contains("no none start event");
  }

  @Test
  void aMessageStartEventInASubprocessIsRejected() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("order")
            .startEvent("start")
            .subProcess("sub")
            .embeddedSubProcess()
            .startEvent("inner")
            .message("placed")
            .endEvent("inner-end")
            .subProcessDone()
            .endEvent("end")
            .done();
    Answer answer = deploy(leader, "order.bpmn", xml(model));
    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason()).contains("'inner'");
  }
}

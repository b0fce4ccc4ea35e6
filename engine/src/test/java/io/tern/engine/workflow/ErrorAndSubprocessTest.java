package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Embedded subprocesses, error end events, ThrowError and error boundary events. */
class ErrorAndSubprocessTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent ACTIVATED = ProcessInstanceIntent.ELEMENT_ACTIVATED;
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;
  private static final ProcessInstanceIntent TERMINATED = ProcessInstanceIntent.ELEMENT_TERMINATED;

  @Test
  void anEmbeddedSubprocessRunsItsFlowAndCompletesBeforeTheProcessGoesOn() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .subProcess("sub")
            .embeddedSubProcess()
            .startEvent("sub-start")
            .serviceTask("inner", t -> t.zeebeJobType("inner"))
            .endEvent("sub-end")
            .subProcessDone()
            .serviceTask("after", t -> t.zeebeJobType("after"))
            .endEvent("end")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");

    completeJob(leader, awaitJob(leader, "inner"), "{\"fromInside\": 1}");
    JobBatchValue after = activateWhenAvailable(leader, "after", List.of("fromInside"));
    assertThat(new String(after.jobs.get(0).variables, StandardCharsets.UTF_8))
        .as("a variable set inside the subprocess without a local scope reaches the process")
        .isEqualTo("{\"fromInside\":1}");
    completeJob(leader, after.jobKeys.get(0));

    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
    assertThat(lifecycle())
        .containsSubsequence(
            "sub " + ACTIVATED,
            "sub-start " + COMPLETED,
            "inner " + COMPLETED,
            "sub-end " + COMPLETED,
            "sub " + COMPLETED,
            "after " + ACTIVATED,
            "p " + COMPLETED);
  }

  private static BpmnModelInstance paymentWithErrorBoundaries() {
    return Bpmn.createExecutableProcess("pay")
        .startEvent("start")
        .serviceTask("charge", t -> t.zeebeJobType("charge"))
        .boundaryEvent("declined", b -> b.error("DECLINED"))
        .serviceTask("notify", t -> t.zeebeJobType("notify"))
        .endEvent("declined-end")
        .moveToActivity("charge")
        .boundaryEvent("any-error", b -> b.error())
        .serviceTask("investigate", t -> t.zeebeJobType("investigate"))
        .endEvent("investigated")
        .moveToActivity("charge")
        .endEvent("paid")
        .done();
  }

  @Test
  void anErrorThrownByAJobIsCaughtByTheBoundaryEventForItsCodeWithItsVariables() {
    TestMember leader = leader();
    deployed(deploy(leader, "pay.bpmn", xml(paymentWithErrorBoundaries())));
    create(leader, "pay");
    long charge = awaitJob(leader, "charge");

    Answer thrown =
        throwError(leader, charge, "DECLINED", "card declined", "{\"reason\":\"limit\"}");
    assertThat(thrown.intent()).isEqualTo(JobIntent.ERROR_THROWN);

    JobBatchValue notify = activateWhenAvailable(leader, "notify", List.of("reason"));
    assertThat(new String(notify.jobs.get(0).variables, StandardCharsets.UTF_8))
        .isEqualTo("{\"reason\":\"limit\"}");
    assertThat(lifecycle())
        .containsSubsequence("charge " + TERMINATED, "declined " + COMPLETED)
        .doesNotContain("any-error " + ACTIVATED, "charge " + COMPLETED);
    assertThat(countOf(JobIntent.CANCELED)).isEqualTo(1);
    assertThat(completeJob(leader, charge).rejection())
        .as("the caught job is gone")
        .isEqualTo(RejectionType.NOT_FOUND);

    // Another code is caught by the boundary event without a code.
    create(leader, "pay");
    long second = awaitJob(leader, "charge");
    throwError(leader, second, "TIMEOUT", "", "");
    awaitJob(leader, "investigate");
    assertThat(lifecycle()).contains("any-error " + COMPLETED);
  }

  @Test
  void anUncaughtErrorWithAHugeCodeAndMessageStillRaisesItsIncidentCut() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(oneTask("p", "work"))));
    create(leader, "p");
    long job = awaitJob(leader, "work");

    // Each fits a record's text field alone; the incident's message quotes both.
    Answer thrown = throwError(leader, job, "C".repeat(32_000), "m".repeat(32_000), "");
    assertThat(thrown.rejection()).isEqualTo(RejectionType.NONE);
    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident = incident(0);
    assertThat(incident.errorType).isEqualTo(ErrorType.UNHANDLED_ERROR_EVENT);
    assertThat(incident.errorMessage).startsWith("error 'CCC").contains("(cut: ");
    assertThat(incident.errorMessage.length()).isLessThan(17 * 1024);
  }

  @Test
  void anUncaughtJobErrorRaisesAnIncidentAndResolvingItMakesTheJobActivatableAgain() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(oneTask("p", "work"))));
    create(leader, "p");
    long job = awaitJob(leader, "work");

    throwError(leader, job, "NOBODY_CATCHES", "it broke", "");
    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident = incident(0);
    assertThat(incident.errorType).isEqualTo(ErrorType.UNHANDLED_ERROR_EVENT);
    assertThat(incident.jobKey).isEqualTo(job);
    assertThat(incident.errorMessage).contains("'NOBODY_CATCHES'").contains("it broke");
    assertThat(activate(leader, "work", 1).jobs).as("held by the incident").isEmpty();
    assertThat(throwError(leader, job, "AGAIN", "", "").rejection())
        .isEqualTo(RejectionType.INVALID_STATE);

    Answer resolved = resolveIncident(leader, firstKeyOf(IncidentIntent.CREATED));
    assertThat(resolved.intent()).isEqualTo(IncidentIntent.RESOLVED);
    assertThat(awaitJob(leader, "work")).isEqualTo(job);
    completeJob(leader, job);
    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
  }

  private IncidentValue incident(int index) {
    return new IncidentValue()
        .readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(index)));
  }

  @Test
  void anErrorEndEventInASubprocessIsCaughtByTheSubprocessesBoundaryEvent() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .subProcess("sub")
            .embeddedSubProcess()
            .startEvent("sub-start")
            .parallelGateway("fork")
            .serviceTask("slow", t -> t.zeebeJobType("slow"))
            .endEvent("slow-end")
            .moveToNode("fork")
            .endEvent("fail", e -> e.error("E1"))
            .subProcessDone()
            .endEvent("normal-end")
            .moveToActivity("sub")
            .boundaryEvent("caught", b -> b.error("E1"))
            .serviceTask("handle", t -> t.zeebeJobType("handle"))
            .endEvent("handled")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");

    long handle = awaitJob(leader, "handle");
    assertThat(lifecycle())
        .containsSubsequence("sub " + TERMINATED, "caught " + COMPLETED)
        .contains("slow " + TERMINATED, "fail " + TERMINATED)
        .doesNotContain("normal-end " + ACTIVATED, "fail " + COMPLETED);
    assertThat(activate(leader, "slow", 1).jobs).as("the parallel branch's job").isEmpty();
    completeJob(leader, handle);
    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
  }

  @Test
  void anUncaughtErrorEndEventRaisesAnIncidentNamingTheCode() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .endEvent("fail", e -> e.error("NOT_CAUGHT"))
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");

    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident = incident(0);
    assertThat(incident.errorType).isEqualTo(ErrorType.UNHANDLED_ERROR_EVENT);
    assertThat(incident.elementId).isEqualTo("fail");
    assertThat(incident.errorMessage).contains("'NOT_CAUGHT'");
    assertThat(lifecycle()).contains("fail " + ACTIVATED).doesNotContain("fail " + COMPLETED);

    // Resolving throws again: still nothing catches it, so a new incident holds the end event.
    resolveIncident(leader, firstKeyOf(IncidentIntent.CREATED));
    await(() -> countOf(IncidentIntent.CREATED) == 2, "a second incident");
  }

  @Test
  void anErrorEndEventsCodeMayBeAnExpressionEvaluatedWhenItIsReached() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("dyn")
            .startEvent("start")
            .subProcess("sub")
            .embeddedSubProcess()
            .startEvent("sub-start")
            .endEvent("fail", e -> e.errorExpression("kind"))
            .subProcessDone()
            .boundaryEvent("declined", b -> b.error("DECLINED"))
            .endEvent("declined-end")
            .moveToActivity("sub")
            .endEvent("end")
            .done();
    deployed(deploy(leader, "dyn.bpmn", xml(model)));
    create(leader, "dyn", "{\"kind\": \"DECLINED\"}");
    await(() -> lifecycle().contains("declined-end " + COMPLETED), "the boundary for the code");

    long instance = create(leader, "dyn", "{}").key();
    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident for the code");
    setVariables(leader, instance, "{\"kind\": \"DECLINED\"}", false);
    resolveIncident(leader, firstKeyOf(IncidentIntent.CREATED));
    await(
        () -> lifecycle().stream().filter(("declined-end " + COMPLETED)::equals).count() == 2,
        "the second instance at the boundary after resolving");
  }
}

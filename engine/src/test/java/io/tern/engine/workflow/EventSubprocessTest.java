package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Event subprocesses started by errors, timers and messages, interrupting or not. */
class EventSubprocessTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;
  private static final ProcessInstanceIntent TERMINATED = ProcessInstanceIntent.ELEMENT_TERMINATED;

  @Test
  void anErrorEventSubprocessCatchesAJobsErrorAndReplacesWhatRan() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .eventSubProcess(
                "on-error",
                esp ->
                    esp.startEvent("error-start")
                        .error("BROKEN")
                        .serviceTask("handle", t -> t.zeebeJobType("handle"))
                        .endEvent("handled"))
            .startEvent("start")
            .parallelGateway("fork")
            .serviceTask("work", t -> t.zeebeJobType("work"))
            .endEvent("end")
            .moveToNode("fork")
            .serviceTask("other", t -> t.zeebeJobType("other"))
            .endEvent("other-end")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");
    long work = awaitJob(leader, "work");
    awaitJob(leader, "other");

    throwError(leader, work, "BROKEN", "it broke", "{\"cause\": \"disk\"}");
    JobBatchValue handle = activateWhenAvailable(leader, "handle", List.of("cause"));
    assertThat(JsonDocuments.toJava(handle.jobs.get(0).variables))
        .isEqualTo(Map.of("cause", "disk"));
    assertThat(lifecycle()).contains("work " + TERMINATED, "other " + TERMINATED);
    assertThat(countOf(JobIntent.CANCELED)).isEqualTo(2);

    completeJob(leader, handle.jobKeys.get(0));
    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
    assertThat(lifecycle()).containsSubsequence("on-error " + COMPLETED, "p " + COMPLETED);
  }

  @Test
  void aNonInterruptingTimerEventSubprocessRunsNextToTheSubprocessesWork() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .subProcess("sub")
            .embeddedSubProcess()
            .eventSubProcess(
                "reminder",
                esp ->
                    esp.startEvent("timer-start")
                        .interrupting(false)
                        .timerWithDuration("PT0.2S")
                        .serviceTask("remind", t -> t.zeebeJobType("remind"))
                        .endEvent("reminded"))
            .startEvent("sub-start")
            .serviceTask("long-task", t -> t.zeebeJobType("long-task"))
            .endEvent("sub-end")
            .subProcessDone()
            .endEvent("end")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");

    long longTask = awaitJob(leader, "long-task");
    long remind = awaitJob(leader, "remind");
    completeJob(leader, remind);
    assertThat(lifecycle()).doesNotContain("long-task " + TERMINATED);
    assertThat(lifecycle()).doesNotContain("sub " + COMPLETED); // the long task still runs
    completeJob(leader, longTask);
    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
  }

  @Test
  void anInterruptingMessageEventSubprocessCancelsTheProcessesWork() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .eventSubProcess(
                "on-cancel",
                esp ->
                    esp.startEvent("cancel-start")
                        .message(
                            m -> m.name("cancel-order").zeebeCorrelationKeyExpression("orderId"))
                        .endEvent("canceled"))
            .startEvent("start")
            .serviceTask("work", t -> t.zeebeJobType("work"))
            .endEvent("end")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p", "{\"orderId\": \"o-5\"}");
    awaitJob(leader, "work");

    publish(leader, "cancel-order", "o-5", 60_000, "", "");
    await(() -> lifecycle().contains("p " + COMPLETED), "the process to end through the event");
    assertThat(lifecycle()).contains("work " + TERMINATED, "canceled " + COMPLETED);
    assertThat(activate(leader, "work", 5).jobs).isEmpty();
  }

  @Test
  void anErrorInsideASubprocessIsCaughtByItsEventSubprocessBeforeItsBoundary() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .subProcess("sub")
            .embeddedSubProcess()
            .eventSubProcess(
                "inner-handler",
                esp -> esp.startEvent("inner-error").error("BROKEN").endEvent("inner-handled"))
            .startEvent("sub-start")
            .serviceTask("work", t -> t.zeebeJobType("work"))
            .endEvent("sub-end")
            .subProcessDone()
            .boundaryEvent("outer-error", b -> b.error("BROKEN"))
            .endEvent("outer-handled")
            .moveToActivity("sub")
            .serviceTask("after", t -> t.zeebeJobType("after"))
            .endEvent("end")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");

    throwError(leader, awaitJob(leader, "work"), "BROKEN", "", "");
    awaitJob(leader, "after"); // the subprocess completed normally after its event subprocess
    assertThat(lifecycle())
        .contains("inner-handled " + COMPLETED, "sub " + COMPLETED)
        .doesNotContain("outer-handled " + COMPLETED);
  }

  @Test
  void aNonInterruptingMessageEventSubprocessRunsOncePerMessage() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .eventSubProcess(
                "on-note",
                esp ->
                    esp.startEvent("note-start")
                        .interrupting(false)
                        .message(m -> m.name("note").zeebeCorrelationKeyExpression("orderId"))
                        .serviceTask("record-note", t -> t.zeebeJobType("record-note"))
                        .endEvent("noted"))
            .startEvent("start")
            .serviceTask("work", t -> t.zeebeJobType("work"))
            .endEvent("end")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p", "{\"orderId\": \"o-8\"}");
    long work = awaitJob(leader, "work");

    publish(leader, "note", "o-8", 60_000, "", "{\"text\": \"first\"}");
    completeJob(leader, awaitJob(leader, "record-note"));
    publish(leader, "note", "o-8", 60_000, "", "{\"text\": \"second\"}");
    completeJob(leader, awaitJob(leader, "record-note"));
    assertThat(lifecycle().stream().filter(("on-note " + COMPLETED)::equals)).hasSize(2);
    assertThat(lifecycle()).doesNotContain("work " + TERMINATED);

    completeJob(leader, work);
    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
  }

  @Test
  void anInterruptingEventSubprocessVoidsTokensWaitingAtAJoin() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .eventSubProcess(
                "on-error",
                esp -> esp.startEvent("error-start").error("BROKEN").endEvent("handled"))
            .startEvent("start")
            .parallelGateway("fork")
            .serviceTask("a", t -> t.zeebeJobType("a"))
            .parallelGateway("join")
            .endEvent("end")
            .moveToNode("fork")
            .serviceTask("b", t -> t.zeebeJobType("b"))
            .connectTo("join")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");
    completeJob(leader, awaitJob(leader, "a")); // its token waits at the join

    throwError(leader, awaitJob(leader, "b"), "BROKEN", "", "");
    await(() -> lifecycle().contains("p " + COMPLETED), "the process to end through the event");
    assertThat(lifecycle()).contains("handled " + COMPLETED).doesNotContain("end " + COMPLETED);
  }
}

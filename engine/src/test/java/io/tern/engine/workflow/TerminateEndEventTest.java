package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.TimerIntent;
import org.junit.jupiter.api.Test;

/** Terminate end events: everything else in the scope is terminated, then the scope completes. */
class TerminateEndEventTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent ACTIVATED = ProcessInstanceIntent.ELEMENT_ACTIVATED;
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;
  private static final ProcessInstanceIntent TERMINATED = ProcessInstanceIntent.ELEMENT_TERMINATED;

  @Test
  void aTerminateEndEventCancelsTheSiblingsAndTheirJobsAndCompletesTheProcess() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .parallelGateway("fork")
            .serviceTask("slow", t -> t.zeebeJobType("slow"))
            .boundaryEvent("reminder", b -> b.cancelActivity(false).timerWithCycle("R/PT1H"))
            .endEvent("reminded")
            .moveToActivity("slow")
            .endEvent("slow-end")
            .moveToNode("fork")
            .serviceTask("fast", t -> t.zeebeJobType("fast"))
            .endEvent("kill", e -> e.terminate())
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");
    await(() -> countOf(TimerIntent.CREATED) == 1, "the reminder timer");

    completeJob(leader, awaitJob(leader, "fast"));

    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
    assertThat(lifecycle())
        .containsSubsequence("kill " + COMPLETED, "slow " + TERMINATED, "p " + COMPLETED)
        .doesNotContain("p " + TERMINATED, "slow-end " + ACTIVATED);
    assertThat(countOf(JobIntent.CANCELED)).as("slow's job").isEqualTo(1);
    assertThat(countOf(TimerIntent.CANCELED)).as("the reminder").isEqualTo(1);
    assertThat(activate(leader, "slow", 1).jobs).isEmpty();
  }

  @Test
  void inASubprocessOnlyTheSubprocessEndsAndTheProcessGoesOn() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .serviceTask("beside", t -> t.zeebeJobType("beside"))
            .endEvent("beside-end")
            .moveToNode("start")
            .subProcess("sub")
            .embeddedSubProcess()
            .startEvent("sub-start")
            .parallelGateway("sub-fork")
            .serviceTask("inner-slow", t -> t.zeebeJobType("inner-slow"))
            .endEvent("inner-slow-end")
            .moveToNode("sub-fork")
            .serviceTask("inner-fast", t -> t.zeebeJobType("inner-fast"))
            .endEvent("sub-kill", e -> e.terminate())
            .subProcessDone()
            .serviceTask("after", t -> t.zeebeJobType("after"))
            .endEvent("end")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");
    awaitJob(leader, "inner-slow");

    completeJob(leader, awaitJob(leader, "inner-fast"));
    completeJob(leader, awaitJob(leader, "after"));

    assertThat(lifecycle())
        .containsSubsequence(
            "sub-kill " + COMPLETED, "inner-slow " + TERMINATED, "sub " + COMPLETED)
        .doesNotContain("sub " + TERMINATED, "beside " + TERMINATED, "p " + COMPLETED);
    assertThat(countOf(JobIntent.CANCELED)).isEqualTo(1);
    completeJob(leader, awaitJob(leader, "beside"));
    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
  }

  @Test
  void aTokenStillOnItsWayStartsNothingOnceTheScopeIsEnding() {
    TestMember leader = leader();
    // The fork's second token passes two gateways: it is between them when the end event ends the
    // process, and must not reach the task.
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .parallelGateway("fork")
            .endEvent("kill", e -> e.terminate())
            .moveToNode("fork")
            .exclusiveGateway("g1")
            .exclusiveGateway("g2")
            .exclusiveGateway("g3")
            .serviceTask("never", t -> t.zeebeJobType("never"))
            .endEvent("end")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");

    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
    assertThat(lifecycle()).doesNotContain("never " + ACTIVATED, "p " + TERMINATED);
    assertThat(countOf(JobIntent.CREATED)).isZero();
  }
}

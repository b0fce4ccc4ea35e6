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
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Call activities: a called process instance, its variables, incidents, termination, errors. */
class CallActivityTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;
  private static final ProcessInstanceIntent TERMINATED = ProcessInstanceIntent.ELEMENT_TERMINATED;

  private static BpmnModelInstance parent(String calledProcessId) {
    return Bpmn.createExecutableProcess("parent")
        .startEvent("start")
        .callActivity("call", c -> c.zeebeProcessId(calledProcessId))
        .boundaryEvent("failed", b -> b.error("CHILD_FAILED"))
        .endEvent("failed-end")
        .moveToActivity("call")
        .serviceTask("after", t -> t.zeebeJobType("after"))
        .endEvent("end")
        .done();
  }

  private static BpmnModelInstance child() {
    return Bpmn.createExecutableProcess("child")
        .startEvent("child-start")
        .serviceTask("child-work", t -> t.zeebeJobType("child-work"))
        .endEvent("child-end")
        .done();
  }

  @Test
  void theCalledProcessGetsTheCallersVariablesAndGivesItsOwnBack() {
    TestMember leader = leader();
    deployed(deploy(leader, "child.bpmn", xml(child())));
    deployed(deploy(leader, "parent.bpmn", xml(parent("child"))));
    create(leader, "parent", "{\"order\": 7}");

    JobBatchValue childWork = activateWhenAvailable(leader, "child-work", List.of());
    assertThat(new String(childWork.jobs.get(0).variables, StandardCharsets.UTF_8))
        .isEqualTo("{\"order\":7}");
    assertThat(childWork.jobs.get(0).bpmnProcessId).isEqualTo("child");
    long childInstance = childWork.jobs.get(0).processInstanceKey;
    completeJob(leader, childWork.jobKeys.get(0), "{\"shipped\": true}");

    JobBatchValue after = activateWhenAvailable(leader, "after", List.of());
    assertThat(new String(after.jobs.get(0).variables, StandardCharsets.UTF_8))
        .isEqualTo("{\"order\":7,\"shipped\":true}");
    assertThat(lifecycle()).containsSubsequence("child " + COMPLETED, "call " + COMPLETED);
    ProcessInstanceValue childProcess = processRecordOf(childInstance);
    assertThat(childProcess.parentElementInstanceKey)
        .isEqualTo(elementKey("call", ProcessInstanceIntent.ELEMENT_ACTIVATED));
  }

  private ProcessInstanceValue processRecordOf(long processInstanceKey) {
    ProcessInstanceValue value = new ProcessInstanceValue();
    for (byte[] bytes : eventValues(ProcessInstanceIntent.ELEMENT_ACTIVATED)) {
      value.readFrom(new UnsafeBuffer(bytes));
      if (value.processInstanceKey == processInstanceKey && value.flowScopeKey < 0) {
        return value;
      }
    }
    throw new AssertionError("no process instance " + processInstanceKey);
  }

  @Test
  void aMissingCalledProcessRaisesAnIncidentResolvedByDeployingIt() {
    TestMember leader = leader();
    deployed(deploy(leader, "parent.bpmn", xml(parent("child"))));
    create(leader, "parent");
    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
    assertThat(incident.errorType).isEqualTo(ErrorType.CALLED_ELEMENT_ERROR);
    assertThat(incident.errorMessage).contains("'child'").contains("not deployed");

    deployed(deploy(leader, "child.bpmn", xml(child())));
    resolveIncident(leader, firstKeyOf(IncidentIntent.CREATED));
    awaitJob(leader, "child-work");
  }

  @Test
  void cancelingTheCallerTerminatesTheCalledInstanceWhichCannotBeCanceledAlone() {
    TestMember leader = leader();
    deployed(deploy(leader, "child.bpmn", xml(child())));
    deployed(deploy(leader, "parent.bpmn", xml(parent("child"))));
    long parentInstance = create(leader, "parent").key();
    JobBatchValue childWork = activateWhenAvailable(leader, "child-work", List.of());
    long childInstance = childWork.jobs.get(0).processInstanceKey;

    Answer alone = cancel(leader, childInstance);
    assertThat(alone.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(alone.reason()).contains("cancel the instance that called it");

    assertThat(cancel(leader, parentInstance).rejection()).isEqualTo(RejectionType.NONE);
    await(() -> lifecycle().contains("parent " + TERMINATED), "the caller to be terminated");
    assertThat(lifecycle())
        .containsSubsequence(
            "child-work " + TERMINATED, "child " + TERMINATED, "call " + TERMINATED);
    assertThat(countOf(JobIntent.CANCELED)).isEqualTo(1);
  }

  private static Answer cancel(TestMember member, long processInstanceKey) {
    return member.awaitAnswer(
        member.send(ProcessInstanceIntent.CANCEL, processInstanceKey, new ProcessInstanceValue()));
  }

  @Test
  void anErrorInTheCalledProcessIsCaughtOnTheCallActivity() {
    TestMember leader = leader();
    deployed(deploy(leader, "child.bpmn", xml(child())));
    deployed(deploy(leader, "parent.bpmn", xml(parent("child"))));
    create(leader, "parent");
    long childWork = awaitJob(leader, "child-work");

    throwError(leader, childWork, "CHILD_FAILED", "", "");
    await(() -> lifecycle().contains("parent " + COMPLETED), "the caller to end at its boundary");
    assertThat(lifecycle())
        .containsSubsequence("child " + TERMINATED, "call " + TERMINATED, "failed " + COMPLETED)
        .doesNotContain("after " + ProcessInstanceIntent.ELEMENT_ACTIVATED);
  }
}

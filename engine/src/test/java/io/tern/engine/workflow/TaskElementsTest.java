package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.List;
import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Undefined, manual, user, script, send and business rule tasks and throw events, as Zeebe runs
 * them: passing through with their mappings, evaluating a script, or creating a job.
 */
class TaskElementsTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;

  @SuppressWarnings("unchecked")
  private static Map<String, Object> variablesOf(JobBatchValue batch) {
    return (Map<String, Object>) JsonDocuments.toJava(batch.jobs.get(0).variables);
  }

  private static Map<?, ?> headersOf(JobBatchValue batch) {
    return (Map<?, ?>) JsonDocuments.toJava(batch.jobs.get(0).customHeaders);
  }

  @Test
  void undefinedAndManualTasksAndNoneThrowEventsPassThroughApplyingTheirMappings() {
    TestMember leader = leader();
    deployed(
        deploy(
            leader,
            "pass.bpmn",
            xml(
                Bpmn.createExecutableProcess("pass")
                    .startEvent("start")
                    .task("check")
                    .zeebeInputExpression("amount + 1", "raised")
                    .manualTask("sign")
                    .zeebeOutputExpression("amount * 2", "doubled")
                    .intermediateThrowEvent(
                        "milestone", e -> e.zeebeOutputExpression("\"reached\"", "stage"))
                    .serviceTask("after", t -> t.zeebeJobType("after"))
                    .endEvent("end")
                    .done())));
    create(leader, "pass", "{\"amount\": 20}");

    JobBatchValue after = activateWhenAvailable(leader, "after", List.of());
    assertThat(variablesOf(after))
        .as("outputs reach the process; the undefined task's input stays its own")
        .isEqualTo(Map.of("amount", 20L, "doubled", 40L, "stage", "reached"));
    assertThat(lifecycle())
        .containsSubsequence("check " + COMPLETED, "sign " + COMPLETED, "milestone " + COMPLETED);
  }

  @Test
  void aUserTaskIsAJobWithItsAssignmentAndScheduleAsZeebesHeaders() {
    TestMember leader = leader();
    deployed(
        deploy(
            leader,
            "approve.bpmn",
            xml(
                Bpmn.createExecutableProcess("approve")
                    .startEvent()
                    .userTask(
                        "review",
                        t ->
                            t.zeebeAssigneeExpression("owner")
                                .zeebeCandidateGroups("sales, legal")
                                .zeebeCandidateUsersExpression("[owner, \"ann\"]")
                                .zeebeDueDate("2026-12-01T10:00:00Z")
                                .zeebeFollowUpDateExpression("\"2026-11-30T09:00:00Z\"")
                                .zeebeFormKey("camunda-forms:bpmn:review-form")
                                .zeebeTaskHeader("priority", "high"))
                    .endEvent("end")
                    .done())));
    create(leader, "approve", "{\"owner\": \"bob\"}");

    JobBatchValue review = activateWhenAvailable(leader, "io.camunda.zeebe:userTask", List.of());
    assertThat(headersOf(review))
        .isEqualTo(
            Map.of(
                "priority", "high",
                "io.camunda.zeebe:assignee", "bob",
                "io.camunda.zeebe:candidateGroups", "[\"sales\",\"legal\"]",
                "io.camunda.zeebe:candidateUsers", "[\"bob\",\"ann\"]",
                "io.camunda.zeebe:dueDate", "2026-12-01T10:00:00Z",
                "io.camunda.zeebe:followUpDate", "2026-11-30T09:00:00Z",
                "io.camunda.zeebe:formKey", "camunda-forms:bpmn:review-form"));
    assertThat(review.jobs.get(0).elementId).isEqualTo("review");
    completeJob(leader, review.jobKeys.get(0), "{\"approved\": true}");
    await(() -> lifecycle().contains("approve " + COMPLETED), "the approval to complete");
  }

  @Test
  void anAssigneeThatDoesNotEvaluateRaisesAnIncidentNamingIt() {
    TestMember leader = leader();
    deployed(
        deploy(
            leader,
            "approve.bpmn",
            xml(
                Bpmn.createExecutableProcess("approve")
                    .startEvent()
                    .userTask(
                        "review", t -> t.zeebeAssigneeExpression("assert(owner, owner != null)"))
                    .endEvent()
                    .done())));
    create(leader, "approve", "{}");
    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
    assertThat(incident.errorType).isEqualTo(ErrorType.EXTRACT_VALUE_ERROR);
    assertThat(incident.errorMessage).contains("'review'").contains("io.camunda.zeebe:assignee");
  }

  @Test
  void aFeelScriptTaskSetsItsResultVariableAndCompletes() {
    TestMember leader = leader();
    deployed(
        deploy(
            leader,
            "score.bpmn",
            xml(
                Bpmn.createExecutableProcess("score")
                    .startEvent()
                    .scriptTask(
                        "sum",
                        t -> t.zeebeExpression("sum(items) * factor").zeebeResultVariable("total"))
                    .scriptTask(
                        "label",
                        t ->
                            t.zeebeExpression("if total > 10 then \"big\" else \"small\"")
                                .zeebeResultVariable("size")
                                .zeebeOutputExpression("upper case(size)", "sizeLabel"))
                    .serviceTask("after", t -> t.zeebeJobType("after"))
                    .endEvent()
                    .done())));
    create(leader, "score", "{\"items\": [1, 2, 3], \"factor\": 2}");

    JobBatchValue after = activateWhenAvailable(leader, "after", List.of());
    assertThat(variablesOf(after))
        .as("the result propagates; with output mappings only the outputs do")
        .containsEntry("total", 12L)
        .containsEntry("sizeLabel", "BIG")
        .doesNotContainKey("size");
  }

  @Test
  void aScriptThatFailsRaisesAnIncidentAndRunsOnceTheVariableIsThere() {
    TestMember leader = leader();
    deployed(
        deploy(
            leader,
            "score.bpmn",
            xml(
                Bpmn.createExecutableProcess("score")
                    .startEvent()
                    .scriptTask(
                        "sum",
                        t -> t.zeebeExpression("assert(x, x != null) + 1").zeebeResultVariable("y"))
                    .serviceTask("after", t -> t.zeebeJobType("after"))
                    .endEvent()
                    .done())));
    long instanceKey = create(leader, "score", "{}").key();
    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
    assertThat(incident.errorMessage).contains("the script of 'sum'");

    setVariables(leader, instanceKey, "{\"x\": 41}", false);
    resolveIncident(leader, lastKeyOf(IncidentIntent.CREATED));
    JobBatchValue after = activateWhenAvailable(leader, "after", List.of("y"));
    assertThat(variablesOf(after)).isEqualTo(Map.of("y", 42L));
  }

  @Test
  void jobBasedScriptSendAndBusinessRuleTasksAndMessageThrowEventsWaitForTheirJobs() {
    TestMember leader = leader();
    deployed(
        deploy(
            leader,
            "jobs.bpmn",
            xml(
                Bpmn.createExecutableProcess("jobs")
                    .startEvent()
                    .scriptTask("script", t -> t.zeebeJobType("run-script"))
                    .sendTask("send", t -> t.zeebeJobType("send-mail"))
                    .businessRuleTask("rules", t -> t.zeebeJobType("rules"))
                    .intermediateThrowEvent(
                        "notify", e -> e.message("notice").zeebeJobType("notify"))
                    .endEvent("done", e -> e.message("finished").zeebeJobType("finish"))
                    .done())));
    create(leader, "jobs", "{}");
    for (String type : List.of("run-script", "send-mail", "rules", "notify", "finish")) {
      completeJob(leader, awaitJob(leader, type), "{\"" + type.replace('-', '_') + "\": 1}");
    }
    await(() -> lifecycle().contains("jobs " + COMPLETED), "the process to complete");
    assertThat(lifecycle()).containsSubsequence("notify " + COMPLETED, "done " + COMPLETED);
  }

  @Test
  void invalidTaskDefinitionsAreRefusedNamingTheElement() {
    TestMember leader = leader();
    BpmnModelInstance camundaUserTask =
        Bpmn.createExecutableProcess("p")
            .startEvent()
            .userTask("approve", t -> t.zeebeUserTask().zeebeDueDate("next week"))
            .endEvent()
            .done();
    Answer userTask = deploy(leader, "user.bpmn", xml(camundaUserTask));
    assertThat(userTask.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(userTask.reason()).contains("'approve'").contains("'next week'");

    BpmnModelInstance badScript =
        Bpmn.createExecutableProcess("p")
            .startEvent()
            .scriptTask("calc", t -> t.zeebeExpression("1 +").zeebeResultVariable("r"))
            .endEvent()
            .done();
    Answer script = deploy(leader, "script.bpmn", xml(badScript));
    assertThat(script.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(script.reason()).contains("'calc'");

    BpmnModelInstance noJob =
        Bpmn.createExecutableProcess("p").startEvent().sendTask("mail").endEvent().done();
    Answer send = deploy(leader, "send.bpmn", xml(noJob));
    assertThat(send.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(send.reason()).contains("'mail'");

    BpmnModelInstance badAssignee =
        Bpmn.createExecutableProcess("p")
            .startEvent()
            .userTask("review", t -> t.zeebeCandidateGroupsExpression("[\"a\""))
            .endEvent()
            .done();
    Answer assignee = deploy(leader, "assignee.bpmn", xml(badAssignee));
    assertThat(assignee.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(assignee.reason()).contains("'review'");
  }
}

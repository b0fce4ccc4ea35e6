package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.ModificationIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.UserTaskValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Camunda user tasks ({@code zeebe:userTask}): created with their evaluated properties when their
 * element is entered, assigned, claimed, updated and completed by commands (each rejected with
 * NOT_FOUND for an unknown task and INVALID_STATE where it does not apply), canceled with their
 * element, moved by a migration. After each test a new member replays the log and must reach the
 * leader's state (WorkflowTestBase).
 */
class UserTasksTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;

  /** A process with one Camunda user task "check", then a job "after" that shows the variables. */
  private static BpmnModelInstance review() {
    return Bpmn.createExecutableProcess("review")
        .startEvent()
        .userTask(
            "check",
            t ->
                t.zeebeUserTask()
                    .zeebeAssigneeExpression("owner")
                    .zeebeCandidateGroups("sales, ops")
                    .zeebeCandidateUsersExpression("[owner, \"dora\"]")
                    .zeebeDueDate("2026-12-24T18:00:00+01:00")
                    .zeebeFollowUpDateExpression(
                        "date and time(\"2026-12-20T09:00:00@Europe/Berlin\")")
                    .zeebeTaskPriorityExpression("level * 10")
                    .zeebeExternalFormReference("https://forms.example/review")
                    .zeebeTaskHeader("team", "north"))
        .serviceTask("after", s -> s.zeebeJobType("after"))
        .endEvent()
        .done();
  }

  private static UserTaskValue valueOf(byte[] bytes) {
    return new UserTaskValue().readFrom(new UnsafeBuffer(bytes));
  }

  private UserTaskValue last(UserTaskIntent intent) {
    List<byte[]> values = eventValues(intent);
    assertThat(values).as("%s events", intent).isNotEmpty();
    return valueOf(values.get(values.size() - 1));
  }

  private long awaitTask() {
    await(() -> lastKeyOf(UserTaskIntent.CREATED) > 0, "a user task to be created");
    return lastKeyOf(UserTaskIntent.CREATED);
  }

  private static Answer assign(TestMember member, long key, String assignee, String action) {
    UserTaskValue assignment = new UserTaskValue();
    assignment.assignee = assignee;
    assignment.action = action;
    return member.awaitAnswer(member.send(UserTaskIntent.ASSIGN, key, assignment));
  }

  private static Answer claim(TestMember member, long key, String assignee) {
    UserTaskValue claim = new UserTaskValue();
    claim.assignee = assignee;
    return member.awaitAnswer(member.send(UserTaskIntent.CLAIM, key, claim));
  }

  private static Answer complete(TestMember member, long key, String variables, String action) {
    UserTaskValue completion = new UserTaskValue();
    completion.variables = variables.getBytes(StandardCharsets.UTF_8);
    completion.action = action;
    return member.awaitAnswer(member.send(UserTaskIntent.COMPLETE, key, completion));
  }

  private static void accepted(Answer answer) {
    assertThat(answer.rejection()).as("%s", answer.reason()).isEqualTo(RejectionType.NONE);
  }

  private static List<String> names(UserTaskIntent... intents) {
    List<String> names = new ArrayList<>();
    for (UserTaskIntent intent : intents) {
      names.add(intent.name());
    }
    return names;
  }

  @Test
  void aTaskIsCreatedWithItsEvaluatedPropertiesAndTheElementWaitsForIt() {
    TestMember leader = leader();
    deployed(deploy(leader, "review.bpmn", xml(review())));
    create(leader, "review", "{\"owner\": \"anna\", \"level\": 8}");
    long key = awaitTask();

    UserTaskValue created = last(UserTaskIntent.CREATED);
    assertThat(created.assignee).isEqualTo("anna");
    assertThat(created.candidateGroups).containsExactly("sales", "ops");
    assertThat(created.candidateUsers).containsExactly("anna", "dora");
    assertThat(created.dueDate).isEqualTo("2026-12-24T18:00:00+01:00");
    assertThat(created.followUpDate).isEqualTo("2026-12-20T09:00:00+01:00");
    assertThat(created.priority).isEqualTo(80);
    assertThat(created.externalFormReference).isEqualTo("https://forms.example/review");
    assertThat(created.formKey).isEqualTo(-1);
    assertThat(JsonDocuments.toJava(created.customHeaders)).isEqualTo(Map.of("team", "north"));
    assertThat(created.elementId).isEqualTo("check");
    assertThat(created.bpmnProcessId).isEqualTo("review");
    assertThat(created.elementInstanceKey)
        .isEqualTo(elementKey("check", ProcessInstanceIntent.ELEMENT_ACTIVATED));
    assertThat(created.creationTimestamp).isPositive();
    assertThat(lastKeyOf(UserTaskIntent.CREATING)).isEqualTo(key);
    assertThat(lifecycle()).doesNotContain("check " + COMPLETED);
    assertThat(activate(leader, "after", 1).jobs).as("the instance waits at the task").isEmpty();
  }

  @Test
  void aTaskIsAssignedClaimedUpdatedAndCompletedAndItsVariablesReachTheInstance() {
    TestMember leader = leader();
    deployed(deploy(leader, "review.bpmn", xml(review())));
    create(leader, "review", "{\"owner\": \"anna\", \"level\": 2}");
    long key = awaitTask();

    accepted(assign(leader, key, "bob", ""));
    assertThat(last(UserTaskIntent.ASSIGNED).assignee).isEqualTo("bob");
    assertThat(last(UserTaskIntent.ASSIGNED).action).isEqualTo("assign");

    Answer taken = claim(leader, key, "carol");
    assertThat(taken.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(taken.reason()).contains(Long.toString(key)).contains("assigned to 'bob'");
    accepted(claim(leader, key, "bob")); // its own assignee may claim it again

    accepted(assign(leader, key, "", ""));
    assertThat(last(UserTaskIntent.ASSIGNED).assignee).isEmpty();
    assertThat(last(UserTaskIntent.ASSIGNED).action).isEqualTo("unassign");
    accepted(claim(leader, key, "carol"));
    assertThat(last(UserTaskIntent.CLAIMING).assignee).isEqualTo("carol");
    assertThat(last(UserTaskIntent.ASSIGNED).action).isEqualTo("claim");

    UserTaskValue update = new UserTaskValue();
    update.changed.addAll(List.of(UserTaskValue.PRIORITY, UserTaskValue.CANDIDATE_USERS));
    update.priority = 90;
    update.candidateUsers.add("erik");
    update.action = "escalate";
    accepted(leader.awaitAnswer(leader.send(UserTaskIntent.UPDATE, key, update)));
    UserTaskValue updated = last(UserTaskIntent.UPDATED);
    assertThat(updated.priority).isEqualTo(90);
    assertThat(updated.candidateUsers).containsExactly("erik");
    assertThat(updated.candidateGroups).as("not in the changeset").containsExactly("sales", "ops");
    assertThat(updated.changed).containsExactly("priority", "candidateUsersList");
    assertThat(updated.action).isEqualTo("escalate");
    assertThat(updated.assignee).isEqualTo("carol");

    UserTaskValue clearDate = new UserTaskValue();
    clearDate.changed.add(UserTaskValue.DUE_DATE);
    accepted(leader.awaitAnswer(leader.send(UserTaskIntent.UPDATE, key, clearDate)));
    assertThat(last(UserTaskIntent.UPDATED).dueDate).isEmpty();
    assertThat(last(UserTaskIntent.UPDATED).priority).isEqualTo(90);

    accepted(complete(leader, key, "{\"approved\": true, \"owner\": \"carol\"}", "approve"));
    UserTaskValue completing = last(UserTaskIntent.COMPLETING);
    assertThat(completing.action).isEqualTo("approve");
    assertThat(JsonDocuments.toJava(completing.variables))
        .isEqualTo(Map.of("approved", true, "owner", "carol"));
    assertThat(last(UserTaskIntent.COMPLETED).variables).as("not repeated").isEmpty();
    JobBatchValue after = activateWhenAvailable(leader, "after", List.of());
    assertThat(JsonDocuments.toJava(after.jobs.get(0).variables))
        .isEqualTo(Map.of("approved", true, "owner", "carol", "level", 2L));
    assertThat(lifecycle()).contains("check " + COMPLETED);

    assertThat(userTaskIntents())
        .containsExactlyElementsOf(
            names(
                UserTaskIntent.CREATING,
                UserTaskIntent.CREATED,
                UserTaskIntent.ASSIGNING,
                UserTaskIntent.ASSIGNED,
                UserTaskIntent.CLAIMING,
                UserTaskIntent.ASSIGNED,
                UserTaskIntent.ASSIGNING,
                UserTaskIntent.ASSIGNED,
                UserTaskIntent.CLAIMING,
                UserTaskIntent.ASSIGNED,
                UserTaskIntent.UPDATING,
                UserTaskIntent.UPDATED,
                UserTaskIntent.UPDATING,
                UserTaskIntent.UPDATED,
                UserTaskIntent.COMPLETING,
                UserTaskIntent.COMPLETED));
    Answer again = complete(leader, key, "", "");
    assertThat(again.rejection()).as("a completed task is gone").isEqualTo(RejectionType.NOT_FOUND);
  }

  /** The user task events of the log, in order. */
  private List<String> userTaskIntents() {
    List<String> intents = new ArrayList<>();
    forEachUserTaskEvent((intent, key) -> intents.add(intent.name()));
    return intents;
  }

  /** The keys of the tasks created, in order. */
  private List<Long> createdTaskKeys() {
    List<Long> keys = new ArrayList<>();
    forEachUserTaskEvent(
        (intent, key) -> {
          if (intent == UserTaskIntent.CREATED) {
            keys.add(key);
          }
        });
    return keys;
  }

  private void forEachUserTaskEvent(BiConsumer<UserTaskIntent, Long> visitor) {
    RecordBatch batch = new RecordBatch();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.isEvent() && record.intent() instanceof UserTaskIntent intent) {
          visitor.accept(intent, record.key());
        }
      }
    }
  }

  @Test
  void badCommandsAreRejectedNamingWhatIsWrong() {
    TestMember leader = leader();
    deployed(deploy(leader, "review.bpmn", xml(review())));
    create(leader, "review", "{\"owner\": \"anna\", \"level\": 1}");
    long key = awaitTask();

    Answer unknown = assign(leader, key + 1000, "bob", "");
    assertThat(unknown.rejection()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(unknown.reason()).contains(Long.toString(key + 1000));
    Answer nobody = claim(leader, key, "");
    assertThat(nobody.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    UserTaskValue tooHigh = new UserTaskValue();
    tooHigh.changed.add(UserTaskValue.PRIORITY);
    tooHigh.priority = 101;
    Answer priority = leader.awaitAnswer(leader.send(UserTaskIntent.UPDATE, key, tooHigh));
    assertThat(priority.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(priority.reason()).contains("101");
    UserTaskValue badDate = new UserTaskValue();
    badDate.changed.add(UserTaskValue.DUE_DATE);
    badDate.dueDate = "tomorrow";
    Answer date = leader.awaitAnswer(leader.send(UserTaskIntent.UPDATE, key, badDate));
    assertThat(date.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(date.reason()).contains("'tomorrow'");
    UserTaskValue assignee = new UserTaskValue();
    assignee.changed.add("assignee");
    Answer attribute = leader.awaitAnswer(leader.send(UserTaskIntent.UPDATE, key, assignee));
    assertThat(attribute.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(attribute.reason()).contains("'assignee'");
    Answer notAnObject = complete(leader, key, "[1]", "");
    assertThat(notAnObject.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(countOf(UserTaskIntent.UPDATED)).isZero();
    assertThat(countOf(UserTaskIntent.COMPLETED)).isZero();
  }

  @Test
  void aPropertyThatDoesNotEvaluateRaisesAnIncidentAndResolvingItCreatesTheTask() {
    TestMember leader = leader();
    deployed(deploy(leader, "review.bpmn", xml(review())));
    create(leader, "review", "{\"owner\": \"anna\", \"level\": \"high\"}");
    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
    assertThat(incident.errorType).isEqualTo(ErrorType.EXTRACT_VALUE_ERROR);
    assertThat(incident.errorMessage).contains("priority").contains("'check'");
    assertThat(countOf(UserTaskIntent.CREATING)).isZero();

    long instance = elementKey("check", ProcessInstanceIntent.ELEMENT_ACTIVATING);
    accepted(setVariables(leader, instance, "{\"level\": 11}", false));
    accepted(resolveIncident(leader, lastKeyOf(IncidentIntent.CREATED)));
    await(() -> countOf(IncidentIntent.CREATED) == 2, "another incident: 11 * 10 is above 100");
    accepted(setVariables(leader, instance, "{\"level\": 3}", false));
    accepted(resolveIncident(leader, lastKeyOf(IncidentIntent.CREATED)));
    awaitTask();
    assertThat(last(UserTaskIntent.CREATED).priority).isEqualTo(30);
  }

  @Test
  void aTaskIsCanceledWithItsInstanceAndThenUnknown() {
    TestMember leader = leader();
    deployed(deploy(leader, "review.bpmn", xml(review())));
    long instance = create(leader, "review", "{\"owner\": \"anna\", \"level\": 1}").key();
    long key = awaitTask();

    accepted(
        leader.awaitAnswer(
            leader.send(ProcessInstanceIntent.CANCEL, instance, new ProcessInstanceValue())));
    await(() -> countOf(UserTaskIntent.CANCELED) == 1, "the task to be canceled");
    assertThat(countOf(UserTaskIntent.CANCELING)).isEqualTo(1);
    assertThat(last(UserTaskIntent.CANCELED).assignee).isEqualTo("anna");
    assertThat(lastKeyOf(UserTaskIntent.CANCELED)).isEqualTo(key);
    assertThat(assign(leader, key, "bob", "").rejection()).isEqualTo(RejectionType.NOT_FOUND);
  }

  @Test
  void aModificationTerminatesOneTaskAndActivatesAnother() {
    TestMember leader = leader();
    deployed(deploy(leader, "review.bpmn", xml(review())));
    long instance = create(leader, "review", "{\"owner\": \"anna\", \"level\": 1}").key();
    long first = awaitTask();
    long element = elementKey("check", ProcessInstanceIntent.ELEMENT_ACTIVATED);

    ProcessInstanceModificationValue modification = new ProcessInstanceModificationValue();
    modification.terminations.add(element);
    modification.activations.add(new ProcessInstanceModificationValue.Activation("check", -1));
    accepted(leader.awaitAnswer(leader.send(ModificationIntent.MODIFY, instance, modification)));
    await(() -> lastKeyOf(UserTaskIntent.CREATED) != first, "a second task");
    assertThat(lastKeyOf(UserTaskIntent.CANCELED)).isEqualTo(first);
    long second = lastKeyOf(UserTaskIntent.CREATED);
    accepted(complete(leader, second, "{\"done\": 1}", ""));
    JobBatchValue after = activateWhenAvailable(leader, "after", List.of("done"));
    assertThat(JsonDocuments.toJava(after.jobs.get(0).variables)).isEqualTo(Map.of("done", 1L));
  }

  @Test
  void aWaitingTaskMigratesToAnotherProcessesUserTask() {
    TestMember leader = leader();
    deployed(deploy(leader, "review.bpmn", xml(review())));
    long target =
        deployed(
                deploy(
                    leader,
                    "approve.bpmn",
                    xml(
                        Bpmn.createExecutableProcess("approval")
                            .startEvent()
                            .userTask("approve", t -> t.zeebeUserTask())
                            .endEvent("approved")
                            .done())))
            .processDefinitionKey();
    long jobBased =
        deployed(
                deploy(
                    leader,
                    "job.bpmn",
                    xml(
                        Bpmn.createExecutableProcess("job-approval")
                            .startEvent()
                            .userTask("approve")
                            .endEvent()
                            .done())))
            .processDefinitionKey();
    long instance = create(leader, "review", "{\"owner\": \"anna\", \"level\": 1}").key();
    long key = awaitTask();

    Answer otherKind =
        MigrateProcessInstanceTest.migrate(leader, instance, jobBased, "check", "approve");
    assertThat(otherKind.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(otherKind.reason()).contains("'zeebe user task'").contains("'job worker'");

    MigrateProcessInstanceTest.assertMigrated(
        MigrateProcessInstanceTest.migrate(leader, instance, target, "check", "approve"));
    UserTaskValue migrated = last(UserTaskIntent.MIGRATED);
    assertThat(lastKeyOf(UserTaskIntent.MIGRATED)).isEqualTo(key);
    assertThat(migrated.elementId).isEqualTo("approve");
    assertThat(migrated.bpmnProcessId).isEqualTo("approval");
    assertThat(migrated.processDefinitionKey).isEqualTo(target);
    assertThat(migrated.assignee).as("the task keeps its assignment").isEqualTo("anna");

    accepted(complete(leader, key, "", ""));
    await(() -> lifecycle().contains("approved " + COMPLETED), "the target's end event");
  }

  @Test
  void linkedFormsBadPrioritiesAndTaskListenersAreRefusedAtDeployment() {
    TestMember leader = leader();
    Answer linked =
        deploy(
            leader,
            "form.bpmn",
            xml(
                Bpmn.createExecutableProcess("form")
                    .startEvent()
                    .userTask("fill", t -> t.zeebeUserTask().zeebeFormId("invoice"))
                    .endEvent()
                    .done()));
    assertThat(linked.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(linked.reason()).contains("'fill'").contains("formId").contains("externalReference");
    Answer badPriority =
        deploy(
            leader,
            "priority.bpmn",
            xml(
                Bpmn.createExecutableProcess("priority")
                    .startEvent()
                    .userTask("fill", t -> t.zeebeUserTask().zeebeTaskPriority("200"))
                    .endEvent()
                    .done()));
    assertThat(badPriority.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(badPriority.reason()).contains("'fill'").contains("'200'");
    Answer listener =
        deploy(
            leader,
            "listener.bpmn",
            xml(
                Bpmn.createExecutableProcess("listener")
                    .startEvent()
                    .userTask(
                        "fill",
                        t -> t.zeebeUserTask().zeebeTaskListener(l -> l.completing().type("audit")))
                    .endEvent()
                    .done()));
    assertThat(listener.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(listener.reason()).contains("'fill'").contains("task listeners");
  }

  @Test
  void anInterruptingBoundaryEventCancelsTheTask() {
    TestMember leader = leader();
    deployed(
        deploy(
            leader,
            "escalation.bpmn",
            xml(
                Bpmn.createExecutableProcess("escalation")
                    .startEvent()
                    .userTask("decide", t -> t.zeebeUserTask().zeebeAssignee("anna"))
                    .boundaryEvent(
                        "escalate",
                        b -> b.message(m -> m.name("escalate").zeebeCorrelationKeyExpression("id")))
                    .endEvent("escalated")
                    .moveToActivity("decide")
                    .endEvent("decided")
                    .done())));
    create(leader, "escalation", "{\"id\": \"e-1\"}");
    long key = awaitTask();

    accepted(publish(leader, "escalate", "e-1", 60_000, "", "{}"));
    await(() -> lifecycle().contains("escalated " + COMPLETED), "the boundary event's path");
    assertThat(lastKeyOf(UserTaskIntent.CANCELED)).isEqualTo(key);
    assertThat(lifecycle()).doesNotContain("decided " + COMPLETED);
    Answer late = complete(leader, key, "", "");
    assertThat(late.rejection()).isEqualTo(RejectionType.NOT_FOUND);
  }

  @Test
  void inputMappingsFeedTheTasksPropertiesAndOutputMappingsReadItsCompletion() {
    TestMember leader = leader();
    deployed(
        deploy(
            leader,
            "sign.bpmn",
            xml(
                Bpmn.createExecutableProcess("signing")
                    .startEvent()
                    .userTask(
                        "sign",
                        t ->
                            t.zeebeUserTask()
                                .zeebeInputExpression("clerk", "who")
                                .zeebeAssigneeExpression("who")
                                .zeebeOutputExpression("approved", "signed"))
                    .serviceTask("after", s -> s.zeebeJobType("after"))
                    .endEvent()
                    .done())));
    create(leader, "signing", "{\"clerk\": \"olga\"}");
    long key = awaitTask();
    assertThat(last(UserTaskIntent.CREATED).assignee).isEqualTo("olga");

    accepted(complete(leader, key, "{\"approved\": true}", ""));
    JobBatchValue after = activateWhenAvailable(leader, "after", List.of());
    assertThat(JsonDocuments.toJava(after.jobs.get(0).variables))
        .as("the completion's variables are the task's own, for its output mapping")
        .isEqualTo(Map.of("clerk", "olga", "signed", true));
  }

  @Test
  void aMultiInstanceUserTaskMakesATaskPerItemAndGoesOnWhenAllAreCompleted() {
    TestMember leader = leader();
    deployed(
        deploy(
            leader,
            "votes.bpmn",
            xml(
                Bpmn.createExecutableProcess("votes")
                    .startEvent()
                    .userTask(
                        "vote",
                        t ->
                            t.zeebeUserTask()
                                .zeebeAssigneeExpression("voter")
                                .multiInstance(
                                    m ->
                                        m.parallel()
                                            .zeebeInputCollectionExpression("voters")
                                            .zeebeInputElement("voter")))
                    .serviceTask("after", s -> s.zeebeJobType("after"))
                    .endEvent()
                    .done())));
    create(leader, "votes", "{\"voters\": [\"ann\", \"bo\"]}");
    await(() -> countOf(UserTaskIntent.CREATED) == 2, "a task per voter");
    List<String> assignees = new ArrayList<>();
    for (byte[] bytes : eventValues(UserTaskIntent.CREATED)) {
      assignees.add(valueOf(bytes).assignee);
    }
    assertThat(assignees).containsExactlyInAnyOrder("ann", "bo");
    List<Long> keys = createdTaskKeys();
    accepted(complete(leader, keys.get(0), "", ""));
    assertThat(activate(leader, "after", 1).jobs).as("one task is still open").isEmpty();
    accepted(complete(leader, keys.get(1), "", ""));
    activateWhenAvailable(leader, "after", List.of());
  }
}

package io.tern.engine.exporter.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.value.BpmnElementType;
import io.camunda.zeebe.protocol.record.value.CompensationSubscriptionRecordValue;
import io.camunda.zeebe.protocol.record.value.DecisionEvaluationRecordValue;
import io.camunda.zeebe.protocol.record.value.DeploymentRecordValue;
import io.camunda.zeebe.protocol.record.value.EvaluatedDecisionValue;
import io.camunda.zeebe.protocol.record.value.MessageStartEventSubscriptionRecordValue;
import io.camunda.zeebe.protocol.record.value.ProcessEventRecordValue;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceMigrationRecordValue;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceModificationRecordValue;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceModificationRecordValue.ProcessInstanceModificationActivateInstructionValue;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceRecordValue;
import io.camunda.zeebe.protocol.record.value.ResourceDeletionRecordValue;
import io.camunda.zeebe.protocol.record.value.UserTaskRecordValue;
import io.camunda.zeebe.protocol.record.value.deployment.DecisionRecordValue;
import io.camunda.zeebe.protocol.record.value.deployment.DecisionRequirementsMetadataValue;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CompensationIntent;
import io.tern.engine.protocol.DecisionEvaluationIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.MessageStartEventSubscriptionIntent;
import io.tern.engine.protocol.MigrationIntent;
import io.tern.engine.protocol.ModificationIntent;
import io.tern.engine.protocol.ProcessEventIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ResourceDeletionIntent;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.workflow.value.DecisionEvaluationValue;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.MessageValue;
import io.tern.engine.workflow.value.ProcessInstanceMigrationValue;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import io.tern.engine.workflow.value.UserTaskValue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The value types the order run of {@link ZeebeRecordMapperTest} does not reach, each from a small
 * real run: decisions (deployed and evaluated), a message start event, a modification, a migration,
 * a deletion, compensation, a boundary event and a Camunda user task.
 */
class ZeebeRecordMapperScenariosTest {
  private static <T> T valueOf(Record<?> record) {
    @SuppressWarnings("unchecked")
    T value = (T) record.getValue();
    return value;
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = ZeebeRecordMapperScenariosTest.class.getResourceAsStream(name)) {
      return in.readAllBytes();
    }
  }

  @Test
  void aDecisionDeployedAndEvaluated(@TempDir Path dir) throws IOException {
    try (EngineRun run = new EngineRun(dir)) {
      DeploymentValue deployment = new DeploymentValue();
      deployment.resources.add(
          new DeploymentValue.Resource("discount.dmn", resource("/bpmn/order-discount.dmn")));
      EngineRun.accepted(run.send(DeploymentIntent.CREATE, -1, deployment));
      DeploymentRecordValue deployed = run.event(DeploymentIntent.CREATED);
      assertThat(deployed.getDecisionsMetadata())
          .extracting(DecisionRecordValue::getDecisionId)
          .containsExactlyInAnyOrder("customerTier", "order-discount");
      assertThat(deployed.getDecisionRequirementsMetadata()).hasSize(1);
      DecisionRequirementsMetadataValue graph = deployed.getDecisionRequirementsMetadata().get(0);
      assertThat(graph.getDecisionRequirementsId()).isEqualTo("order-discount-rules");
      assertThat(graph.getDecisionRequirementsName()).isEqualTo("Order discount rules");
      assertThat(graph.getDecisionRequirementsVersion()).isEqualTo(1);
      assertThat(graph.getResourceName()).isEqualTo("discount.dmn");
      DecisionRecordValue discount =
          deployed.getDecisionsMetadata().stream()
              .filter(d -> d.getDecisionId().equals("order-discount"))
              .findFirst()
              .orElseThrow();
      assertThat(discount.getDecisionRequirementsKey())
          .isEqualTo(graph.getDecisionRequirementsKey());
      assertThat(discount.getDeploymentKey()).isEqualTo(deployed.getDeploymentKey());

      DecisionEvaluationValue evaluate = new DecisionEvaluationValue();
      evaluate.decisionId = "order-discount";
      evaluate.variables =
          "{\"customer\": {\"yearsActive\": 6, \"totalSpent\": 20000}, \"order\": {\"total\": 150}}"
              .getBytes(StandardCharsets.UTF_8);
      EngineRun.accepted(run.send(DecisionEvaluationIntent.EVALUATE, -1, evaluate));
      Record<?> command = run.records(DecisionEvaluationIntent.EVALUATE, RecordType.COMMAND).get(0);
      assertThat(((DecisionEvaluationRecordValue) command.getValue()).getVariables())
          .containsKey("customer");

      DecisionEvaluationRecordValue evaluated = run.event(DecisionEvaluationIntent.EVALUATED);
      assertThat(evaluated.getDecisionId()).isEqualTo("order-discount");
      assertThat(evaluated.getDecisionName()).isEqualTo("Order discount");
      assertThat(evaluated.getDecisionKey()).isEqualTo(discount.getDecisionKey());
      assertThat(evaluated.getDecisionVersion()).isEqualTo(1);
      assertThat(evaluated.getDecisionRequirementsId()).isEqualTo("order-discount-rules");
      assertThat(evaluated.getDecisionRequirementsKey())
          .isEqualTo(graph.getDecisionRequirementsKey());
      assertThat(evaluated.getDecisionOutput()).contains("0.15").contains("gold customer");
      assertThat(evaluated.getEvaluationFailureMessage()).isEmpty();
      assertThat(evaluated.getProcessInstanceKey()).isEqualTo(-1);
      assertThat(evaluated.getEvaluatedDecisions())
          .extracting(EvaluatedDecisionValue::getDecisionId)
          .containsExactly("customerTier", "order-discount");
      EvaluatedDecisionValue tier = evaluated.getEvaluatedDecisions().get(0);
      assertThat(tier.getDecisionOutput()).isEqualTo("\"gold\"");
      assertThat(tier.getEvaluatedInputs())
          .extracting(i -> i.getInputId() + "=" + i.getInputValue())
          .containsExactly("Input_years=6", "Input_spent=20000");
      assertThat(tier.getMatchedRules()).hasSize(1);
      assertThat(tier.getMatchedRules().get(0).getRuleId()).isEqualTo("Rule_gold");
      assertThat(tier.getMatchedRules().get(0).getRuleIndex()).isEqualTo(1);
      assertThat(tier.getMatchedRules().get(0).getEvaluatedOutputs())
          .extracting(o -> o.getOutputName() + "=" + o.getOutputValue())
          .containsExactly("tier=\"gold\"");
    }
  }

  @Test
  void aMessageStartsAnInstance(@TempDir Path dir) {
    try (EngineRun run = new EngineRun(dir)) {
      run.deploy(
          Bpmn.createExecutableProcess("placed")
              .startEvent("start")
              .message("order-placed")
              .endEvent("end")
              .done());
      MessageValue message = new MessageValue();
      message.name = "order-placed";
      message.correlationKey = "o-9";
      message.timeToLiveMs = 0;
      message.variables = "{\"orderId\": \"o-9\"}".getBytes(StandardCharsets.UTF_8);
      EngineRun.accepted(run.send(MessageIntent.PUBLISH, -1, message));
      run.awaitRecord(MessageStartEventSubscriptionIntent.CORRELATED);
      MessageStartEventSubscriptionRecordValue started =
          run.event(MessageStartEventSubscriptionIntent.CORRELATED);
      assertThat(started.getBpmnProcessId()).isEqualTo("placed");
      assertThat(started.getStartEventId()).isEqualTo("start");
      assertThat(started.getMessageName()).isEqualTo("order-placed");
      assertThat(started.getCorrelationKey()).isEqualTo("o-9");
      assertThat(started.getMessageKey())
          .isEqualTo(run.records(MessageIntent.PUBLISHED, RecordType.EVENT).get(0).getKey());
      assertThat(started.getProcessInstanceKey()).isPositive();
      assertThat(started.getProcessDefinitionKey()).isPositive();
      assertThat(started.getVariables()).containsExactly(entry("orderId", "o-9"));
    }
  }

  private static BpmnModelInstance twoTasks(String second) {
    return Bpmn.createExecutableProcess("repair")
        .startEvent("start")
        .serviceTask("a", t -> t.zeebeJobType("a"))
        .serviceTask(second, t -> t.zeebeJobType(second))
        .endEvent("end")
        .done();
  }

  @Test
  void aModificationTerminatesAndActivatesWithVariables(@TempDir Path dir) {
    try (EngineRun run = new EngineRun(dir)) {
      run.deploy(twoTasks("b"));
      long instance = run.create("repair", "{}").key();
      run.activate("a");
      long a =
          run.records(ProcessInstanceIntent.ELEMENT_ACTIVATED, RecordType.EVENT).stream()
              .filter(r -> ((ProcessInstanceRecordValue) r.getValue()).getElementId().equals("a"))
              .findFirst()
              .orElseThrow()
              .getKey();
      ProcessInstanceModificationValue modification = new ProcessInstanceModificationValue();
      modification.terminations.add(a);
      modification.activations.add(new ProcessInstanceModificationValue.Activation("b", -1));
      modification.variables.add(
          new ProcessInstanceModificationValue.Variables(
              0, "", "{\"fixed\": true}".getBytes(StandardCharsets.UTF_8)));
      modification.variables.add(
          new ProcessInstanceModificationValue.Variables(
              0, "b", "{\"note\": \"x\"}".getBytes(StandardCharsets.UTF_8)));
      EngineRun.accepted(run.send(ModificationIntent.MODIFY, instance, modification));

      ProcessInstanceModificationRecordValue modified = run.event(ModificationIntent.MODIFIED);
      assertThat(modified.getProcessInstanceKey()).isEqualTo(instance);
      assertThat(modified.getTerminateInstructions())
          .extracting(t -> t.getElementInstanceKey())
          .containsExactly(a);
      assertThat(modified.getActivateInstructions()).hasSize(1);
      ProcessInstanceModificationActivateInstructionValue activation =
          modified.getActivateInstructions().get(0);
      assertThat(activation.getElementId()).isEqualTo("b");
      assertThat(activation.getAncestorScopeKey()).isEqualTo(-1);
      assertThat(activation.getAncestorScopeKeys()).containsExactly(instance);
      assertThat(activation.getVariableInstructions())
          .as("Tern's MODIFIED leaves them out")
          .isEmpty();
      assertThat(modified.getAncestorScopeKeys()).containsExactly(instance);

      ProcessInstanceModificationRecordValue command =
          valueOf(run.records(ModificationIntent.MODIFY, RecordType.COMMAND).get(0));
      ProcessInstanceModificationActivateInstructionValue asked =
          command.getActivateInstructions().get(0);
      assertThat(asked.getAncestorScopeKeys()).isEmpty();
      assertThat(asked.getVariableInstructions())
          .extracting(v -> v.getElementId() + " " + v.getVariables())
          .containsExactly(" {fixed=true}", "b {note=x}");
    }
  }

  @Test
  void aMigrationNamesItsTargetAndMappings(@TempDir Path dir) {
    try (EngineRun run = new EngineRun(dir)) {
      run.deploy(twoTasks("b"));
      long instance = run.create("repair", "{}").key();
      run.activate("a");
      Answer v2 = run.deploy(twoTasks("c"));
      long target =
          new DeploymentValue()
              .<DeploymentValue>readFrom(new UnsafeBuffer(v2.value()))
              .processes
              .get(0)
              .processDefinitionKey();
      ProcessInstanceMigrationValue migration = new ProcessInstanceMigrationValue();
      migration.targetProcessDefinitionKey = target;
      migration.mappings.add(new ProcessInstanceMigrationValue.Mapping("a", "a"));
      EngineRun.accepted(run.send(MigrationIntent.MIGRATE, instance, migration));

      ProcessInstanceMigrationRecordValue migrated = run.event(MigrationIntent.MIGRATED);
      assertThat(migrated.getProcessInstanceKey()).isEqualTo(instance);
      assertThat(migrated.getTargetProcessDefinitionKey()).isEqualTo(target);
      assertThat(migrated.getMappingInstructions())
          .extracting(m -> m.getSourceElementId() + "->" + m.getTargetElementId())
          .containsExactly("a->a");
      List<Record<?>> moved = run.records(ProcessInstanceIntent.ELEMENT_MIGRATED, RecordType.EVENT);
      assertThat(moved)
          .extracting(r -> ((ProcessInstanceRecordValue) r.getValue()).getProcessDefinitionKey())
          .containsOnly(target);
      assertThat(moved)
          .extracting(r -> ((ProcessInstanceRecordValue) r.getValue()).getVersion())
          .containsOnly(2);
    }
  }

  @Test
  void aDeletedProcessNamesItsKey(@TempDir Path dir) {
    try (EngineRun run = new EngineRun(dir)) {
      Answer deployed = run.deploy(twoTasks("b"));
      long key =
          new DeploymentValue()
              .<DeploymentValue>readFrom(new UnsafeBuffer(deployed.value()))
              .processes
              .get(0)
              .processDefinitionKey();
      ResourceDeletionValue deletion = new ResourceDeletionValue();
      deletion.resourceKey = key;
      EngineRun.accepted(run.send(ResourceDeletionIntent.DELETE, -1, deletion));
      ResourceDeletionRecordValue deleted = run.event(ResourceDeletionIntent.DELETED);
      assertThat(deleted.getResourceKey()).isEqualTo(key);
    }
  }

  @Test
  void compensationAndABoundaryEvent(@TempDir Path dir) {
    try (EngineRun run = new EngineRun(dir)) {
      run.deploy(
          Bpmn.createExecutableProcess("trip")
              .startEvent()
              .serviceTask("book", t -> t.zeebeJobType("book"))
              .boundaryEvent("comp-book")
              .compensation(c -> c.serviceTask("undo-book", t -> t.zeebeJobType("undo-book")))
              .moveToActivity("book")
              .serviceTask("pay")
              .zeebeJobType("pay")
              .boundaryEvent("late", b -> b.timerWithDuration("PT0.05S"))
              .intermediateThrowEvent("undo")
              .compensateEventDefinition()
              .compensateEventDefinitionDone()
              .endEvent("end")
              .done());
      long instance = run.create("trip", "{}").key();
      run.completeJob("book", "{\"booking\": \"B-1\"}");
      run.completeJob("undo-book", "{}");
      run.awaitRecord(
          ProcessInstanceIntent.ELEMENT_COMPLETED,
          r ->
              ((ProcessInstanceRecordValue) r.getValue()).getBpmnElementType()
                  == BpmnElementType.PROCESS);

      CompensationSubscriptionRecordValue created = run.event(CompensationIntent.CREATED);
      assertThat(created.getProcessInstanceKey()).isEqualTo(instance);
      assertThat(created.getCompensableActivityId()).isEqualTo("book");
      assertThat(created.getCompensationHandlerId()).isEqualTo("undo-book");
      assertThat(created.getCompensableActivityScopeKey()).isEqualTo(instance);
      assertThat(created.getThrowEventInstanceKey()).isEqualTo(-1);
      CompensationSubscriptionRecordValue triggered = run.event(CompensationIntent.TRIGGERED);
      assertThat(triggered.getThrowEventId()).isEqualTo("undo");
      assertThat(triggered.getThrowEventInstanceKey()).isPositive();
      assertThat(triggered.getCompensableActivityInstanceKey())
          .isEqualTo(created.getCompensableActivityInstanceKey());
      CompensationSubscriptionRecordValue completed = run.event(CompensationIntent.COMPLETED);
      assertThat(completed.getCompensationHandlerInstanceKey()).isPositive();

      ProcessEventRecordValue late = run.event(ProcessEventIntent.TRIGGERED);
      assertThat(late.getTargetElementId()).isEqualTo("late");
      assertThat(late.getProcessInstanceKey()).isEqualTo(instance);
      assertThat(late.getScopeKey())
          .isEqualTo(
              run.records(ProcessInstanceIntent.ELEMENT_ACTIVATED, RecordType.EVENT).stream()
                  .filter(
                      r -> ((ProcessInstanceRecordValue) r.getValue()).getElementId().equals("pay"))
                  .findFirst()
                  .orElseThrow()
                  .getKey());
    }
  }

  @Test
  void aCamundaUserTaskCreatedClaimedAndCompleted(@TempDir Path dir) {
    try (EngineRun run = new EngineRun(dir)) {
      EngineRun.accepted(
          run.deploy(
              Bpmn.createExecutableProcess("approval")
                  .startEvent()
                  .userTask(
                      "approve",
                      t ->
                          t.zeebeUserTask()
                              .zeebeCandidateGroups("clerks")
                              .zeebeDueDate("2026-12-24T18:00:00Z")
                              .zeebeExternalFormReference("https://forms.example/approve")
                              .zeebeTaskHeader("desk", "7"))
                  .endEvent()
                  .done()));
      long instance = run.create("approval", "{}").key();
      run.awaitRecord(UserTaskIntent.CREATED);
      Record<?> created = run.records(UserTaskIntent.CREATED, RecordType.EVENT).get(0);
      UserTaskRecordValue task = valueOf(created);
      assertThat(created.getValueType()).isEqualTo(ValueType.USER_TASK);
      assertThat(task.getUserTaskKey()).isEqualTo(created.getKey());
      assertThat(task.getProcessInstanceKey()).isEqualTo(instance);
      assertThat(task.getElementId()).isEqualTo("approve");
      assertThat(task.getBpmnProcessId()).isEqualTo("approval");
      assertThat(task.getCandidateGroupsList()).containsExactly("clerks");
      assertThat(task.getDueDate()).isEqualTo("2026-12-24T18:00:00Z");
      assertThat(task.getExternalFormReference()).isEqualTo("https://forms.example/approve");
      assertThat(task.getFormKey()).isEqualTo(-1);
      assertThat(task.getPriority()).isEqualTo(50);
      assertThat(task.getCustomHeaders()).containsExactly(entry("desk", "7"));
      assertThat(task.getTenantId()).isEqualTo("<default>");

      UserTaskValue claim = new UserTaskValue();
      claim.assignee = "ann";
      EngineRun.accepted(run.send(UserTaskIntent.CLAIM, created.getKey(), claim));
      UserTaskValue completion = new UserTaskValue();
      completion.variables = "{\"ok\": true}".getBytes(StandardCharsets.UTF_8);
      EngineRun.accepted(run.send(UserTaskIntent.COMPLETE, created.getKey(), completion));
      run.awaitRecord(UserTaskIntent.COMPLETED);
      List<String> intents =
          run.mapAll().stream()
              .filter(m -> m.zeebe() != null && m.zeebe().getValueType() == ValueType.USER_TASK)
              .map(m -> m.zeebe().getRecordType() + " " + m.zeebe().getIntent())
              .toList();
      assertThat(intents)
          .containsExactly(
              "EVENT CREATING",
              "EVENT CREATED",
              "COMMAND CLAIM",
              "EVENT ASSIGNING",
              "EVENT ASSIGNED",
              "COMMAND COMPLETE",
              "EVENT COMPLETING",
              "EVENT COMPLETED");
      UserTaskRecordValue completing = run.event(UserTaskIntent.COMPLETING);
      assertThat(completing.getAssignee()).isEqualTo("ann");
      assertThat(completing.getAction()).isEqualTo("complete");
      assertThat(completing.getVariables()).containsExactly(entry("ok", true));
      UserTaskRecordValue completed = run.event(UserTaskIntent.COMPLETED);
      assertThat(completed.getAction()).isEqualTo("complete");
      assertThat(completed.getVariables()).as("in COMPLETING and VARIABLE records").isEmpty();
    }
  }
}

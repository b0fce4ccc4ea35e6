package io.tern.engine.exporter.records;

import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceMigrationMappingInstructionValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceMigrationRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceModificationActivateInstructionValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceModificationRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceModificationTerminateInstructionValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceModificationVariableInstructionValue;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceMigrationRecordValue.ProcessInstanceMigrationMappingInstructionValue;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceModificationRecordValue.ProcessInstanceModificationActivateInstructionValue;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceModificationRecordValue.ProcessInstanceModificationTerminateInstructionValue;
import io.camunda.zeebe.protocol.record.value.ProcessInstanceModificationRecordValue.ProcessInstanceModificationVariableInstructionValue;
import io.tern.engine.workflow.value.ProcessInstanceMigrationValue;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.agrona.DirectBuffer;

/** The values that rework a running instance: modification and migration. */
final class ReworkValues {
  private final ProcessInstanceModificationValue modification =
      new ProcessInstanceModificationValue();
  private final ProcessInstanceMigrationValue migration = new ProcessInstanceMigrationValue();

  /**
   * Zeebe's MODIFIED event names, for each activation and for all of them, the ancestor scope
   * instances involved. Tern's names where each element was activated and the scope instances it
   * created on the way; the ancestors are that chain, up to the first scope that already existed,
   * and the process instance. (The command, which has neither, has none.)
   */
  RecordValue modification(DirectBuffer bytes) {
    ProcessInstanceModificationValue value =
        Values.read(modification, ProcessInstanceModificationValue::new, bytes);
    Map<Long, Long> createdIn = new HashMap<>();
    value.createdScopes.forEach(
        scope -> createdIn.put(scope.elementInstanceKey(), scope.flowScopeKey()));
    List<ProcessInstanceModificationTerminateInstructionValue> terminations = new ArrayList<>();
    for (long key : value.terminations) {
      terminations.add(
          ImmutableProcessInstanceModificationTerminateInstructionValue.builder()
              .withElementInstanceKey(key)
              .build());
    }
    List<ProcessInstanceModificationActivateInstructionValue> activations = new ArrayList<>();
    Set<Long> allAncestors = new LinkedHashSet<>();
    for (int i = 0; i < value.activations.size(); i++) {
      ProcessInstanceModificationValue.Activation activation = value.activations.get(i);
      Set<Long> ancestors =
          ancestors(activation.flowScopeKey(), createdIn, value.processInstanceKey);
      allAncestors.addAll(ancestors);
      activations.add(
          ImmutableProcessInstanceModificationActivateInstructionValue.builder()
              .withElementId(activation.elementId())
              .withAncestorScopeKey(activation.ancestorScopeKey())
              .withVariableInstructions(variablesOf(value, i))
              .withAncestorScopeKeys(ancestors)
              .build());
    }
    return ImmutableProcessInstanceModificationRecordValue.builder()
        .withProcessInstanceKey(value.processInstanceKey)
        .withTerminateInstructions(terminations)
        .withActivateInstructions(activations)
        .withAncestorScopeKeys(allAncestors)
        .withTenantId(Values.TENANT)
        .build();
  }

  private static Set<Long> ancestors(
      long flowScopeKey, Map<Long, Long> createdIn, long processInstanceKey) {
    Set<Long> ancestors = new LinkedHashSet<>();
    if (flowScopeKey < 0) {
      return ancestors;
    }
    for (long key = flowScopeKey; key >= 0 && ancestors.add(key); ) {
      key = createdIn.getOrDefault(key, -1L);
    }
    ancestors.add(processInstanceKey);
    return ancestors;
  }

  /** Zeebe's variable instruction with an empty element id sets the process instance's, as Tern. */
  private static List<ProcessInstanceModificationVariableInstructionValue> variablesOf(
      ProcessInstanceModificationValue value, int activation) {
    List<ProcessInstanceModificationVariableInstructionValue> instructions = new ArrayList<>();
    for (ProcessInstanceModificationValue.Variables variables : value.variables) {
      if (variables.activation() == activation) {
        instructions.add(
            ImmutableProcessInstanceModificationVariableInstructionValue.builder()
                .withElementId(variables.scopeId())
                .withVariables(Documents.variables(variables.document()))
                .build());
      }
    }
    return instructions;
  }

  RecordValue migration(DirectBuffer bytes) {
    ProcessInstanceMigrationValue value =
        Values.read(migration, ProcessInstanceMigrationValue::new, bytes);
    List<ProcessInstanceMigrationMappingInstructionValue> mappings = new ArrayList<>();
    for (ProcessInstanceMigrationValue.Mapping mapping : value.mappings) {
      mappings.add(
          ImmutableProcessInstanceMigrationMappingInstructionValue.builder()
              .withSourceElementId(mapping.sourceElementId())
              .withTargetElementId(mapping.targetElementId())
              .build());
    }
    return ImmutableProcessInstanceMigrationRecordValue.builder()
        .withProcessInstanceKey(value.processInstanceKey)
        .withTargetProcessDefinitionKey(value.targetProcessDefinitionKey)
        .withMappingInstructions(mappings)
        .build();
  }
}

package io.tern.engine.workflow.processing.variables;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.VariableDocumentIntent;
import io.tern.engine.protocol.VariableIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.value.VariableValue;

/** The appliers of variable events. */
public final class VariableAppliers {
  private final WorkflowState state;
  private final VariableValue variable = new VariableValue();

  private VariableAppliers(WorkflowState state) {
    this.state = state;
  }

  public static void register(RecordProcessors on, WorkflowState state) {
    new VariableAppliers(state).registerAll(on);
  }

  private void registerAll(RecordProcessors on) {
    on.onEvent(VariableIntent.CREATED, this::variableSet)
        .onEvent(VariableIntent.UPDATED, this::variableSet)
        // The variables' own events change the state; the document only says who asked.
        .onEvent(VariableDocumentIntent.UPDATED, event -> {});
  }

  private void variableSet(LoggedRecord event) {
    variable.readFrom(event.value());
    state.variables().put(variable.scopeKey, variable.name, variable.value);
  }
}

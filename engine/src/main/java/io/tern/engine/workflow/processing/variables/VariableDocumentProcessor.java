package io.tern.engine.workflow.processing.variables;

import io.tern.engine.processor.CommandProcessor;
import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.VariableDocumentIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.value.VariableDocumentValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.Map;

/**
 * SetVariables: a JSON object's entries set on an active element instance, either in its own scope
 * (local) or each where a job completion would put it (the nearest scope upwards that has it, else
 * the process instance).
 */
public final class VariableDocumentProcessor implements CommandProcessor {
  private final ProcessingContext context;
  private final ElementInstanceState instances;
  private final VariableBehavior variables;
  private final VariableDocumentValue document = new VariableDocumentValue();
  private final ElementInstance instance = new ElementInstance();

  public VariableDocumentProcessor(
      ProcessingContext context, WorkflowState state, Behaviors behaviors) {
    this.context = context;
    this.instances = state.instances();
    this.variables = behaviors.variables();
  }

  @Override
  public void process(LoggedRecord command, ProcessingResult result) {
    document.readFrom(command.value());
    long scopeKey = document.scopeKey;
    if (!instances.get(scopeKey, instance)
        || instance.state == ProcessInstanceIntent.ELEMENT_TERMINATING) {
      result.reject(
          RejectionType.NOT_FOUND,
          "no active element instance with key " + scopeKey + " to set variables on");
      return;
    }
    Map<String, byte[]> values;
    try {
      values = JsonDocuments.variables(document.variables);
    } catch (InvalidVariablesException e) {
      result.reject(RejectionType.INVALID_ARGUMENT, e.getMessage());
      return;
    }
    // The event leaves the document out: the VARIABLE events below carry each variable, and
    // repeated here they would halve the largest document SetVariables can carry.
    document.variables = new byte[0];
    result.appendEvent(context.nextKey(), VariableDocumentIntent.UPDATED, document);
    result.respondWithLastEvent();
    long processInstanceKey = instance.value.processInstanceKey;
    long processDefinitionKey = instance.value.processDefinitionKey;
    if (document.local) {
      variables.setLocal(result, scopeKey, processInstanceKey, processDefinitionKey, values);
    } else {
      variables.setPropagating(result, scopeKey, processInstanceKey, processDefinitionKey, values);
    }
  }
}

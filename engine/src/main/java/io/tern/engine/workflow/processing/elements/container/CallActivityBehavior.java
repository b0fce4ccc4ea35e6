package io.tern.engine.workflow.processing.elements.container;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.feel.FeelStrings;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.behavior.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.util.List;
import java.util.Map;

/**
 * Call activities: entering one starts the latest version of the called process as a new instance
 * on this partition (with the caller's visible variables, unless told not to); when that instance
 * completes, its variables come back (all of them, or only through the call activity's output
 * mappings) and the call activity completes. Terminating the call activity terminates the called
 * instance.
 */
public final class CallActivityBehavior {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final VariableBehavior variables;
  private final IncidentBehavior incidents;
  private final FeelStrings strings = new FeelStrings();
  private final ProcessInstanceValue child = new ProcessInstanceValue();
  private final ElementInstance parent = new ElementInstance();

  public CallActivityBehavior(
      ProcessingContext context,
      WorkflowState state,
      VariableBehavior variables,
      IncidentBehavior incidents) {
    this.context = context;
    this.state = state;
    this.variables = variables;
    this.incidents = incidents;
  }

  /**
   * The process call activity {@code key} calls, or null after raising an incident (its id cannot
   * be evaluated, or no such process is deployed).
   */
  ProcessState.Deployed resolve(
      ProcessingResult result, long key, ProcessInstanceValue value, ExecutableElement element) {
    String processId;
    try {
      processId =
          strings.evaluate(element.call().processId(), () -> variables.visible(key, List.of()));
    } catch (FeelStrings.EvaluationException e) {
      incidents.raise(
          result,
          ErrorType.EXTRACT_VALUE_ERROR,
          key,
          value,
          "the called process of '" + element.id() + "' cannot be evaluated: " + e.getMessage());
      return null;
    }
    ProcessState.Deployed called = state.processes().byIdAndVersion(processId, -1);
    if (called == null) {
      incidents.raise(
          result,
          ErrorType.CALLED_ELEMENT_ERROR,
          key,
          value,
          "'"
              + element.id()
              + "' calls the process '"
              + processId
              + "', which is not deployed: deploy it, then resolve this incident");
    }
    return called;
  }

  /** Starts the called process for call activity {@code key}, now active. */
  void call(
      ProcessingResult result,
      long key,
      ProcessInstanceValue value,
      ExecutableElement element,
      ProcessState.Deployed called) {
    long childKey = context.nextKey();
    if (element.call().propagateAllParentVariables()) {
      variables.setLocal(
          result, childKey, childKey, called.key(), variables.visible(key, List.of()));
    }
    child.processInstanceKey = childKey;
    child.processDefinitionKey = called.key();
    child.flowScopeKey = -1;
    child.parentElementInstanceKey = key;
    child.version = called.version();
    child.elementType = BpmnElementType.PROCESS;
    child.bpmnProcessId = called.bpmnProcessId();
    child.elementId = called.bpmnProcessId();
    result.appendCommand(childKey, ProcessInstanceIntent.ACTIVATE_ELEMENT, child);
  }

  /**
   * Called instance {@code childKey} completes (its variables are still there): they go to the call
   * activity, which completes.
   */
  void childCompleted(ProcessingResult result, long childKey, ProcessInstanceValue process) {
    long parentKey = process.parentElementInstanceKey;
    if (!state.instances().get(parentKey, parent)
        || parent.state != ProcessInstanceIntent.ELEMENT_ACTIVATED) {
      return;
    }
    ExecutableElement callActivity =
        state.process(parent.value.processDefinitionKey).element(parent.value.elementId);
    Map<String, byte[]> childVariables = state.variables().ofScope(childKey);
    long processInstanceKey = parent.value.processInstanceKey;
    long processDefinitionKey = parent.value.processDefinitionKey;
    if (!callActivity.outputs().isEmpty()) {
      // The output mappings read them, and decide what reaches the caller's scopes.
      variables.setLocal(
          result, parentKey, processInstanceKey, processDefinitionKey, childVariables);
    } else if (callActivity.call().propagateAllChildVariables()) {
      variables.setPropagating(
          result, parentKey, processInstanceKey, processDefinitionKey, childVariables);
    }
    result.appendCommand(parentKey, ProcessInstanceIntent.COMPLETE_ELEMENT, parent.value);
  }
}

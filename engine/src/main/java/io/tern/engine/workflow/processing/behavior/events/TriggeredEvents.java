package io.tern.engine.workflow.processing.behavior.events;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessEventIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessEventValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.JsonDocuments;

/**
 * Starts what a triggered event runs: a boundary event next to its activity, an event subprocess in
 * its scope, with the trigger's variables. {@code BoundaryBehavior} and {@code
 * EventSubprocessBehavior} start a non-interrupting one at once; an interrupting one is remembered
 * as its activity's or scope's pending trigger, and started by {@code TerminationBehavior} (which
 * uses this class) once what it interrupts is gone.
 */
public final class TriggeredEvents {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final VariableBehavior variables;
  private final ProcessInstanceValue boundary = new ProcessInstanceValue();
  private final ProcessInstanceValue subprocess = new ProcessInstanceValue();
  private final ProcessEventValue link = new ProcessEventValue();

  public TriggeredEvents(
      ProcessingContext context, WorkflowState state, VariableBehavior variables) {
    this.context = context;
    this.state = state;
    this.variables = variables;
  }

  /**
   * Activates the triggered boundary event of {@code activity} in {@code flowScopeKey}, setting its
   * variables.
   */
  public void activateBoundaryEvent(
      ProcessingResult result,
      long flowScopeKey,
      ProcessInstanceValue activity,
      ProcessEventValue triggered) {
    if (triggered.variables.length > 0) {
      variables.setPropagating(
          result,
          flowScopeKey,
          activity.processInstanceKey,
          activity.processDefinitionKey,
          JsonDocuments.variables(triggered.variables));
    }
    boundary.copyFrom(activity);
    boundary.parentElementInstanceKey = -1;
    boundary.flowScopeKey = flowScopeKey;
    boundary.elementId = triggered.targetElementId;
    boundary.elementType = BpmnElementType.BOUNDARY_EVENT;
    result.appendCommand(context.nextKey(), ProcessInstanceIntent.ACTIVATE_ELEMENT, boundary);
  }

  /**
   * Activates the event subprocess of {@code triggered}'s start event in scope {@code scopeKey},
   * setting its variables in the scope.
   */
  public void activateEventSubprocess(
      ProcessingResult result,
      long scopeKey,
      ProcessInstanceValue scope,
      ProcessEventValue triggered) {
    if (triggered.variables.length > 0) {
      variables.setPropagating(
          result,
          scopeKey,
          scope.processInstanceKey,
          scope.processDefinitionKey,
          JsonDocuments.variables(triggered.variables));
    }
    ExecutableElement eventSubprocess =
        state.process(scope.processDefinitionKey).eventSubprocessOf(triggered.targetElementId);
    subprocess.copyFrom(scope);
    subprocess.parentElementInstanceKey = -1;
    subprocess.flowScopeKey = scopeKey;
    subprocess.elementId = eventSubprocess.id();
    subprocess.elementType = BpmnElementType.EVENT_SUB_PROCESS;
    result.appendCommand(context.nextKey(), ProcessInstanceIntent.ACTIVATE_ELEMENT, subprocess);
  }

  /**
   * Link throw event {@code linkThrow}, completed now, goes on at the catch event {@code catchId}
   * in its flow scope. The TRIGGERED event counts the coming catch event in the scope at once, as a
   * token on a sequence flow would be, so the scope cannot complete in between.
   */
  public void activateLinkCatch(
      ProcessingResult result, ProcessInstanceValue linkThrow, String catchId) {
    link.scopeKey = linkThrow.flowScopeKey;
    link.processInstanceKey = linkThrow.processInstanceKey;
    link.processDefinitionKey = linkThrow.processDefinitionKey;
    link.interrupting = false;
    link.targetElementId = catchId;
    link.bpmnProcessId = linkThrow.bpmnProcessId;
    link.variables = new byte[0];
    result.appendEvent(context.nextKey(), ProcessEventIntent.TRIGGERED, link);
    boundary.copyFrom(linkThrow);
    boundary.parentElementInstanceKey = -1;
    boundary.elementId = catchId;
    boundary.elementType = BpmnElementType.INTERMEDIATE_CATCH_EVENT;
    result.appendCommand(context.nextKey(), ProcessInstanceIntent.ACTIVATE_ELEMENT, boundary);
  }

  /**
   * Whether {@code pending} (a remembered interrupting trigger) starts an event subprocess, rather
   * than a boundary event.
   */
  public boolean startsEventSubprocess(ProcessEventValue pending) {
    return state.process(pending.processDefinitionKey).element(pending.targetElementId).type()
        == BpmnElementType.START_EVENT;
  }

  /** Whether {@code pending} (a scope's remembered trigger) is a terminate end event ending it. */
  public boolean endsScope(ProcessEventValue pending) {
    return state.process(pending.processDefinitionKey).element(pending.targetElementId).type()
        == BpmnElementType.END_EVENT;
  }

  /** Whether {@code pending} (an activity's remembered trigger) is a boundary event of it. */
  public boolean isBoundaryEvent(ProcessEventValue pending) {
    return state.process(pending.processDefinitionKey).element(pending.targetElementId).type()
        == BpmnElementType.BOUNDARY_EVENT;
  }
}

package io.tern.engine.workflow.processing.behavior.triggers;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessEventIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.behavior.events.TriggeredEvents;
import io.tern.engine.workflow.processing.behavior.termination.TerminationBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessEventValue;
import java.util.List;

/**
 * Boundary events: triggering one on its activity (a non-interrupting one is activated next to the
 * activity; an interrupting one terminates the activity and is activated once it is gone), and
 * finding the boundary event, or the event subprocess, that catches a thrown error or escalation.
 */
public final class BoundaryBehavior {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final TerminationBehavior termination;
  private final EventSubprocessBehavior eventSubprocesses;
  private final TriggeredEvents triggeredEvents;
  private final ProcessEventValue trigger = new ProcessEventValue();
  private final ElementInstance scope = new ElementInstance();

  public BoundaryBehavior(
      ProcessingContext context,
      WorkflowState state,
      TerminationBehavior termination,
      EventSubprocessBehavior eventSubprocesses,
      TriggeredEvents triggeredEvents) {
    this.context = context;
    this.state = state;
    this.termination = termination;
    this.eventSubprocesses = eventSubprocesses;
    this.triggeredEvents = triggeredEvents;
  }

  /**
   * Triggers {@code event} (a boundary event of the activity instance {@code activityKey}), with
   * {@code variablesJson} set in the activity's flow scope. Returns false, doing nothing, if the
   * activity is no longer active or an interrupting event already triggered on it.
   */
  public boolean trigger(
      ProcessingResult result,
      long activityKey,
      ElementInstance activity,
      ExecutableElement event,
      byte[] variablesJson) {
    if (activity.state != ProcessInstanceIntent.ELEMENT_ACTIVATED
        || state.pendingBoundaries().has(activityKey)) {
      return false;
    }
    trigger.scopeKey = activityKey;
    trigger.processInstanceKey = activity.value.processInstanceKey;
    trigger.processDefinitionKey = activity.value.processDefinitionKey;
    trigger.interrupting = event.interrupting();
    trigger.targetElementId = event.id();
    trigger.bpmnProcessId = activity.value.bpmnProcessId;
    trigger.variables = variablesJson;
    // The applier counts the coming boundary event in the flow scope at once, so the scope cannot
    // complete in between; an interrupting one is remembered until the activity is terminated.
    result.appendEvent(context.nextKey(), ProcessEventIntent.TRIGGERED, trigger);
    if (event.interrupting()) {
      termination.terminate(activityKey, result);
    } else {
      triggeredEvents.activateBoundaryEvent(
          result, activity.value.flowScopeKey, activity.value, trigger);
    }
    return true;
  }

  /**
   * Throws error {@code errorCode} from element instance {@code key}: the innermost activity on the
   * way up with an error boundary event for that code (or one for every code) catches it. Returns
   * false if none does.
   */
  public boolean throwError(
      ProcessingResult result, long key, String errorCode, byte[] variablesJson) {
    return throwCode(result, key, EventDefinition.Error.class, errorCode, variablesJson) != null;
  }

  /**
   * Throws escalation {@code escalationCode} from element instance {@code key}, as errors are
   * thrown; returns the event that caught it (interrupting or not), or null if none did, in which
   * case the thrower goes on.
   */
  public ExecutableElement throwEscalation(ProcessingResult result, long key, String code) {
    return throwCode(result, key, EventDefinition.Escalation.class, code, new byte[0]);
  }

  /**
   * Finds the catcher of {@code code} of {@code kind} on the way up from element instance {@code
   * key}: in each scope, its event subprocesses first, then the boundary events of the activity; a
   * called process's throw goes on to its call activity. Triggers it and returns it, or null.
   */
  private ExecutableElement throwCode(
      ProcessingResult result,
      long key,
      Class<? extends EventDefinition.Thrown> kind,
      String code,
      byte[] variablesJson) {
    long at = key;
    while (at >= 0) {
      if (!state.instances().get(at, scope)) {
        return null;
      }
      ExecutableProcess process = state.process(scope.value.processDefinitionKey);
      if (isScope(scope.value.elementType)) {
        // An event subprocess inside the scope catches before the scope's boundary events.
        ExecutableElement start = EventSubprocessBehavior.catcher(process, scope.value, kind, code);
        if (start != null) {
          return eventSubprocesses.trigger(result, at, scope, start, variablesJson) ? start : null;
        }
      }
      if (scope.value.elementType == BpmnElementType.PROCESS) {
        // A called process's throw goes on to the call activity that called it.
        at = scope.value.parentElementInstanceKey;
        continue;
      }
      ExecutableElement activity = process.element(scope.value.elementId);
      // The boundary events of a multi-instance activity are its body's, not its inner instances'.
      boolean inner =
          activity.loop() != null && scope.value.elementType != BpmnElementType.MULTI_INSTANCE_BODY;
      ExecutableElement catcher =
          inner ? null : catcherAmong(process, activity.boundaryEventIds(), kind, code);
      if (catcher != null) {
        return trigger(result, at, scope, catcher, variablesJson) ? catcher : null;
      }
      at = scope.value.flowScopeKey;
    }
    return null;
  }

  private static boolean isScope(BpmnElementType type) {
    return type == BpmnElementType.PROCESS
        || type == BpmnElementType.SUB_PROCESS
        || type == BpmnElementType.EVENT_SUB_PROCESS;
  }

  /**
   * Among the events {@code ids}, the one of {@code kind} whose code is {@code code}, else the
   * first of that kind without a code (which catches every code), else null.
   */
  static ExecutableElement catcherAmong(
      ExecutableProcess process,
      List<String> ids,
      Class<? extends EventDefinition.Thrown> kind,
      String code) {
    ExecutableElement catchAll = null;
    for (String id : ids) {
      ExecutableElement event = process.element(id);
      if (kind.isInstance(event.event())) {
        String caught = ((EventDefinition.Thrown) event.event()).code();
        if (code.equals(caught)) {
          return event;
        }
        if (caught == null && catchAll == null) {
          catchAll = event;
        }
      }
    }
    return catchAll;
  }
}

package io.tern.engine.workflow.processing.behavior.triggers;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessEventIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.processing.behavior.events.TriggeredEvents;
import io.tern.engine.workflow.processing.behavior.termination.TerminationBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.ProcessEventValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Terminate end events. The end event completes, then everything else in its flow scope is
 * terminated (jobs, timers and subscriptions with it) and the scope completes, as Zeebe does: a
 * subprocess goes on by its outgoing flows, a process instance is completed (not terminated).
 *
 * <p>While the scope's children are terminated, the scope has the end event as its pending
 * interrupting trigger (a PROCESS_EVENT TRIGGERED whose target is the end event): it keeps tokens
 * still on their way from starting anything in the scope, and keeps boundary events and event
 * subprocesses from triggering on it; {@link TerminationBehavior} completes the scope when the last
 * child is gone.
 */
public final class TerminateEndBehavior {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final TerminationBehavior termination;
  private final TriggeredEvents triggeredEvents;
  private final ProcessEventValue trigger = new ProcessEventValue();
  private final ProcessEventValue pending = new ProcessEventValue();
  private final ElementInstance scope = new ElementInstance();

  public TerminateEndBehavior(
      ProcessingContext context,
      WorkflowState state,
      TerminationBehavior termination,
      TriggeredEvents triggeredEvents) {
    this.context = context;
    this.state = state;
    this.termination = termination;
    this.triggeredEvents = triggeredEvents;
  }

  /** The terminate end event {@code endEvent}, completed now, ends its flow scope. */
  public void endScope(ProcessingResult result, ProcessInstanceValue endEvent) {
    long scopeKey = endEvent.flowScopeKey;
    if (!state.instances().get(scopeKey, scope)
        || scope.state != ProcessInstanceIntent.ELEMENT_ACTIVATED) {
      return; // the scope is going already
    }
    trigger.scopeKey = scopeKey;
    trigger.processInstanceKey = endEvent.processInstanceKey;
    trigger.processDefinitionKey = endEvent.processDefinitionKey;
    trigger.interrupting = true;
    trigger.targetElementId = endEvent.elementId;
    trigger.bpmnProcessId = endEvent.bpmnProcessId;
    trigger.variables = new byte[0];
    result.appendEvent(context.nextKey(), ProcessEventIntent.TRIGGERED, trigger);
    // Set even with no child left: tokens on their way must not start anything before the scope's
    // completion, written now, is processed.
    List<Long> children = new ArrayList<>(state.instances().children(scopeKey));
    if (children.isEmpty()) {
      completeScope(result, scopeKey);
    }
    for (long child : children) {
      termination.terminate(child, result);
    }
  }

  /** Whether a terminate end event is ending scope {@code scopeKey}: nothing may start in it. */
  public boolean blocks(long scopeKey) {
    return state.pendingBoundaries().get(scopeKey, pending) && triggeredEvents.endsScope(pending);
  }

  private void completeScope(ProcessingResult result, long scopeKey) {
    if (!state.instances().get(scopeKey, scope)) {
      throw new IllegalStateException("element instance " + scopeKey + " vanished");
    }
    result.appendCommand(scopeKey, ProcessInstanceIntent.COMPLETE_ELEMENT, scope.value);
  }
}

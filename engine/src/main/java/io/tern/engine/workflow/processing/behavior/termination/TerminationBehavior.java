package io.tern.engine.workflow.processing.behavior.termination;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.workflow.processing.behavior.compensation.CompensationBehavior;
import io.tern.engine.workflow.processing.behavior.events.CatchEventBehavior;
import io.tern.engine.workflow.processing.behavior.events.TriggeredEvents;
import io.tern.engine.workflow.processing.behavior.instances.ResultAwaiters;
import io.tern.engine.workflow.processing.behavior.messages.MessageStartBehavior;
import io.tern.engine.workflow.processing.common.WorkflowMetrics;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.state.IncidentState;
import io.tern.engine.workflow.state.JobState;
import io.tern.engine.workflow.state.PendingBoundaryState;
import io.tern.engine.workflow.state.UserTaskState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.ProcessEventValue;
import io.tern.engine.workflow.value.UserTaskValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Termination, for cancellation ({@code instances.CancelProcessor}), interrupting boundary events
 * and event subprocesses, terminate end events and modifications: an element instance is terminated
 * after its children, from the leaves up. A terminating element resolves its incident, cancels its
 * job (resolving the job's incident) or user task, timers and message subscriptions, asks each
 * child to terminate, and is terminated once it has no child left; the last child to go terminates
 * its terminating parent. An activity terminated by an interrupting boundary event is replaced by
 * that event; a scope whose children an interrupting event subprocess terminated runs it once they
 * are gone; a scope whose children a terminate end event terminated completes once they are gone.
 */
public final class TerminationBehavior {
  private final WorkflowState state;
  private final CompensationBehavior compensations;
  private final ElementInstanceState instances;
  private final JobState jobs;
  private final IncidentState incidents;
  private final PendingBoundaryState pendingBoundaries;
  private final CatchEventBehavior catchEvents;
  private final MessageStartBehavior messageStarts;
  private final ResultAwaiters awaiters;
  private final TriggeredEvents triggeredEvents;
  private final WorkflowMetrics metrics;
  private final ProcessEventValue pending = new ProcessEventValue();
  private final ElementInstance instance = new ElementInstance();
  private final ElementInstance parent = new ElementInstance();
  private final JobState.Job job = new JobState.Job();
  private final IncidentValue incident = new IncidentValue();
  private final UserTaskState.Task userTask = new UserTaskState.Task();

  public TerminationBehavior(
      WorkflowState state,
      CatchEventBehavior catchEvents,
      ResultAwaiters awaiters,
      MessageStartBehavior messageStarts,
      TriggeredEvents triggeredEvents,
      WorkflowMetrics metrics,
      CompensationBehavior compensations) {
    this.state = state;
    this.compensations = compensations;
    this.instances = state.instances();
    this.jobs = state.jobs();
    this.incidents = state.incidents();
    this.pendingBoundaries = state.pendingBoundaries();
    this.catchEvents = catchEvents;
    this.awaiters = awaiters;
    this.messageStarts = messageStarts;
    this.triggeredEvents = triggeredEvents;
    this.metrics = metrics;
  }

  /** Starts terminating the active element instance {@code key} (and its children). */
  public void terminate(long key, ProcessingResult result) {
    if (!instances.get(key, instance)) {
      throw new IllegalStateException("no element instance " + key + " to terminate");
    }
    terminateLoaded(key, result);
  }

  /**
   * TERMINATE_ELEMENT for {@code key}: written for the children of a terminating element, and for a
   * terminating element whose children went (which is terminated now, unless one is left).
   */
  public void terminateElement(long key, ProcessingResult result) {
    if (!instances.get(key, instance)) {
      return; // completed or terminated meanwhile
    }
    if (instance.state == ProcessInstanceIntent.ELEMENT_TERMINATING) {
      if (instances.children(key).isEmpty() && instance.calledInstanceKey < 0) {
        terminated(key, result);
      }
      return;
    }
    terminateLoaded(key, result);
  }

  /** Terminates the instance in {@link #instance}. */
  private void terminateLoaded(long key, ProcessingResult result) {
    result.appendEvent(key, ProcessInstanceIntent.ELEMENT_TERMINATING, instance.value);
    catchEvents.unsubscribe(result, key);
    long elementIncident = incidents.ofElement(key);
    if (elementIncident >= 0 && incidents.get(elementIncident, incident)) {
      result.appendEvent(elementIncident, IncidentIntent.RESOLVED, incident);
    }
    if (instance.jobKey >= 0 && jobs.get(instance.jobKey, job)) {
      long incidentKey = incidents.ofJob(instance.jobKey);
      if (incidentKey >= 0 && incidents.get(incidentKey, incident)) {
        result.appendEvent(incidentKey, IncidentIntent.RESOLVED, incident);
      }
      result.appendEvent(instance.jobKey, JobIntent.CANCELED, job.value);
      metrics.jobCanceled(result, instance.jobKey);
    }
    cancelUserTask(key, result);
    List<Long> children = new ArrayList<>(instances.children(key));
    if (instance.calledInstanceKey >= 0) {
      children.add(instance.calledInstanceKey); // the process instance a call activity called
    }
    if (children.isEmpty()) {
      instances.get(key, instance);
      terminated(key, result);
      return;
    }
    for (long child : children) {
      instances.get(child, parent);
      result.appendCommand(child, ProcessInstanceIntent.TERMINATE_ELEMENT, parent.value);
    }
  }

  /** A Camunda user task goes with its element: CANCELING, then CANCELED. */
  private void cancelUserTask(long key, ProcessingResult result) {
    long userTaskKey = state.userTasks().ofElement(key);
    if (userTaskKey >= 0 && state.userTasks().get(userTaskKey, userTask)) {
      UserTaskValue canceled = userTask.value;
      canceled.action = "";
      canceled.changed.clear();
      canceled.variables = new byte[0];
      result.appendEvent(userTaskKey, UserTaskIntent.CANCELING, canceled);
      result.appendEvent(userTaskKey, UserTaskIntent.CANCELED, canceled);
    }
  }

  private void terminated(long key, ProcessingResult result) {
    long flowScopeKey = instance.value.flowScopeKey;
    if (flowScopeKey < 0) {
      awaiters.instanceEnds(result, key, instance.value, false);
      metrics.processInstanceTerminated(result, key);
      compensations.instanceEnds(result, key, state.process(instance.value.processDefinitionKey));
    } else {
      compensations.terminated(
          result, key, instance.value, state.process(instance.value.processDefinitionKey));
    }
    // A pending trigger on this element: its own interrupting boundary event (not an event
    // subprocess of its own, which goes with it).
    boolean interrupted =
        pendingBoundaries.get(key, pending) && triggeredEvents.isBoundaryEvent(pending);
    MessageSubscriptionValue heldBy = flowScopeKey < 0 ? messageStarts.heldBy(key) : null;
    result.appendEvent(key, ProcessInstanceIntent.ELEMENT_TERMINATED, instance.value);
    if (heldBy != null) {
      messageStarts.keyReleased(result, heldBy);
    }
    long callerKey = instance.value.parentElementInstanceKey;
    if (flowScopeKey < 0
        && callerKey >= 0
        && instances.get(callerKey, parent)
        && parent.state == ProcessInstanceIntent.ELEMENT_TERMINATING
        && instances.children(callerKey).isEmpty()) {
      // A called instance is gone: its terminating call activity may go now.
      result.appendCommand(callerKey, ProcessInstanceIntent.TERMINATE_ELEMENT, parent.value);
      return;
    }
    if (flowScopeKey < 0 || !instances.get(flowScopeKey, parent)) {
      return;
    }
    if (parent.state == ProcessInstanceIntent.ELEMENT_TERMINATING) {
      if (instances.children(flowScopeKey).isEmpty() && parent.calledInstanceKey < 0) {
        result.appendCommand(flowScopeKey, ProcessInstanceIntent.TERMINATE_ELEMENT, parent.value);
      }
    } else if (interrupted) {
      // An interrupting boundary event terminated this activity: it takes the activity's place.
      triggeredEvents.activateBoundaryEvent(result, flowScopeKey, instance.value, pending);
    } else if (instances.children(flowScopeKey).isEmpty()
        && pendingBoundaries.get(flowScopeKey, pending)
        && triggeredEvents.startsEventSubprocess(pending)) {
      // The last of what an interrupting event subprocess terminated is gone: it runs now.
      triggeredEvents.activateEventSubprocess(result, flowScopeKey, parent.value, pending);
    } else if (instances.children(flowScopeKey).isEmpty()
        && pendingBoundaries.get(flowScopeKey, pending)
        && triggeredEvents.endsScope(pending)) {
      // The last of what a terminate end event terminated is gone: its scope completes.
      result.appendCommand(flowScopeKey, ProcessInstanceIntent.COMPLETE_ELEMENT, parent.value);
    } else if (parent.state == ProcessInstanceIntent.ELEMENT_ACTIVATED
        && parent.activeChildren == 0
        && parent.value.elementType != BpmnElementType.MULTI_INSTANCE_BODY
        && !pendingBoundaries.has(flowScopeKey)) {
      // A modification terminated the last of an active scope's elements while others of the
      // same command completed: nothing is left to complete it, so it completes now.
      result.appendCommand(flowScopeKey, ProcessInstanceIntent.COMPLETE_ELEMENT, parent.value);
    }
  }
}

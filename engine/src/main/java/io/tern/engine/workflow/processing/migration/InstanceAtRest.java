package io.tern.engine.workflow.processing.migration;

import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.JobState;
import io.tern.engine.workflow.state.ProcessMessageSubscriptionState;
import io.tern.engine.workflow.state.Subscription;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.SignalSubscriptionValue;
import io.tern.engine.workflow.value.TimerValue;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether an element instance of a process instance is at rest: no command written before now and
 * still to be processed is about it, so that a command that rewrites the instance (a migration)
 * does not leave one behind that names what it replaced.
 */
final class InstanceAtRest {
  private final WorkflowState state;
  private final ExecutableProcess source;

  InstanceAtRest(WorkflowState state, ExecutableProcess source) {
    this.state = state;
    this.source = source;
  }

  /**
   * Whether nothing is on its way to or in the instance: a command written before the migration and
   * processed after it would name the source definition. Tokens on flows (and at a joining
   * gateway), a triggered event not yet taken, an element being left, or a scope with nothing in it
   * (its start event, its first inner instance or its completion is on its way) all wait for that
   * command. Inner instances of a parallel multi-instance body still on their way are not seen
   * here: they take the body's definition when they arrive ({@code ElementProcessor}).
   */
  boolean check(
      long key, ElementInstance instance, ExecutableElement element, List<Long> children) {
    if (instance.state == ProcessInstanceIntent.ELEMENT_ACTIVATING) {
      return state.incidents().ofElement(key) >= 0; // held by an incident until it is resolved
    }
    if (instance.state != ProcessInstanceIntent.ELEMENT_ACTIVATED
        || state.pendingBoundaries().has(key)
        || instance.activeChildren != children.size()) {
      return false;
    }
    boolean container =
        switch (instance.value.elementType) {
          case PROCESS, SUB_PROCESS, EVENT_SUB_PROCESS, MULTI_INSTANCE_BODY -> true;
          default -> false;
        };
    if (container) {
      return !children.isEmpty();
    }
    return !completionOnItsWay(key, instance, element);
  }

  /**
   * Whether what the instance waited for came and its completion is on its way: its job or user
   * task completed, its own timer, message or signal fired (the event-based gateway's: one of
   * them), the process it called ended. The completion carries what came (variables, the path to
   * take) for the source's element.
   */
  private boolean completionOnItsWay(
      long key, ElementInstance instance, ExecutableElement element) {
    if (instance.jobKey >= 0) {
      return !state.jobs().get(instance.jobKey, new JobState.Job());
    }
    if (element.userTask() != null) {
      return state.userTasks().ofElement(key) < 0;
    }
    BpmnElementType type = instance.value.elementType;
    if (type == BpmnElementType.CALL_ACTIVITY) {
      return instance.calledInstanceKey < 0;
    }
    boolean waitsForItsOwn =
        type == BpmnElementType.EVENT_BASED_GATEWAY
            || type == BpmnElementType.RECEIVE_TASK
            || type == BpmnElementType.INTERMEDIATE_CATCH_EVENT;
    if (!waitsForItsOwn) {
      return false;
    }
    Set<String> own = new HashSet<>();
    if (type == BpmnElementType.EVENT_BASED_GATEWAY) {
      element.outgoing().forEach(flow -> own.add(source.target(flow.id()).id()));
    } else {
      own.add(element.id());
    }
    return !subscribedTo(key, own);
  }

  /**
   * Whether instance {@code key} still has a subscription for one of the catch events {@code ids}.
   */
  private boolean subscribedTo(long key, Set<String> ids) {
    for (long timerKey : state.timers().ofElement(key)) {
      TimerValue timer = new TimerValue();
      if (state.timers().get(timerKey, timer) && ids.contains(timer.targetElementId)) {
        return true;
      }
    }
    for (Subscription message : state.processMessageSubscriptions().ofElement(key)) {
      if (message.state != ProcessMessageSubscriptionState.CLOSING
          && ids.contains(message.value.elementId)) {
        return true;
      }
    }
    for (SignalSubscriptionValue signal : state.signals().ofElement(key)) {
      if (ids.contains(signal.elementId)) {
        return true;
      }
    }
    return false;
  }
}

package io.tern.engine.workflow.processing.behavior.compensation;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.CompensationIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.CompensationState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.CompensationSubscriptionValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.util.List;
import java.util.Map;

/**
 * A compensation throw event at work, with the records Zeebe 8.6 writes. For each subscription it
 * compensates, top down: if it has a handler, the compensation boundary event of the activity
 * passes (ELEMENT_ACTIVATING to ELEMENT_COMPLETED, in the throw event's flow scope) and the handler
 * is activated there; then the subscription is TRIGGERED, and so is what completed inside it. A
 * subscription is COMPLETED when its handler completed; one without a handler (a subprocess that
 * holds compensable activities) when nothing is left inside it, bottom up. The throw event
 * completes once none of its subscriptions is left.
 */
final class CompensationThrow {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final ElementInstance instance = new ElementInstance();

  CompensationThrow(ProcessingContext context, WorkflowState state) {
    this.context = context;
    this.state = state;
  }

  /**
   * Triggers {@code entry} and what completed inside it (the untriggered subscriptions by the scope
   * instance they completed in); true if a handler runs. A subscription without a handler always
   * holds one with a handler somewhere inside it (it was recorded because it held some, and they
   * are triggered only through it), so the throw event never waits for nothing.
   */
  boolean trigger(
      ProcessingResult result,
      CompensationState.Entry entry,
      Map<Long, List<CompensationState.Entry>> byScope,
      long throwKey,
      ProcessInstanceValue throwValue,
      ExecutableProcess process) {
    CompensationSubscriptionValue subscription =
        new CompensationSubscriptionValue().copyFrom(entry.value());
    subscription.throwEventInstanceKey = throwKey;
    subscription.throwEventId = throwValue.elementId;
    boolean handlers = subscription.hasHandler();
    if (handlers) {
      passBoundaryEvent(result, throwValue, process, subscription.activityId);
      subscription.handlerInstanceKey = activateHandler(result, throwValue, process, subscription);
      subscription.handlerScopeKey = throwValue.flowScopeKey;
    }
    result.appendEvent(entry.key(), CompensationIntent.TRIGGERED, subscription);
    for (CompensationState.Entry inside :
        byScope.getOrDefault(subscription.activityInstanceKey, List.of())) {
      handlers |= trigger(result, inside, byScope, throwKey, throwValue, process);
    }
    return handlers;
  }

  /**
   * The compensation boundary event of {@code activityId} is activated and completed at once, as in
   * Zeebe: nothing waits in it, the records only tell that it caught the compensation. It comes
   * without a token (see InstanceAppliers) and leaves nothing behind.
   */
  private void passBoundaryEvent(
      ProcessingResult result,
      ProcessInstanceValue throwValue,
      ExecutableProcess process,
      String activityId) {
    String boundaryId = process.compensationBoundaryOf(activityId);
    if (boundaryId == null) {
      throw new IllegalStateException(
          "process "
              + process.bpmnProcessId()
              + ": no compensation boundary event on "
              + activityId);
    }
    ProcessInstanceValue boundary = new ProcessInstanceValue().copyFrom(throwValue);
    boundary.parentElementInstanceKey = -1;
    boundary.elementId = boundaryId;
    boundary.elementType = BpmnElementType.BOUNDARY_EVENT;
    long key = context.nextKey();
    for (ProcessInstanceIntent intent :
        new ProcessInstanceIntent[] {
          ProcessInstanceIntent.ELEMENT_ACTIVATING,
          ProcessInstanceIntent.ELEMENT_ACTIVATED,
          ProcessInstanceIntent.ELEMENT_COMPLETING,
          ProcessInstanceIntent.ELEMENT_COMPLETED
        }) {
      result.appendEvent(key, intent, boundary);
    }
  }

  /** Activates the subscription's handler next to the throw event; returns its instance key. */
  private long activateHandler(
      ProcessingResult result,
      ProcessInstanceValue throwValue,
      ExecutableProcess process,
      CompensationSubscriptionValue subscription) {
    ExecutableElement handler = process.element(subscription.handlerId);
    ProcessInstanceValue activation = new ProcessInstanceValue().copyFrom(throwValue);
    activation.parentElementInstanceKey = -1;
    activation.elementId = handler.id();
    activation.elementType =
        handler.loop() != null ? BpmnElementType.MULTI_INSTANCE_BODY : handler.type();
    long handlerKey = context.nextKey();
    result.appendCommand(handlerKey, ProcessInstanceIntent.ACTIVATE_ELEMENT, activation);
    return handlerKey;
  }

  /**
   * Handler instance {@code key} completed (or was terminated: its subscription is deleted, as it
   * compensated nothing); the subprocesses it completed in are done once nothing is left in them,
   * and its throw event goes on once none of its subscriptions is left.
   */
  void handlerDone(ProcessingResult result, long key, long processInstanceKey, boolean terminated) {
    CompensationState.Entry done = null;
    for (CompensationState.Entry entry : state.compensations().ofInstance(processInstanceKey)) {
      if (entry.value().handlerInstanceKey == key) {
        done = entry;
      }
    }
    if (done == null) {
      return;
    }
    result.appendEvent(
        done.key(),
        terminated ? CompensationIntent.DELETED : CompensationIntent.COMPLETED,
        done.value());
    completeEmptied(result, done.value().scopeKey, processInstanceKey);
    long throwKey = done.value().throwEventInstanceKey;
    for (CompensationState.Entry entry : state.compensations().ofInstance(processInstanceKey)) {
      if (entry.value().throwEventInstanceKey == throwKey) {
        return; // another subscription of the same throw event is still being compensated
      }
    }
    if (state.instances().get(throwKey, instance)
        && instance.state == ProcessInstanceIntent.ELEMENT_ACTIVATED) {
      result.appendCommand(throwKey, ProcessInstanceIntent.COMPLETE_ELEMENT, instance.value);
    }
  }

  /**
   * Scope instance {@code scopeKey} may hold nothing more: a triggered subscription of it without a
   * handler of its own is COMPLETED, and so on upwards (the events are applied at once, so the
   * state tells what is left).
   */
  private void completeEmptied(ProcessingResult result, long scopeKey, long processInstanceKey) {
    long scope = scopeKey;
    while (!state.compensations().holdsAny(scope)) {
      CompensationState.Entry holder = null;
      for (CompensationState.Entry entry : state.compensations().ofInstance(processInstanceKey)) {
        CompensationSubscriptionValue value = entry.value();
        if (value.activityInstanceKey == scope && value.isTriggered() && !value.hasHandler()) {
          holder = entry;
        }
      }
      if (holder == null) {
        return;
      }
      result.appendEvent(holder.key(), CompensationIntent.COMPLETED, holder.value());
      scope = holder.value().scopeKey;
    }
  }
}

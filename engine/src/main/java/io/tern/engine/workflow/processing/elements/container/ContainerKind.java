package io.tern.engine.workflow.processing.elements.container;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.instances.ResultAwaiters;
import io.tern.engine.workflow.processing.behavior.messages.MessageStartBehavior;
import io.tern.engine.workflow.processing.common.WorkflowMetrics;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementKind;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementLifecycle;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementStep;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.util.EnumSet;
import java.util.Set;

/**
 * Elements that run others. A process (created by a command, a message or a call activity), a
 * sub-process and an event sub-process activate their start event, and complete once no child is
 * active any more (the last one to complete asks them to). A call activity starts an instance of
 * the process it calls, and completes when that instance does ({@link CallActivityBehavior}).
 *
 * <p>A process instance that ends answers the client waiting for its result, if any, hands its
 * variables to the call activity that called it, if any, and lets the next buffered message with
 * its correlation key start an instance, if a message started it.
 */
public final class ContainerKind implements ElementKind {
  private final ProcessingContext context;
  private final ElementLifecycle lifecycle;
  private final ResultAwaiters awaiters;
  private final MessageStartBehavior messageStarts;
  private final WorkflowMetrics metrics;
  private final CallActivityBehavior callActivities;

  public ContainerKind(
      ProcessingContext context,
      ElementLifecycle lifecycle,
      Behaviors behaviors,
      CallActivityBehavior callActivities) {
    this.context = context;
    this.lifecycle = lifecycle;
    this.awaiters = behaviors.awaiters();
    this.messageStarts = behaviors.messageStarts();
    this.metrics = behaviors.metrics();
    this.callActivities = callActivities;
  }

  @Override
  public Set<BpmnElementType> types() {
    return EnumSet.of(
        BpmnElementType.PROCESS,
        BpmnElementType.SUB_PROCESS,
        BpmnElementType.EVENT_SUB_PROCESS,
        BpmnElementType.CALL_ACTIVITY);
  }

  @Override
  public void activate(ElementStep step) {
    switch (step.type()) {
      case PROCESS -> activateProcess(step);
      case CALL_ACTIVITY -> activateCallActivity(step);
      default -> activateSubprocess(step);
    }
  }

  private void activateProcess(ElementStep step) {
    if (!lifecycle.subscribe(step)) {
      return; // an incident holds the process until it is resolved
    }
    lifecycle.activated(step);
    metrics.processInstanceActivated(step.result(), step.key(), context.nowMs());
    String startEventId = messageStarts.startEventOf(step.key(), step.process());
    lifecycle.activateChild(step, startEventId, step.key());
  }

  private void activateSubprocess(ElementStep step) {
    if (!lifecycle.applyInputs(step) || !lifecycle.subscribe(step)) {
      return; // an incident holds the sub-process until it is resolved
    }
    lifecycle.activated(step);
    lifecycle.activateChild(step, step.element().startEventId(), step.key());
  }

  private void activateCallActivity(ElementStep step) {
    if (!lifecycle.applyInputs(step)) {
      return; // an incident holds the call activity until it is resolved
    }
    ProcessState.Deployed called =
        callActivities.resolve(step.result(), step.key(), step.value(), step.element());
    if (called == null || !lifecycle.subscribe(step)) {
      return; // an incident holds the call activity until it is resolved
    }
    lifecycle.activated(step);
    callActivities.call(step.result(), step.key(), step.value(), step.element(), called);
  }

  @Override
  public void complete(ElementStep step, ElementInstance stored) {
    if (step.type() == BpmnElementType.PROCESS) {
      completeProcess(step);
    } else {
      lifecycle.complete(step, null);
    }
  }

  private void completeProcess(ElementStep step) {
    ProcessingResult result = step.result();
    long key = step.key();
    ProcessInstanceValue value = step.value();
    lifecycle.unsubscribe(step);
    lifecycle.append(step, ProcessInstanceIntent.ELEMENT_COMPLETING);
    awaiters.instanceEnds(result, key, value, true);
    if (value.parentElementInstanceKey >= 0) {
      callActivities.childCompleted(result, key, value);
    }
    MessageSubscriptionValue heldBy = messageStarts.heldBy(key);
    lifecycle.instanceEnds(step);
    lifecycle.append(step, ProcessInstanceIntent.ELEMENT_COMPLETED);
    metrics.processInstanceCompleted(result, key, context.nowMs());
    if (heldBy != null) {
      messageStarts.keyReleased(result, heldBy);
    }
  }
}

package io.tern.engine.workflow.processing.elements.event;

import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementKind;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementLifecycle;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementStep;
import io.tern.engine.workflow.processing.elements.lifecycle.JobBehavior;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import java.util.EnumSet;
import java.util.Set;

/**
 * Catching events: start, intermediate catch and boundary events. They are entered as every event
 * is ({@link EventActivation}); what their trigger does (a timer, a message, a signal) is {@code
 * CaughtEvents}'s, in the behaviour layer; they complete and leave like any other element, with
 * nothing thrown.
 */
public final class CatchEventKind implements ElementKind {
  private final ElementLifecycle lifecycle;
  private final EventActivation activation;

  public CatchEventKind(ElementLifecycle lifecycle, Behaviors behaviors, JobBehavior jobs) {
    this.lifecycle = lifecycle;
    this.activation = new EventActivation(lifecycle, jobs, behaviors.compensations());
  }

  @Override
  public Set<BpmnElementType> types() {
    return EnumSet.of(
        BpmnElementType.START_EVENT,
        BpmnElementType.INTERMEDIATE_CATCH_EVENT,
        BpmnElementType.BOUNDARY_EVENT);
  }

  @Override
  public void activate(ElementStep step) {
    activation.activate(step);
  }

  @Override
  public void complete(ElementStep step, ElementInstance stored) {
    lifecycle.complete(step, null);
  }
}

package io.tern.engine.workflow.processing.elements.event;

import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.processing.behavior.compensation.CompensationBehavior;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementLifecycle;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementStep;
import io.tern.engine.workflow.processing.elements.lifecycle.JobBehavior;
import io.tern.engine.workflow.value.BpmnElementType;

/**
 * Entering an event, catching or throwing: its input mappings and subscriptions first (an incident
 * holds it if they fail). A message throw or end event creates a job ({@link JobBehavior}) and
 * completes when a worker completes it; a compensation throw event waits for the handlers it
 * starts; an intermediate catch event waits for its timer or message (unless an event-based gateway
 * waited for it already, or it is a link catch event); every other event completes at once (a
 * boundary event is activated once its trigger came).
 */
final class EventActivation {
  private final ElementLifecycle lifecycle;
  private final JobBehavior jobs;
  private final CompensationBehavior compensations;

  EventActivation(
      ElementLifecycle lifecycle, JobBehavior jobs, CompensationBehavior compensations) {
    this.lifecycle = lifecycle;
    this.jobs = jobs;
    this.compensations = compensations;
  }

  void activate(ElementStep step) {
    if (!lifecycle.applyInputs(step) || !lifecycle.subscribe(step)) {
      return; // an incident holds the event until it is resolved
    }
    if (step.element().job() != null) {
      jobs.activateWithJob(step); // a message throw event: done when its job is
      return;
    }
    lifecycle.activated(step);
    if (step.element().event() instanceof EventDefinition.Compensation compensation
        && compensations.compensate(
            step.result(), step.key(), step.value(), step.process(), compensation.activityRef())) {
      return; // a compensation throw event waits for the handlers: the last one completes it
    }
    if (step.type() != BpmnElementType.INTERMEDIATE_CATCH_EVENT
        || step.element().event() instanceof EventDefinition.Link
        || step.process().followsEventBasedGateway(step.element())) {
      lifecycle.completeInstance(step.result(), step.key());
    } // else it waits for its timer or message (an event-based gateway waited for it already)
  }
}

package io.tern.engine.workflow.processing.elements.event;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.workflow.feel.FeelStrings;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.events.TriggeredEvents;
import io.tern.engine.workflow.processing.behavior.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.behavior.signals.SignalBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.BoundaryBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.TerminateEndBehavior;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementKind;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementLifecycle;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementStep;
import io.tern.engine.workflow.processing.elements.lifecycle.JobBehavior;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.VariableState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.EnumSet;
import java.util.Set;

/**
 * Throwing events: end and intermediate throw events, entered as every event is ({@link
 * EventActivation}). What completing one does depends on what it throws, one branch each: an error
 * end event does not complete: it throws its error, which terminates the catching activity (and the
 * end event with it); an UNHANDLED_ERROR_EVENT incident holds it if nothing catches the error. A
 * link throw event goes on at its link catch event. A signal throw or end event broadcasts its
 * signal, with its input mappings' variables, and completes. An escalation throw or end event
 * throws its escalation ({@link BoundaryBehavior#throwEscalation}) and completes, unless an
 * interrupting event caught it (which terminates the event with its scope). A terminate end event
 * completes and ends its scope ({@link TerminateEndBehavior}). Any other completes and leaves.
 */
public final class ThrowEventKind implements ElementKind {
  private final ElementLifecycle lifecycle;
  private final EventActivation activation;
  private final IncidentBehavior incidents;
  private final BoundaryBehavior boundaries;
  private final TriggeredEvents triggeredEvents;
  private final TerminateEndBehavior terminateEnds;
  private final SignalBehavior signals;
  private final VariableState variables;

  public ThrowEventKind(
      ElementLifecycle lifecycle,
      Behaviors behaviors,
      JobBehavior jobs,
      TerminateEndBehavior terminateEnds,
      VariableState variables) {
    this.lifecycle = lifecycle;
    this.activation = new EventActivation(lifecycle, jobs, behaviors.compensations());
    this.terminateEnds = terminateEnds;
    this.incidents = behaviors.incidents();
    this.boundaries = behaviors.boundaries();
    this.triggeredEvents = behaviors.triggeredEvents();
    this.signals = behaviors.signals();
    this.variables = variables;
  }

  @Override
  public Set<BpmnElementType> types() {
    return EnumSet.of(BpmnElementType.END_EVENT, BpmnElementType.INTERMEDIATE_THROW_EVENT);
  }

  @Override
  public void activate(ElementStep step) {
    activation.activate(step);
  }

  @Override
  public void complete(ElementStep step, ElementInstance stored) {
    if (step.type() == BpmnElementType.END_EVENT
        && step.element().event() instanceof EventDefinition.Error error) {
      String code = codeOf(step, error.errorCode(), "error code");
      if (code != null) {
        throwError(step, code);
      }
      return; // caught: the catching activity is terminated, and this end event with it
    }
    if (step.type() == BpmnElementType.INTERMEDIATE_THROW_EVENT
        && step.element().event() instanceof EventDefinition.Link link) {
      if (lifecycle.completeInPlace(step)) {
        triggeredEvents.activateLinkCatch(step.result(), step.value(), link.catchEventId());
      }
      return;
    }
    if (step.element().event() instanceof EventDefinition.Signal signal) {
      String name = codeOf(step, signal.name(), "signal name");
      if (name == null) {
        return; // an incident holds the event until it is resolved
      }
      signals.broadcast(step.result(), name, JsonDocuments.document(variables.ofScope(step.key())));
      lifecycle.complete(step, null);
      return;
    }
    if (step.element().event() instanceof EventDefinition.Escalation escalation) {
      String code = codeOf(step, escalation.escalationCode(), "escalation code");
      if (code == null) {
        return; // an incident holds the event until it is resolved
      }
      ExecutableElement catcher = boundaries.throwEscalation(step.result(), step.key(), code);
      if (catcher == null || !catcher.interrupting()) {
        lifecycle.complete(step, null); // uncaught, or caught next to it: it goes on
      } // else the catcher terminates its scope, and this event with it
      return;
    }
    if (step.element().event() instanceof EventDefinition.Terminate) {
      if (lifecycle.completeInPlace(step)) {
        terminateEnds.endScope(step.result(), step.value());
      }
      return;
    }
    lifecycle.complete(step, null);
  }

  /**
   * A thrown error code, escalation code or signal name ({@code what}): static, or FEEL evaluated
   * now; null after raising an incident.
   */
  private String codeOf(ElementStep step, String code, String what) {
    if (!code.startsWith("=")) {
      return code;
    }
    try {
      return lifecycle.evaluateText(code, step.key());
    } catch (FeelStrings.EvaluationException | InvalidVariablesException e) {
      incidents.raise(
          step.result(),
          ErrorType.EXTRACT_VALUE_ERROR,
          step.key(),
          step.value(),
          "the "
              + what
              + " '"
              + code
              + "' of '"
              + step.element().id()
              + "' cannot be evaluated: "
              + e.getMessage());
      return null;
    }
  }

  /** An error end event throws its error; an incident holds it if nothing catches the error. */
  private void throwError(ElementStep step, String errorCode) {
    ProcessingResult result = step.result();
    if (!boundaries.throwError(result, step.key(), errorCode, new byte[0])) {
      incidents.raise(
          result,
          ErrorType.UNHANDLED_ERROR_EVENT,
          step.key(),
          step.value(),
          "error '"
              + errorCode
              + "' was thrown by '"
              + step.value().elementId
              + "', but no boundary event catches it");
    }
  }
}

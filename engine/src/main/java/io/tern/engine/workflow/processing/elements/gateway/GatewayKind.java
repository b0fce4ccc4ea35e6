package io.tern.engine.workflow.processing.elements.gateway;

import io.tern.engine.workflow.feel.FeelConditions;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.EventBasedGatewayBehavior;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementKind;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementLifecycle;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementStep;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.ProcessEventValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Gateways complete as soon as they are activated, and choose which outgoing flows they take: an
 * exclusive gateway the first whose condition holds, an inclusive one every one whose condition
 * holds (either falls back to its default flow; without one, a CONDITION_ERROR incident holds it),
 * a parallel one all of them. A parallel gateway is only activated once each of its incoming flows
 * brought a token ({@link ElementLifecycle#leave}), a joining inclusive one once no other token may
 * still reach it ({@link InclusiveJoinBehavior}). An event-based gateway waits for the first of the
 * events after it, then takes the flow to that one ({@link EventBasedGatewayBehavior}).
 */
public final class GatewayKind implements ElementKind {
  private final ElementLifecycle lifecycle;
  private final VariableBehavior variables;
  private final IncidentBehavior incidents;
  private final FeelConditions conditions = new FeelConditions();
  private final EventBasedGatewayBehavior eventGateways;
  private final ProcessEventValue triggered = new ProcessEventValue();

  public GatewayKind(ElementLifecycle lifecycle, Behaviors behaviors) {
    this.lifecycle = lifecycle;
    this.variables = behaviors.variables();
    this.incidents = behaviors.incidents();
    this.eventGateways = behaviors.eventGateways();
  }

  @Override
  public Set<BpmnElementType> types() {
    return EnumSet.of(
        BpmnElementType.EXCLUSIVE_GATEWAY,
        BpmnElementType.INCLUSIVE_GATEWAY,
        BpmnElementType.PARALLEL_GATEWAY,
        BpmnElementType.EVENT_BASED_GATEWAY);
  }

  @Override
  public void activate(ElementStep step) {
    if (!lifecycle.applyInputs(step) || !lifecycle.subscribe(step)) {
      return; // an incident holds the gateway until it is resolved
    }
    lifecycle.activated(step);
    if (step.type() != BpmnElementType.EVENT_BASED_GATEWAY) {
      lifecycle.completeInstance(step.result(), step.key());
    } // else it waits for the first of the events after it
  }

  @Override
  public void complete(ElementStep step, ElementInstance stored) {
    if (step.type() == BpmnElementType.EVENT_BASED_GATEWAY) {
      completeEventBased(step);
      return;
    }
    List<ExecutableElement.Flow> taken = null; // a parallel gateway takes all
    if (step.type() == BpmnElementType.EXCLUSIVE_GATEWAY) {
      ExecutableElement.Flow chosen = choose(step);
      if (chosen == null) {
        return; // an incident holds the gateway until it is resolved
      }
      taken = List.of(chosen);
    } else if (step.type() == BpmnElementType.INCLUSIVE_GATEWAY) {
      taken = chooseAll(step);
      if (taken == null) {
        return; // an incident holds the gateway until it is resolved
      }
    }
    lifecycle.complete(step, taken);
  }

  /**
   * The first event came: the gateway completes (its other timers and subscriptions are canceled)
   * and takes the flow to that event, with the event's variables set in the flow scope.
   */
  private void completeEventBased(ElementStep step) {
    if (!eventGateways.triggered(step.key(), triggered)) {
      throw new IllegalStateException(
          "event-based gateway instance " + step.key() + " completes, but no event came");
    }
    ExecutableElement.Flow chosen = null;
    for (ExecutableElement.Flow flow : step.element().outgoing()) {
      if (flow.targetId().equals(triggered.targetElementId)) {
        chosen = flow;
      }
    }
    byte[] eventVariables = triggered.variables;
    if (!lifecycle.completeInPlace(step)) {
      return; // an incident holds the gateway until it is resolved
    }
    if (eventVariables.length > 0) {
      ProcessInstanceValue value = step.value();
      variables.setPropagating(
          step.result(),
          value.flowScopeKey,
          value.processInstanceKey,
          value.processDefinitionKey,
          JsonDocuments.variables(eventVariables));
    }
    lifecycle.leave(step, List.of(chosen));
  }

  /**
   * The only outgoing flow if it has no condition, else the first whose condition holds, else the
   * default flow; null (after raising a CONDITION_ERROR incident) if none, or if a condition cannot
   * be evaluated.
   */
  private ExecutableElement.Flow choose(ElementStep step) {
    ExecutableElement gateway = step.element();
    if (gateway.outgoing().size() == 1 && gateway.outgoing().get(0).condition() == null) {
      return gateway.outgoing().get(0); // a join, or a gateway with nothing to decide
    }
    Map<String, byte[]> visible = variables.visible(step.key(), List.of());
    ExecutableElement.Flow fallback = null;
    try {
      for (ExecutableElement.Flow flow : gateway.outgoing()) {
        if (flow.id().equals(gateway.defaultFlowId())) {
          fallback = flow;
        } else if (flow.condition() != null && conditions.evaluate(flow.condition(), visible)) {
          return flow;
        }
      }
    } catch (FeelConditions.ConditionException | InvalidVariablesException e) {
      raiseIncident(step, "gateway '" + gateway.id() + "': " + e.getMessage());
      return null;
    }
    if (fallback == null) {
      raiseIncident(step, noFlowHolds(gateway));
    }
    return fallback;
  }

  /**
   * Every outgoing flow whose condition holds (a flow without a condition always does), else the
   * default flow; null (after raising a CONDITION_ERROR incident) if none, or if a condition cannot
   * be evaluated.
   */
  private List<ExecutableElement.Flow> chooseAll(ElementStep step) {
    ExecutableElement gateway = step.element();
    Map<String, byte[]> visible = variables.visible(step.key(), List.of());
    List<ExecutableElement.Flow> chosen = new ArrayList<>();
    ExecutableElement.Flow fallback = null;
    try {
      for (ExecutableElement.Flow flow : gateway.outgoing()) {
        if (flow.id().equals(gateway.defaultFlowId())) {
          fallback = flow;
        } else if (flow.condition() == null || conditions.evaluate(flow.condition(), visible)) {
          chosen.add(flow);
        }
      }
    } catch (FeelConditions.ConditionException | InvalidVariablesException e) {
      raiseIncident(step, "gateway '" + gateway.id() + "': " + e.getMessage());
      return null;
    }
    if (!chosen.isEmpty()) {
      return chosen;
    }
    if (fallback == null) {
      raiseIncident(step, noFlowHolds(gateway));
      return null;
    }
    return List.of(fallback);
  }

  private static String noFlowHolds(ExecutableElement gateway) {
    return "no condition of an outgoing flow of gateway '"
        + gateway.id()
        + "' holds, and it has no default flow";
  }

  private void raiseIncident(ElementStep step, String message) {
    incidents.raise(step.result(), ErrorType.CONDITION_ERROR, step.key(), step.value(), message);
  }
}

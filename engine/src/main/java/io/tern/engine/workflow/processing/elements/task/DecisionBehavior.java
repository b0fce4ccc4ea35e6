package io.tern.engine.workflow.processing.elements.task;

import io.tern.engine.workflow.dmn.DecisionEvaluator;
import io.tern.engine.workflow.feel.FeelStrings;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementLifecycle;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementStep;
import io.tern.engine.workflow.state.DecisionState;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.camunda.dmn.DmnEngine;

/**
 * A business rule task's {@code zeebe:calledDecision}: the latest version of the decision is
 * evaluated with the task's variables, and its output becomes the result variable. An incident
 * holds the task if the decision is not deployed (CALLED_DECISION_ERROR) or fails to evaluate
 * (DECISION_EVALUATION_ERROR); it is evaluated again once the incident is resolved.
 */
public final class DecisionBehavior {
  private final ElementLifecycle lifecycle;
  private final DecisionState decisions;
  private final VariableBehavior variables;
  private final IncidentBehavior incidents;
  private final DecisionEvaluator evaluator =
      new DecisionEvaluator(new DmnEngine.Builder().build());

  public DecisionBehavior(ElementLifecycle lifecycle, WorkflowState state, Behaviors behaviors) {
    this.lifecycle = lifecycle;
    this.decisions = state.decisions();
    this.variables = behaviors.variables();
    this.incidents = behaviors.incidents();
  }

  /** The result variable with the decision's output; null after raising an incident. */
  Map<String, byte[]> evaluate(ElementStep step, ExecutableElement.CalledDecision called) {
    String decisionId;
    Map<String, byte[]> visible;
    try {
      decisionId = lifecycle.evaluateText(called.decisionId(), step.key());
      visible = variables.visible(step.key(), List.of());
    } catch (FeelStrings.EvaluationException | InvalidVariablesException e) {
      raise(
          step,
          ErrorType.EXTRACT_VALUE_ERROR,
          "the decision id '"
              + called.decisionId()
              + "' of '"
              + step.element().id()
              + "' cannot be evaluated: "
              + e.getMessage());
      return null;
    }
    DecisionState.Deployed decision = decisions.latestById(decisionId);
    if (decision == null) {
      raise(
          step,
          ErrorType.CALLED_DECISION_ERROR,
          "'"
              + step.element().id()
              + "' calls decision '"
              + decisionId
              + "', but no decision with that id is deployed");
      return null;
    }
    DecisionEvaluator.Evaluation evaluation =
        evaluator.evaluate(decision.graph(), decisionId, visible);
    if (evaluation.failed()) {
      raise(
          step,
          ErrorType.DECISION_EVALUATION_ERROR,
          "decision '"
              + evaluation.failedDecisionId()
              + "' called by '"
              + step.element().id()
              + "' failed to evaluate: "
              + evaluation.failureMessage());
      return null;
    }
    return Map.of(
        called.resultVariable(), evaluation.outputJson().getBytes(StandardCharsets.UTF_8));
  }

  private void raise(ElementStep step, ErrorType type, String message) {
    incidents.raise(step.result(), type, step.key(), step.value(), message);
  }
}

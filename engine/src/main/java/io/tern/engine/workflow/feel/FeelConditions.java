package io.tern.engine.workflow.feel;

import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.LinkedHashMap;
import java.util.Map;
import org.camunda.feel.api.EvaluationResult;
import org.camunda.feel.api.FeelEngineApi;

/**
 * Evaluates sequence-flow conditions ({@code =amount > 100}) with the FEEL engine Zeebe uses, over
 * the variables visible from the element. Pure given its inputs, so replay agrees (conditions that
 * read the clock, like {@code now()}, are evaluated on the leader only, and their outcome is
 * recorded by the flow taken).
 */
public final class FeelConditions {
  /** A condition that could not be evaluated to true or false. */
  public static final class ConditionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ConditionException(String message) {
      super(message);
    }
  }

  private final FeelEngineApi engine = FeelBudget.newEngine();

  /**
   * @param expression the condition as written in the BPMN file, with its leading '='
   * @param variables name to JSON value
   * @throws ConditionException naming the expression and what went wrong
   */
  public boolean evaluate(String expression, Map<String, byte[]> variables) {
    String feel = expression.strip();
    if (feel.startsWith("=")) {
      feel = feel.substring(1);
    }
    Map<String, Object> context = new LinkedHashMap<>();
    variables.forEach((name, json) -> context.put(name, JsonDocuments.toJava(json)));
    EvaluationResult result;
    try {
      result = FeelBudget.evaluate(engine, feel, context, FeelBudget.DEFAULT_MAX_STEPS);
    } catch (FeelBudget.ExceededException e) {
      throw new ConditionException(
          "the condition '" + expression + "' was stopped: " + e.getMessage());
    }
    if (!result.isSuccess()) {
      throw new ConditionException(
          "the condition '" + expression + "' failed: " + result.failure().message());
    }
    if (result.result() instanceof Boolean value) {
      return value;
    }
    throw new ConditionException(
        "the condition '"
            + expression
            + "' must give true or false, but gave "
            + (result.result() == null ? "null" : "'" + result.result() + "'"));
  }
}

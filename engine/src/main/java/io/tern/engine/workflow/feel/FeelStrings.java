package io.tern.engine.workflow.feel;

import io.tern.engine.workflow.variables.JsonDocuments;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.camunda.feel.api.EvaluationResult;
import org.camunda.feel.api.FeelEngineApi;

/**
 * Evaluates expressions that must give text, as message names and correlation keys do: static text
 * as written, or FEEL after a leading '=' giving a string or a number (Zeebe accepts both for
 * correlation keys; a whole number gives its digits).
 */
public final class FeelStrings {
  /** An expression that failed or gave something else than text. */
  public static final class EvaluationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EvaluationException(String message) {
      super(message);
    }
  }

  private final FeelEngineApi engine = FeelBudget.newEngine();

  /**
   * @param variables asked for only if the expression is FEEL
   * @throws EvaluationException naming the expression and what went wrong
   */
  public String evaluate(String expression, Supplier<Map<String, byte[]>> variables) {
    String text = expression.strip();
    if (!text.startsWith("=")) {
      return text;
    }
    Map<String, Object> context = new LinkedHashMap<>();
    variables.get().forEach((name, json) -> context.put(name, JsonDocuments.toJava(json)));
    EvaluationResult result;
    try {
      result =
          FeelBudget.evaluate(engine, text.substring(1), context, FeelBudget.DEFAULT_MAX_STEPS);
    } catch (FeelBudget.ExceededException e) {
      throw new EvaluationException("the expression '" + text + "' was stopped: " + e.getMessage());
    }
    if (!result.isSuccess()) {
      throw new EvaluationException(
          "the expression '" + text + "' failed: " + result.failure().message());
    }
    Object value = result.result();
    if (value instanceof String string) {
      return string;
    }
    if (value instanceof Number number) {
      BigDecimal decimal = new BigDecimal(number.toString());
      return decimal.stripTrailingZeros().scale() <= 0
          ? decimal.toBigInteger().toString()
          : decimal.toPlainString();
    }
    throw new EvaluationException(
        "the expression '"
            + text
            + "' must give a string or a number, but gave "
            + (value == null ? "null" : "'" + value + "'"));
  }
}

package io.tern.engine.workflow.feel;

import io.tern.engine.workflow.variables.JsonDocuments;
import io.tern.engine.workflow.variables.JsonValues;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.camunda.feel.api.EvaluationResult;
import org.camunda.feel.api.FeelEngineApi;

/**
 * Evaluates {@code zeebe:ioMapping} inputs or outputs: each mapping's source (FEEL after a leading
 * '=', else the text itself) is evaluated over the variables and the results of the mappings before
 * it, and set at its target. A nested target ({@code order.total}) sets that property of the
 * variable, which is created, or else copied from the visible one if that is an object, so a
 * mapping adds to an object rather than replacing it.
 */
public final class IoMappings {
  private final FeelEngineApi engine = FeelBudget.newEngine();

  /**
   * @param variables name to JSON value: what the sources see
   * @return name to JSON value: the variables the mappings set
   * @throws FeelStrings.EvaluationException naming the mapping and what went wrong
   */
  public Map<String, byte[]> evaluate(List<Mapping> mappings, Map<String, byte[]> variables) {
    Map<String, Object> context = new LinkedHashMap<>();
    variables.forEach((name, json) -> context.put(name, JsonDocuments.toJava(json)));
    Map<String, Object> results = new LinkedHashMap<>();
    for (Mapping mapping : mappings) {
      Object value = evaluate(mapping, context);
      String[] path = mapping.target().split("\\.");
      String root = path[0];
      if (path.length == 1) {
        results.put(root, value);
      } else {
        Object current = results.containsKey(root) ? results.get(root) : context.get(root);
        results.put(root, withProperty(current, path, 1, value));
      }
      context.put(root, results.get(root));
    }
    Map<String, byte[]> json = new LinkedHashMap<>();
    results.forEach((name, value) -> json.put(name, JsonValues.fromJava(value)));
    return json;
  }

  private Object evaluate(Mapping mapping, Map<String, Object> context) {
    String source = mapping.source().strip();
    if (!source.startsWith("=")) {
      return source;
    }
    EvaluationResult result;
    try {
      result =
          FeelBudget.evaluate(engine, source.substring(1), context, FeelBudget.DEFAULT_MAX_STEPS);
    } catch (FeelBudget.ExceededException e) {
      throw new FeelStrings.EvaluationException(
          "the mapping of '"
              + source
              + "' to '"
              + mapping.target()
              + "' was stopped: "
              + e.getMessage());
    }
    if (!result.isSuccess()) {
      throw new FeelStrings.EvaluationException(
          "the mapping of '"
              + source
              + "' to '"
              + mapping.target()
              + "' failed: "
              + result.failure().message());
    }
    return result.result();
  }

  /** A copy of {@code object} (a map, else a new one) with {@code path[index..]} set. */
  private static Map<String, Object> withProperty(
      Object object, String[] path, int index, Object value) {
    Map<String, Object> copy = new LinkedHashMap<>();
    if (object instanceof Map<?, ?> map) {
      map.forEach((k, v) -> copy.put(String.valueOf(k), v));
    }
    String name = path[index];
    copy.put(
        name,
        index == path.length - 1 ? value : withProperty(copy.get(name), path, index + 1, value));
    return copy;
  }
}

package io.tern.engine.workflow.model;

import static io.tern.engine.workflow.model.BpmnTransformer.describe;

import io.camunda.zeebe.model.bpmn.instance.FlowNode;
import io.tern.engine.workflow.feel.Mapping;
import java.util.List;
import java.util.regex.Pattern;
import org.camunda.feel.api.FeelEngineApi;
import org.camunda.feel.api.FeelEngineBuilder;
import org.camunda.feel.api.ParseResult;

/**
 * Checks expressions at deployment, so a typo is a deployment error naming the element and not an
 * incident in every instance: FEEL sources must parse, targets must be variable names or paths.
 */
final class MappingChecks {
  private static final Pattern TARGET =
      Pattern.compile("[\\p{L}_][\\p{L}\\p{N}_]*(\\.[\\p{L}_][\\p{L}\\p{N}_]*)*");
  private static final FeelEngineApi FEEL = FeelEngineBuilder.forJava().build();

  private MappingChecks() {}

  static Mapping check(FlowNode node, String source, String target, List<String> problems) {
    String trimmedSource = source == null ? "" : source.strip();
    String trimmedTarget = target == null ? "" : target.strip();
    if (!TARGET.matcher(trimmedTarget).matches()) {
      problems.add(
          describe(node)
              + ": the mapping target '"
              + trimmedTarget
              + "' is not a variable name or a path like order.total");
    }
    if (trimmedSource.isEmpty()) {
      problems.add(describe(node) + ": the mapping to '" + trimmedTarget + "' has no source");
    } else {
      checkFeel(node, trimmedSource, problems);
    }
    return new Mapping(trimmedSource, trimmedTarget);
  }

  /**
   * Reports a FEEL expression (leading '=') that does not parse, naming the element, the expression
   * and the parser's message; static text always passes.
   */
  static void checkFeel(
      io.camunda.zeebe.model.bpmn.instance.BaseElement node,
      String expression,
      List<String> problems) {
    if (!expression.startsWith("=")) {
      return;
    }
    ParseResult parsed;
    try {
      parsed = FEEL.parseExpression(expression.substring(1));
    } catch (StackOverflowError e) {
      // The FEEL parser recurses once per bracket: some 150 nested ones overflow a thread's stack.
      problems.add(
          describe(node)
              + ": the expression '"
              + expression.substring(0, Math.min(40, expression.length()))
              + "...' nests too deeply to be parsed");
      return;
    }
    if (!parsed.isSuccess()) {
      problems.add(
          describe(node)
              + ": the expression '"
              + expression
              + "' is not valid FEEL: "
              + parsed.failure().message());
    }
  }
}

package io.tern.engine.workflow.dmn;

import io.tern.engine.workflow.variables.JsonDocuments;
import io.tern.engine.workflow.variables.JsonValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.camunda.dmn.Audit;
import org.camunda.dmn.DmnEngine;
import org.camunda.dmn.parser.ParsedContext;
import org.camunda.dmn.parser.ParsedDecisionLogic;
import org.camunda.dmn.parser.ParsedDecisionTable;
import org.camunda.dmn.parser.ParsedDmn;
import org.camunda.dmn.parser.ParsedInvocation;
import org.camunda.dmn.parser.ParsedList;
import org.camunda.dmn.parser.ParsedLiteralExpression;
import org.camunda.dmn.parser.ParsedRelation;
import org.camunda.dmn.parser.ParsedRule;
import org.camunda.feel.syntaxtree.Val;
import org.camunda.feel.valuemapper.ValueMapper;
import scala.jdk.javaapi.CollectionConverters;
import scala.util.Either;

/**
 * Evaluates a decision of a parsed graph with the DMN Scala engine, reporting what Zeebe reports:
 * the output, every decision evaluated on the way (required decisions first) with its inputs and
 * matched rules, or the failure. Values are JSON, as variables are.
 */
public final class DecisionEvaluator {
  /** The outcome; {@code failureMessage} is null on success. */
  public record Evaluation(
      String outputJson,
      List<EvaluatedDecision> decisions,
      String failedDecisionId,
      String failureMessage) {
    public boolean failed() {
      return failureMessage != null;
    }
  }

  /** One decision evaluated; its type as Zeebe names it (DECISION_TABLE, LITERAL_EXPRESSION...). */
  public record EvaluatedDecision(
      String id,
      String name,
      String type,
      String outputJson,
      List<NamedValue> inputs,
      List<MatchedRule> matchedRules) {}

  /** A decision table's rule that matched: its id, 1-based index and outputs. */
  public record MatchedRule(String id, int index, List<NamedValue> outputs) {}

  /** An input's or output's id, name and JSON value. */
  public record NamedValue(String id, String name, String valueJson) {}

  private final DmnEngine engine;
  private final ValueMapper values = ValueMapper.defaultValueMapper();

  public DecisionEvaluator(DmnEngine engine) {
    this.engine = engine;
  }

  /**
   * @param variables name to JSON value: what the decision's inputs see
   */
  public Evaluation evaluate(ParsedDmn dmn, String decisionId, Map<String, byte[]> variables) {
    Map<String, Object> context = new LinkedHashMap<>();
    variables.forEach((name, json) -> context.put(name, JsonDocuments.toJava(json)));
    Either<DmnEngine.EvalFailure, DmnEngine.EvalResult> result;
    try {
      result = engine.eval(dmn, decisionId, context);
    } catch (RuntimeException e) {
      return new Evaluation(null, List.of(), decisionId, String.valueOf(e.getMessage()));
    }
    if (result.isLeft()) {
      DmnEngine.EvalFailure failure = result.left().get();
      return new Evaluation(
          null, decisions(failure.auditLog()), decisionId, failure.failure().message());
    }
    DmnEngine.EvalResult success = result.right().get();
    String output = success.isNil() ? "null" : json(ScalaValues.toJava(success.value()));
    return new Evaluation(output, decisions(success.auditLog()), null, null);
  }

  private List<EvaluatedDecision> decisions(Audit.AuditLog log) {
    List<EvaluatedDecision> decisions = new ArrayList<>();
    if (log == null) {
      return decisions;
    }
    for (Audit.AuditLogEntry entry : CollectionConverters.asJava(log.entries())) {
      List<NamedValue> inputs = new ArrayList<>();
      List<MatchedRule> rules = new ArrayList<>();
      String output;
      if (entry.result() instanceof Audit.DecisionTableEvaluationResult table) {
        for (Audit.EvaluatedInput input : CollectionConverters.asJava(table.inputs())) {
          inputs.add(
              new NamedValue(input.input().id(), input.input().name(), valueJson(input.value())));
        }
        List<ParsedRule> all = new ArrayList<>();
        if (entry.decisionLogic() instanceof ParsedDecisionTable parsed) {
          CollectionConverters.asJava(parsed.rules()).forEach(all::add);
        }
        for (Audit.EvaluatedRule rule : CollectionConverters.asJava(table.matchedRules())) {
          List<NamedValue> outputs = new ArrayList<>();
          for (Audit.EvaluatedOutput out : CollectionConverters.asJava(rule.outputs())) {
            outputs.add(
                new NamedValue(out.output().id(), out.output().name(), valueJson(out.value())));
          }
          rules.add(new MatchedRule(rule.rule().id(), all.indexOf(rule.rule()) + 1, outputs));
        }
        output = valueJson(table.result());
      } else if (entry.result() instanceof Audit.SingleEvaluationResult single) {
        output = valueJson(single.result());
      } else {
        output = "null";
      }
      decisions.add(
          new EvaluatedDecision(
              entry.id(), entry.name(), typeOf(entry.decisionLogic()), output, inputs, rules));
    }
    return decisions;
  }

  private String valueJson(Val value) {
    return json(ScalaValues.toJava(values.unpackVal(value)));
  }

  private static String json(Object value) {
    return new String(JsonValues.fromJava(value), StandardCharsets.UTF_8);
  }

  private static String typeOf(ParsedDecisionLogic logic) {
    if (logic instanceof ParsedDecisionTable) {
      return "DECISION_TABLE";
    } else if (logic instanceof ParsedLiteralExpression) {
      return "LITERAL_EXPRESSION";
    } else if (logic instanceof ParsedContext) {
      return "CONTEXT";
    } else if (logic instanceof ParsedInvocation) {
      return "INVOCATION";
    } else if (logic instanceof ParsedList) {
      return "LIST";
    } else if (logic instanceof ParsedRelation) {
      return "RELATION";
    }
    return "UNKNOWN";
  }
}

package io.tern.engine.workflow.dmn;

import io.tern.engine.workflow.feel.FeelBudget;
import io.tern.engine.workflow.variables.JsonDocuments;
import io.tern.engine.workflow.variables.JsonValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.camunda.dmn.Audit;
import org.camunda.dmn.DmnEngine;
import org.camunda.dmn.parser.ParsedContext;
import org.camunda.dmn.parser.ParsedDecision;
import org.camunda.dmn.parser.ParsedDecisionLogic;
import org.camunda.dmn.parser.ParsedDecisionTable;
import org.camunda.dmn.parser.ParsedDmn;
import org.camunda.dmn.parser.ParsedInvocation;
import org.camunda.dmn.parser.ParsedList;
import org.camunda.dmn.parser.ParsedLiteralExpression;
import org.camunda.dmn.parser.ParsedRelation;
import org.camunda.dmn.parser.ParsedRule;
import org.camunda.feel.syntaxtree.Exp;
import org.camunda.feel.syntaxtree.ParsedExpression;
import org.camunda.feel.syntaxtree.Val;
import org.camunda.feel.valuemapper.ValueMapper;
import scala.jdk.javaapi.CollectionConverters;
import scala.util.Either;

/**
 * Evaluates a decision of a parsed graph with the DMN Scala engine, reporting what Zeebe reports:
 * the output, every decision evaluated on the way (required decisions first) with its inputs and
 * matched rules, or the failure. Values are JSON, as variables are.
 *
 * <p>Every FEEL expression of one evaluation (input expressions, input entries, output entries,
 * literal expressions, those of required decisions and business knowledge models) runs under one
 * {@link FeelBudget} of {@link #MAX_STEPS} steps: counted, not timed, so that every broker, and a
 * leader evaluating again on replay, decides alike. An evaluation that exceeds it fails naming the
 * decision and the expression, with {@link Evaluation#exceededBudget()} set.
 */
public final class DecisionEvaluator {
  /**
   * The steps one evaluation may take, its required decisions included: the budget of one BPMN
   * expression. A decision table of a thousand rules of a few simple tests takes some ten thousand.
   */
  public static final long MAX_STEPS = FeelBudget.DEFAULT_MAX_STEPS;

  /** The outcome; {@code failureMessage} is null on success. */
  public record Evaluation(
      String outputJson,
      List<EvaluatedDecision> decisions,
      String failedDecisionId,
      String failureMessage,
      boolean exceededBudget) {
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

  /**
   * Evaluates with {@code engine}, whose FEEL engine is metered from here on (its evaluations
   * outside this class are not: the meter counts only within a budget).
   */
  public DecisionEvaluator(DmnEngine engine) {
    this.engine = engine;
    FeelBudget.meter(engine.feelEngine());
  }

  /**
   * @param variables name to JSON value: what the decision's inputs see
   */
  public Evaluation evaluate(ParsedDmn dmn, String decisionId, Map<String, byte[]> variables) {
    Map<String, Object> context = new LinkedHashMap<>();
    variables.forEach((name, json) -> context.put(name, JsonDocuments.toJava(json)));
    Either<DmnEngine.EvalFailure, DmnEngine.EvalResult> result;
    try {
      result =
          FeelBudget.withBudget(
              MAX_STEPS, "one decision evaluation", () -> engine.eval(dmn, decisionId, context));
    } catch (FeelBudget.ExceededException e) {
      return exceeded(dmn, decisionId, e);
    } catch (RuntimeException e) {
      return new Evaluation(null, List.of(), decisionId, String.valueOf(e.getMessage()), false);
    }
    if (result.isLeft()) {
      DmnEngine.EvalFailure failure = result.left().get();
      return new Evaluation(
          null, decisions(failure.auditLog()), decisionId, failure.failure().message(), false);
    }
    DmnEngine.EvalResult success = result.right().get();
    String output = success.isNil() ? "null" : json(ScalaValues.toJava(success.value()));
    return new Evaluation(output, decisions(success.auditLog()), null, null, false);
  }

  /** The failure of an evaluation stopped by its budget, naming the decision and expression. */
  private static Evaluation exceeded(
      ParsedDmn dmn, String decisionId, FeelBudget.ExceededException e) {
    String[] found = null;
    scala.Option<ParsedDecision> requested = dmn.decisionsById().get(decisionId);
    if (requested.isDefined() && e.expression() != null) {
      found =
          locate(
              requested.get(),
              e.expression(),
              Collections.newSetFromMap(new IdentityHashMap<>()),
              Collections.newSetFromMap(new IdentityHashMap<>()));
    }
    String failedId = found == null ? decisionId : found[0];
    String expression = found == null ? "an expression" : "the expression '" + found[1] + "'";
    return new Evaluation(
        null,
        List.of(),
        failedId,
        expression + " of decision '" + failedId + "' was stopped: " + e.getMessage(),
        true);
  }

  /**
   * The id of the decision holding the expression whose syntax tree is {@code tree}, and its text:
   * {@code decision}'s required decisions first (they are evaluated first), then its own logic,
   * business knowledge models it invokes included. Null if it is not there.
   */
  private static String[] locate(
      ParsedDecision decision, Exp tree, Set<Object> decisionsSeen, Set<Object> nodesSeen) {
    if (!decisionsSeen.add(decision)) {
      return null;
    }
    for (ParsedDecision required : CollectionConverters.asJava(decision.requiredDecisions())) {
      String[] found = locate(required, tree, decisionsSeen, nodesSeen);
      if (found != null) {
        return found;
      }
    }
    String text = textOf(decision.logic(), tree, nodesSeen);
    return text == null ? null : new String[] {decision.id(), text};
  }

  /**
   * Searches the parsed decision logic (Scala case classes, collections, options and tuples) for
   * the FEEL expression with syntax tree {@code tree}: generic, so that every place an expression
   * can sit (inputs, rules, outputs, contexts, lists, relations, invocations) is covered.
   */
  private static String textOf(Object node, Exp tree, Set<Object> seen) {
    if (node instanceof ParsedExpression parsed) {
      return parsed.expression() == tree ? parsed.text() : null;
    }
    if (node == null || node instanceof Exp || node instanceof ParsedDecision || !seen.add(node)) {
      return null; // a syntax tree of its own, or a required decision (searched on its own)
    }
    scala.collection.Iterator<?> children;
    if (node instanceof scala.collection.Iterable<?> items) {
      children = items.iterator();
    } else if (node instanceof scala.Product product) {
      children = product.productIterator();
    } else {
      return null;
    }
    while (children.hasNext()) {
      String text = textOf(children.next(), tree, seen);
      if (text != null) {
        return text;
      }
    }
    return null;
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

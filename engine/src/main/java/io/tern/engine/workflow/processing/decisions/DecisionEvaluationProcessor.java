package io.tern.engine.workflow.processing.decisions;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tern.engine.processor.CommandProcessor;
import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.DecisionEvaluationIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.dmn.DecisionEvaluator;
import io.tern.engine.workflow.state.DecisionState;
import io.tern.engine.workflow.value.DecisionEvaluationValue;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.camunda.dmn.DmnEngine;

/**
 * The gateway's EvaluateDecision: evaluates a decision (by key, or the latest version by id) with
 * the given variables, and answers with an EVALUATED or FAILED event whose value holds the whole
 * evaluation as JSON: the decision, its output, and each decision evaluated (required ones first)
 * with its inputs and matched rules, or the failure. Nothing in the state changes. An unknown
 * decision is rejected with INVALID_ARGUMENT, as Zeebe does, and so is an evaluation that exceeds
 * its FEEL budget (naming the decision and the expression).
 */
public final class DecisionEvaluationProcessor implements CommandProcessor {
  private static final JsonFactory JSON = JsonFactory.builder().build();

  private final ProcessingContext context;
  private final DecisionState decisions;
  private final DecisionEvaluator evaluator =
      new DecisionEvaluator(new DmnEngine.Builder().build());
  private final DecisionEvaluationValue command = new DecisionEvaluationValue();

  public DecisionEvaluationProcessor(ProcessingContext context, DecisionState decisions) {
    this.context = context;
    this.decisions = decisions;
  }

  @Override
  public void process(LoggedRecord record, ProcessingResult result) {
    command.readFrom(record.value());
    DecisionState.Deployed deployed =
        command.decisionKey >= 0
            ? decisions.byKey(command.decisionKey)
            : decisions.latestById(command.decisionId);
    if (deployed == null) {
      result.reject(
          RejectionType.INVALID_ARGUMENT,
          command.decisionKey >= 0
              ? "no decision with key " + command.decisionKey + " is deployed"
              : "no decision with id '" + command.decisionId + "' is deployed");
      return;
    }
    Map<String, byte[]> variables;
    try {
      variables = JsonDocuments.variables(command.variables);
    } catch (InvalidVariablesException e) {
      result.reject(RejectionType.INVALID_ARGUMENT, e.getMessage());
      return;
    }
    DeploymentValue.Decision decision = deployed.decision();
    DecisionEvaluator.Evaluation evaluation =
        evaluator.evaluate(deployed.graph(), decision.decisionId(), variables);
    if (evaluation.exceededBudget()) {
      // Refused, not FAILED: the caller learns at once which expression is too costly to run.
      result.reject(RejectionType.INVALID_ARGUMENT, evaluation.failureMessage());
      return;
    }
    DecisionEvaluationValue answer = new DecisionEvaluationValue();
    answer.decisionKey = decision.decisionKey();
    answer.decisionId = decision.decisionId();
    answer.variables = new byte[0];
    answer.evaluation = json(deployed, evaluation);
    result.appendEvent(
        context.nextKey(),
        evaluation.failed() ? DecisionEvaluationIntent.FAILED : DecisionEvaluationIntent.EVALUATED,
        answer);
    result.respondWithLastEvent();
  }

  /** The evaluation in the shape of Zeebe's answer; outputs and values as JSON text. */
  private static byte[] json(DecisionState.Deployed deployed, DecisionEvaluator.Evaluation result) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    DeploymentValue.Decision decision = deployed.decision();
    try (JsonGenerator json = JSON.createGenerator(out)) {
      json.writeStartObject();
      json.writeNumberField("decisionKey", decision.decisionKey());
      json.writeStringField("decisionId", decision.decisionId());
      json.writeStringField("decisionName", decision.decisionName());
      json.writeNumberField("decisionVersion", decision.version());
      json.writeStringField("decisionRequirementsId", decision.decisionRequirementsId());
      json.writeNumberField("decisionRequirementsKey", decision.decisionRequirementsKey());
      json.writeStringField("decisionOutput", result.failed() ? "" : result.outputJson());
      json.writeStringField("failedDecisionId", result.failed() ? result.failedDecisionId() : "");
      json.writeStringField("failureMessage", result.failed() ? result.failureMessage() : "");
      json.writeArrayFieldStart("evaluatedDecisions");
      for (DecisionEvaluator.EvaluatedDecision evaluated : result.decisions()) {
        DeploymentValue.Decision meta =
            deployed.graphDecisions().stream()
                .filter(d -> d.decisionId().equals(evaluated.id()))
                .findFirst()
                .orElse(decision);
        json.writeStartObject();
        json.writeNumberField("decisionKey", meta.decisionKey());
        json.writeStringField("decisionId", evaluated.id());
        json.writeStringField("decisionName", evaluated.name());
        json.writeNumberField("decisionVersion", meta.version());
        json.writeStringField("decisionType", evaluated.type());
        json.writeStringField("decisionOutput", evaluated.outputJson());
        json.writeArrayFieldStart("evaluatedInputs");
        for (DecisionEvaluator.NamedValue input : evaluated.inputs()) {
          writeNamed(json, "input", input);
        }
        json.writeEndArray();
        json.writeArrayFieldStart("matchedRules");
        for (DecisionEvaluator.MatchedRule rule : evaluated.matchedRules()) {
          json.writeStartObject();
          json.writeStringField("ruleId", rule.id());
          json.writeNumberField("ruleIndex", rule.index());
          json.writeArrayFieldStart("evaluatedOutputs");
          for (DecisionEvaluator.NamedValue output : rule.outputs()) {
            writeNamed(json, "output", output);
          }
          json.writeEndArray();
          json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
      }
      json.writeEndArray();
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // writing to memory
    }
    return out.toByteArray();
  }

  private static void writeNamed(
      JsonGenerator json, String kind, DecisionEvaluator.NamedValue value) throws IOException {
    json.writeStartObject();
    json.writeStringField(kind + "Id", value.id());
    json.writeStringField(kind + "Name", value.name() == null ? "" : value.name());
    json.writeStringField(kind + "Value", value.valueJson());
    json.writeEndObject();
  }
}

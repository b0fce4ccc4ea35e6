package io.tern.engine.gateway;

import static io.tern.engine.gateway.GatewayCommands.read;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluateDecisionRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluateDecisionResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluatedDecision;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluatedDecisionInput;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluatedDecisionOutput;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.MatchedDecisionRule;
import io.grpc.stub.StreamObserver;
import io.tern.engine.protocol.DecisionEvaluationIntent;
import io.tern.engine.workflow.value.DecisionEvaluationValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.List;
import java.util.Map;

/**
 * The gateway's EvaluateDecision: evaluated on partition 1, which has every deployment first (the
 * others get copies), and answered from the evaluation the partition wrote as JSON.
 */
final class DecisionRequests {
  /** Deployments are made on partition 1: its decisions are never behind. */
  private static final int DEPLOYMENT_PARTITION = 1;

  private final GatewayCommands commands;

  DecisionRequests(GatewayCommands commands) {
    this.commands = commands;
  }

  void evaluateDecision(
      EvaluateDecisionRequest request, StreamObserver<EvaluateDecisionResponse> observer) {
    if (RequestTexts.tooLong(
        observer, "EvaluateDecision", "the decision id", request.getDecisionId())) {
      return;
    }
    DecisionEvaluationValue evaluation = new DecisionEvaluationValue();
    evaluation.decisionKey = request.getDecisionKey() > 0 ? request.getDecisionKey() : -1;
    evaluation.decisionId = request.getDecisionId();
    evaluation.variables = Conversions.json(request.getVariables());
    commands.unary(
        "EvaluateDecision",
        DEPLOYMENT_PARTITION,
        DecisionEvaluationIntent.EVALUATE,
        -1,
        evaluation,
        observer,
        answer ->
            response(
                answer.key(),
                (Map<?, ?>)
                    JsonDocuments.toJava(read(new DecisionEvaluationValue(), answer).evaluation)));
  }

  private static EvaluateDecisionResponse response(long key, Map<?, ?> json) {
    EvaluateDecisionResponse.Builder response =
        EvaluateDecisionResponse.newBuilder()
            .setDecisionKey(number(json, "decisionKey"))
            .setDecisionId(text(json, "decisionId"))
            .setDecisionName(text(json, "decisionName"))
            .setDecisionVersion((int) number(json, "decisionVersion"))
            .setDecisionRequirementsId(text(json, "decisionRequirementsId"))
            .setDecisionRequirementsKey(number(json, "decisionRequirementsKey"))
            .setDecisionOutput(text(json, "decisionOutput"))
            .setFailedDecisionId(text(json, "failedDecisionId"))
            .setFailureMessage(text(json, "failureMessage"))
            .setDecisionInstanceKey(key)
            .setDecisionEvaluationKey(key)
            .setTenantId(Conversions.DEFAULT_TENANT);
    for (Map<?, ?> decision : list(json, "evaluatedDecisions")) {
      EvaluatedDecision.Builder evaluated =
          EvaluatedDecision.newBuilder()
              .setDecisionKey(number(decision, "decisionKey"))
              .setDecisionId(text(decision, "decisionId"))
              .setDecisionName(text(decision, "decisionName"))
              .setDecisionVersion((int) number(decision, "decisionVersion"))
              .setDecisionType(text(decision, "decisionType"))
              .setDecisionOutput(text(decision, "decisionOutput"))
              .setTenantId(Conversions.DEFAULT_TENANT);
      for (Map<?, ?> input : list(decision, "evaluatedInputs")) {
        evaluated.addEvaluatedInputs(
            EvaluatedDecisionInput.newBuilder()
                .setInputId(text(input, "inputId"))
                .setInputName(text(input, "inputName"))
                .setInputValue(text(input, "inputValue")));
      }
      for (Map<?, ?> rule : list(decision, "matchedRules")) {
        MatchedDecisionRule.Builder matched =
            MatchedDecisionRule.newBuilder()
                .setRuleId(text(rule, "ruleId"))
                .setRuleIndex((int) number(rule, "ruleIndex"));
        for (Map<?, ?> output : list(rule, "evaluatedOutputs")) {
          matched.addEvaluatedOutputs(
              EvaluatedDecisionOutput.newBuilder()
                  .setOutputId(text(output, "outputId"))
                  .setOutputName(text(output, "outputName"))
                  .setOutputValue(text(output, "outputValue")));
        }
        evaluated.addMatchedRules(matched);
      }
      response.addEvaluatedDecisions(evaluated);
    }
    return response.build();
  }

  private static String text(Map<?, ?> json, String name) {
    Object value = json.get(name);
    return value == null ? "" : value.toString();
  }

  private static long number(Map<?, ?> json, String name) {
    return json.get(name) instanceof Number number ? number.longValue() : -1;
  }

  @SuppressWarnings("unchecked")
  private static List<Map<?, ?>> list(Map<?, ?> json, String name) {
    return json.get(name) instanceof List<?> list ? (List<Map<?, ?>>) list : List.of();
  }
}

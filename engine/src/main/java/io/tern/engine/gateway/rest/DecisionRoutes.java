package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluateDecisionRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluateDecisionResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluatedDecision;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluatedDecisionInput;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluatedDecisionOutput;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.MatchedDecisionRule;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import io.vertx.core.http.HttpMethod;

/** POST /v2/decision-definitions/evaluation, as the gRPC EvaluateDecision. */
final class DecisionRoutes {
  private DecisionRoutes() {}

  static void register(Routes routes, GatewayGrpc.AsyncService service) {
    routes.json(
        HttpMethod.POST,
        "/v2/decision-definitions/evaluation",
        exchange -> {
          ObjectNode body = exchange.body();
          String decisionId = Json.text(body, "decisionDefinitionId");
          long decisionKey = Json.key(body, "decisionDefinitionKey");
          if (decisionId.isEmpty() && decisionKey == 0) {
            throw new InvalidRequest(
                "an evaluation needs 'decisionDefinitionId' or 'decisionDefinitionKey'");
          }
          service.evaluateDecision(
              EvaluateDecisionRequest.newBuilder()
                  .setDecisionId(decisionId)
                  .setDecisionKey(decisionKey)
                  .setVariables(Json.variables(body, "variables"))
                  .build(),
              exchange.reply(DecisionRoutes::evaluated));
        });
  }

  private static String key(long key) {
    return key > 0 ? Long.toString(key) : null;
  }

  static ObjectNode evaluated(EvaluateDecisionResponse response) {
    ObjectNode document = Json.MAPPER.createObjectNode();
    document.put("decisionDefinitionId", response.getDecisionId());
    document.put("decisionDefinitionKey", key(response.getDecisionKey()));
    document.put("decisionDefinitionName", response.getDecisionName());
    document.put("decisionDefinitionVersion", response.getDecisionVersion());
    document.put("decisionRequirementsId", response.getDecisionRequirementsId());
    document.put("decisionRequirementsKey", key(response.getDecisionRequirementsKey()));
    document.put("decisionEvaluationKey", key(response.getDecisionEvaluationKey()));
    document.put("decisionInstanceKey", key(response.getDecisionInstanceKey()));
    document.put("output", response.getDecisionOutput());
    document.put("failedDecisionDefinitionId", response.getFailedDecisionId());
    document.put("failureMessage", response.getFailureMessage());
    document.put("tenantId", response.getTenantId());
    ArrayNode decisions = document.putArray("evaluatedDecisions");
    for (EvaluatedDecision decision : response.getEvaluatedDecisionsList()) {
      ObjectNode node = decisions.addObject();
      node.put("decisionDefinitionId", decision.getDecisionId());
      node.put("decisionDefinitionKey", key(decision.getDecisionKey()));
      node.put("decisionDefinitionName", decision.getDecisionName());
      node.put("decisionDefinitionVersion", decision.getDecisionVersion());
      node.put("decisionDefinitionType", decision.getDecisionType());
      node.put("output", decision.getDecisionOutput());
      node.put("tenantId", decision.getTenantId());
      ArrayNode inputs = node.putArray("evaluatedInputs");
      for (EvaluatedDecisionInput input : decision.getEvaluatedInputsList()) {
        ObjectNode item = inputs.addObject();
        item.put("inputId", input.getInputId());
        item.put("inputName", input.getInputName());
        item.put("inputValue", input.getInputValue());
      }
      ArrayNode rules = node.putArray("matchedRules");
      for (MatchedDecisionRule rule : decision.getMatchedRulesList()) {
        ObjectNode item = rules.addObject();
        item.put("ruleId", rule.getRuleId());
        item.put("ruleIndex", rule.getRuleIndex());
        ArrayNode outputs = item.putArray("evaluatedOutputs");
        for (EvaluatedDecisionOutput output : rule.getEvaluatedOutputsList()) {
          ObjectNode out = outputs.addObject();
          out.put("outputId", output.getOutputId());
          out.put("outputName", output.getOutputName());
          out.put("outputValue", output.getOutputValue());
          out.put("ruleId", rule.getRuleId());
          out.put("ruleIndex", rule.getRuleIndex());
        }
      }
    }
    return document;
  }
}

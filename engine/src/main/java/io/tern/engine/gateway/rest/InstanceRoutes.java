package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CancelProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceWithResultRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceWithResultResponse;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import io.vertx.core.http.HttpMethod;

/**
 * POST /v2/process-instances (by process id or definition key, with {@code awaitCompletion} the
 * gRPC CreateProcessInstanceWithResult) and POST /v2/process-instances/{key}/cancellation.
 */
final class InstanceRoutes {
  private InstanceRoutes() {}

  static void register(Routes routes, GatewayGrpc.AsyncService service) {
    routes.json(HttpMethod.POST, "/v2/process-instances", exchange -> create(exchange, service));
    routes.json(
        HttpMethod.POST,
        "/v2/process-instances/{processInstanceKey}/cancellation",
        exchange ->
            service.cancelProcessInstance(
                CancelProcessInstanceRequest.newBuilder()
                    .setProcessInstanceKey(exchange.pathKey("processInstanceKey"))
                    .build(),
                exchange.noContentReply()));
  }

  private static void create(Exchange exchange, GatewayGrpc.AsyncService service) {
    ObjectNode body = exchange.body();
    Json.unsupported(body, "startInstructions", "an instance starts at its none start event");
    Json.unsupported(body, "runtimeInstructions", "no runtime instructions are run");
    String processId = Json.text(body, "processDefinitionId");
    long definitionKey = Json.key(body, "processDefinitionKey");
    if (processId.isEmpty() && definitionKey == 0) {
      throw new InvalidRequest(
          "a process instance needs 'processDefinitionId' or 'processDefinitionKey'");
    }
    CreateProcessInstanceRequest request =
        CreateProcessInstanceRequest.newBuilder()
            .setBpmnProcessId(processId)
            .setProcessDefinitionKey(definitionKey)
            .setVersion(Json.integer(body, "processDefinitionVersion", -1))
            .setVariables(Json.variables(body, "variables"))
            .build();
    if (!Json.bool(body, "awaitCompletion")) {
      service.createProcessInstance(request, exchange.reply(InstanceRoutes::created));
      return;
    }
    service.createProcessInstanceWithResult(
        CreateProcessInstanceWithResultRequest.newBuilder()
            .setRequest(request)
            .setRequestTimeout(Json.number(body, "requestTimeout", 0))
            .addAllFetchVariables(Json.texts(body, "fetchVariables"))
            .build(),
        exchange.reply(InstanceRoutes::completed));
  }

  private static ObjectNode created(CreateProcessInstanceResponse response) {
    return instance(
        response.getBpmnProcessId(),
        response.getVersion(),
        response.getProcessDefinitionKey(),
        response.getProcessInstanceKey(),
        response.getTenantId());
  }

  private static ObjectNode completed(CreateProcessInstanceWithResultResponse response) {
    ObjectNode document =
        instance(
            response.getBpmnProcessId(),
            response.getVersion(),
            response.getProcessDefinitionKey(),
            response.getProcessInstanceKey(),
            response.getTenantId());
    document.set("variables", Json.document(response.getVariables()));
    return document;
  }

  private static ObjectNode instance(
      String processId, int version, long definitionKey, long instanceKey, String tenantId) {
    ObjectNode document = Json.MAPPER.createObjectNode();
    document.put("processDefinitionId", processId);
    document.put("processDefinitionVersion", version);
    document.put("processDefinitionKey", Long.toString(definitionKey));
    document.put("processInstanceKey", Long.toString(instanceKey));
    document.put("tenantId", tenantId);
    document.putObject("variables");
    document.putArray("tags");
    return document;
  }
}

package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CancelProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceWithResultRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceWithResultResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.MigrateProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ModifyProcessInstanceRequest;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import io.vertx.core.http.HttpMethod;

/**
 * POST /v2/process-instances (by process id or definition key, with {@code awaitCompletion} the
 * gRPC CreateProcessInstanceWithResult) and its /cancellation, /modification and /migration.
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
    routes.json(
        HttpMethod.POST,
        "/v2/process-instances/{processInstanceKey}/modification",
        exchange -> modify(exchange, service));
    routes.json(
        HttpMethod.POST,
        "/v2/process-instances/{processInstanceKey}/migration",
        exchange -> migrate(exchange, service));
  }

  private static void modify(Exchange exchange, GatewayGrpc.AsyncService service) {
    ObjectNode body = exchange.body();
    Json.unsupported(body, "moveInstructions", "activate and terminate instead");
    ModifyProcessInstanceRequest.Builder request =
        ModifyProcessInstanceRequest.newBuilder()
            .setProcessInstanceKey(exchange.pathKey("processInstanceKey"));
    for (ObjectNode activate : Json.objects(body, "activateInstructions")) {
      ModifyProcessInstanceRequest.ActivateInstruction.Builder instruction =
          ModifyProcessInstanceRequest.ActivateInstruction.newBuilder()
              .setElementId(Json.text(activate, "elementId"))
              .setAncestorElementInstanceKey(Json.key(activate, "ancestorElementInstanceKey"));
      for (ObjectNode variables : Json.objects(activate, "variableInstructions")) {
        instruction.addVariableInstructions(
            ModifyProcessInstanceRequest.VariableInstruction.newBuilder()
                .setVariables(Json.variables(variables, "variables"))
                .setScopeId(Json.text(variables, "scopeId")));
      }
      request.addActivateInstructions(instruction);
    }
    for (ObjectNode terminate : Json.objects(body, "terminateInstructions")) {
      Json.unsupported(terminate, "elementId", "terminate by elementInstanceKey");
      request.addTerminateInstructions(
          ModifyProcessInstanceRequest.TerminateInstruction.newBuilder()
              .setElementInstanceKey(Json.key(terminate, "elementInstanceKey")));
    }
    service.modifyProcessInstance(request.build(), exchange.noContentReply());
  }

  private static void migrate(Exchange exchange, GatewayGrpc.AsyncService service) {
    ObjectNode body = exchange.body();
    MigrateProcessInstanceRequest.MigrationPlan.Builder plan =
        MigrateProcessInstanceRequest.MigrationPlan.newBuilder()
            .setTargetProcessDefinitionKey(Json.key(body, "targetProcessDefinitionKey"));
    for (ObjectNode mapping : Json.objects(body, "mappingInstructions")) {
      plan.addMappingInstructions(
          MigrateProcessInstanceRequest.MappingInstruction.newBuilder()
              .setSourceElementId(Json.text(mapping, "sourceElementId"))
              .setTargetElementId(Json.text(mapping, "targetElementId")));
    }
    service.migrateProcessInstance(
        MigrateProcessInstanceRequest.newBuilder()
            .setProcessInstanceKey(exchange.pathKey("processInstanceKey"))
            .setMigrationPlan(plan)
            .build(),
        exchange.noContentReply());
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
    Json.putDocument(document, "variables", response.getVariables());
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

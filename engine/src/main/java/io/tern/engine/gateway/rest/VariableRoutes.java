package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeleteResourceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ResolveIncidentRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.SetVariablesRequest;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import io.vertx.core.http.HttpMethod;

/**
 * PUT /v2/element-instances/{key}/variables, POST /v2/incidents/{key}/resolution and POST
 * /v2/resources/{key}/deletion, as the gRPC SetVariables, ResolveIncident and DeleteResource.
 */
final class VariableRoutes {
  private VariableRoutes() {}

  static void register(Routes routes, GatewayGrpc.AsyncService service) {
    routes.json(
        HttpMethod.PUT,
        "/v2/element-instances/{elementInstanceKey}/variables",
        exchange -> {
          ObjectNode body = exchange.body();
          String variables = Json.variables(body, "variables");
          if (variables.isEmpty()) {
            throw new InvalidRequest("setting variables needs a 'variables' object");
          }
          service.setVariables(
              SetVariablesRequest.newBuilder()
                  .setElementInstanceKey(exchange.pathKey("elementInstanceKey"))
                  .setVariables(variables)
                  .setLocal(Json.bool(body, "local"))
                  .build(),
              exchange.noContentReply());
        });
    routes.json(
        HttpMethod.POST,
        "/v2/incidents/{incidentKey}/resolution",
        exchange ->
            service.resolveIncident(
                ResolveIncidentRequest.newBuilder()
                    .setIncidentKey(exchange.pathKey("incidentKey"))
                    .build(),
                exchange.noContentReply()));
    routes.json(
        HttpMethod.POST,
        "/v2/resources/{resourceKey}/deletion",
        exchange ->
            service.deleteResource(
                DeleteResourceRequest.newBuilder()
                    .setResourceKey(exchange.pathKey("resourceKey"))
                    .build(),
                exchange.reply(
                    response -> {
                      ObjectNode document = Json.MAPPER.createObjectNode();
                      document.put("resourceKey", response.getResourceKey());
                      return document;
                    })));
  }
}

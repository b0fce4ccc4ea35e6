package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.BroadcastSignalRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.PublishMessageRequest;
import io.vertx.core.http.HttpMethod;

/**
 * POST /v2/messages/publication and POST /v2/signals/broadcast, as the gRPC PublishMessage and
 * BroadcastSignal; POST /v2/messages/correlation publishes a message to be taken now and answers
 * with the process instance that took it (404 NOT_FOUND when none did), a call of the REST API
 * only.
 */
final class MessageRoutes {
  private MessageRoutes() {}

  static void register(
      Routes routes, GatewayGrpc.AsyncService service, MessageCorrelation correlation) {
    routes.json(
        HttpMethod.POST,
        "/v2/messages/publication",
        exchange -> {
          ObjectNode body = exchange.body();
          service.publishMessage(
              PublishMessageRequest.newBuilder()
                  .setName(Json.text(body, "name"))
                  .setCorrelationKey(Json.text(body, "correlationKey"))
                  .setTimeToLive(Json.number(body, "timeToLive", 0))
                  .setMessageId(Json.text(body, "messageId"))
                  .setVariables(Json.variables(body, "variables"))
                  .build(),
              exchange.reply(
                  response -> {
                    ObjectNode document = Json.MAPPER.createObjectNode();
                    document.put("messageKey", Long.toString(response.getKey()));
                    document.put("tenantId", response.getTenantId());
                    return document;
                  }));
        });
    routes.json(
        HttpMethod.POST,
        "/v2/messages/correlation",
        exchange -> {
          ObjectNode body = exchange.body();
          correlation.correlateMessage(
              new MessageCorrelation.Request(
                  Json.text(body, "name"),
                  Json.text(body, "correlationKey"),
                  Json.variables(body, "variables")),
              exchange.reply(
                  correlated -> {
                    ObjectNode document = Json.MAPPER.createObjectNode();
                    document.put("messageKey", Long.toString(correlated.messageKey()));
                    document.put("tenantId", correlated.tenantId());
                    document.put(
                        "processInstanceKey", Long.toString(correlated.processInstanceKey()));
                    return document;
                  }));
        });
    routes.json(
        HttpMethod.POST,
        "/v2/signals/broadcast",
        exchange -> {
          ObjectNode body = exchange.body();
          service.broadcastSignal(
              BroadcastSignalRequest.newBuilder()
                  .setSignalName(Json.text(body, "signalName"))
                  .setVariables(Json.variables(body, "variables"))
                  .build(),
              exchange.reply(
                  response -> {
                    ObjectNode document = Json.MAPPER.createObjectNode();
                    document.put("signalKey", Long.toString(response.getKey()));
                    document.put("tenantId", response.getTenantId());
                    return document;
                  }));
        });
  }
}

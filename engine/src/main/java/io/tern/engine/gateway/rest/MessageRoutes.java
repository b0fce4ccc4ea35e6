package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.BroadcastSignalRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.PublishMessageRequest;
import io.grpc.Status;
import io.vertx.core.http.HttpMethod;

/**
 * POST /v2/messages/publication and POST /v2/signals/broadcast, as the gRPC PublishMessage and
 * BroadcastSignal. POST /v2/messages/correlation (publish and wait for the instance it correlated
 * with) has no command in Tern: it answers 501.
 */
final class MessageRoutes {
  private MessageRoutes() {}

  static void register(Routes routes, GatewayGrpc.AsyncService service) {
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
        exchange ->
            exchange.fail(
                Status.UNIMPLEMENTED
                    .withDescription(
                        "Tern has no message correlation request: publish the message"
                            + " (POST /v2/messages/publication) instead")
                    .asRuntimeException()));
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

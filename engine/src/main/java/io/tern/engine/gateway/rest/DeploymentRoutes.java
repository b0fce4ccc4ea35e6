package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DecisionMetadata;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DecisionRequirementsMetadata;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeployResourceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeployResourceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.Deployment;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ProcessMetadata;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.Resource;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.concurrent.atomic.AtomicLong;

/**
 * POST /v2/deployments: a multipart upload of one or more {@code resources} parts, held in memory
 * up to the gateway's message limit, deployed as the gRPC DeployResource request is.
 */
final class DeploymentRoutes {
  private DeploymentRoutes() {}

  static void register(Routes routes, GatewayGrpc.AsyncService service, int maxBytes) {
    routes.streaming(
        HttpMethod.POST,
        "/v2/deployments",
        exchange -> {
          HttpServerRequest request = exchange.context().request();
          String type = String.valueOf(request.getHeader("content-type"));
          if (!type.toLowerCase(java.util.Locale.ROOT).startsWith("multipart/form-data")) {
            throw new InvalidRequest(
                "a deployment is a multipart/form-data upload of 'resources' parts, not " + type);
          }
          DeployResourceRequest.Builder deployment = DeployResourceRequest.newBuilder();
          AtomicLong bytes = new AtomicLong();
          request.setExpectMultipart(true);
          request.uploadHandler(
              upload -> {
                Buffer content = Buffer.buffer();
                upload.handler(
                    chunk -> {
                      if (bytes.addAndGet(chunk.length()) <= maxBytes) {
                        content.appendBuffer(chunk);
                      }
                    });
                upload.endHandler(
                    ended ->
                        deployment.addResources(
                            Resource.newBuilder()
                                .setName(upload.filename())
                                .setContent(ByteString.copyFrom(content.getBytes()))));
              });
          request.endHandler(
              ended -> {
                if (bytes.get() > maxBytes) {
                  exchange.fail(
                      io.grpc.Status.RESOURCE_EXHAUSTED
                          .withDescription(
                              "the resources are "
                                  + bytes.get()
                                  + " bytes; gateway.maxMessageSize allows "
                                  + maxBytes)
                          .asRuntimeException());
                } else if (deployment.getResourcesCount() == 0) {
                  exchange.fail(
                      new InvalidRequest("a deployment needs at least one 'resources' part"));
                } else {
                  service.deployResource(
                      deployment.build(), exchange.reply(DeploymentRoutes::deployed));
                }
              });
          request.exceptionHandler(exchange::fail);
          request.resume();
        });
  }

  static ObjectNode deployed(DeployResourceResponse response) {
    ObjectNode document = Json.MAPPER.createObjectNode();
    document.put("deploymentKey", Long.toString(response.getKey()));
    document.put("tenantId", response.getTenantId());
    ArrayNode deployments = document.putArray("deployments");
    for (Deployment deployment : response.getDeploymentsList()) {
      ObjectNode entry = deployments.addObject();
      if (deployment.hasProcess()) {
        ProcessMetadata process = deployment.getProcess();
        ObjectNode node = entry.putObject("processDefinition");
        node.put("processDefinitionId", process.getBpmnProcessId());
        node.put("processDefinitionVersion", process.getVersion());
        node.put("processDefinitionKey", Long.toString(process.getProcessDefinitionKey()));
        node.put("resourceName", process.getResourceName());
        node.put("tenantId", process.getTenantId());
      } else if (deployment.hasDecision()) {
        DecisionMetadata decision = deployment.getDecision();
        ObjectNode node = entry.putObject("decisionDefinition");
        node.put("decisionDefinitionId", decision.getDmnDecisionId());
        node.put("name", decision.getDmnDecisionName());
        node.put("version", decision.getVersion());
        node.put("decisionDefinitionKey", Long.toString(decision.getDecisionKey()));
        node.put("decisionRequirementsId", decision.getDmnDecisionRequirementsId());
        node.put("decisionRequirementsKey", Long.toString(decision.getDecisionRequirementsKey()));
        node.put("tenantId", decision.getTenantId());
      } else if (deployment.hasDecisionRequirements()) {
        DecisionRequirementsMetadata graph = deployment.getDecisionRequirements();
        ObjectNode node = entry.putObject("decisionRequirements");
        node.put("decisionRequirementsId", graph.getDmnDecisionRequirementsId());
        node.put("decisionRequirementsName", graph.getDmnDecisionRequirementsName());
        node.put("version", graph.getVersion());
        node.put("decisionRequirementsKey", Long.toString(graph.getDecisionRequirementsKey()));
        node.put("resourceName", graph.getResourceName());
        node.put("tenantId", graph.getTenantId());
      }
    }
    return document;
  }
}

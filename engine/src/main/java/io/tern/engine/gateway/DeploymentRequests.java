package io.tern.engine.gateway;

import static io.tern.engine.gateway.GatewayCommands.read;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DecisionMetadata;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DecisionRequirementsMetadata;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeleteResourceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeleteResourceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeployResourceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeployResourceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.Deployment;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ProcessMetadata;
import io.grpc.stub.StreamObserver;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.ResourceDeletionIntent;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import java.util.HashSet;
import java.util.Set;

/**
 * The gateway's deployment request: the resources become one deployment command on partition 1,
 * which distributes the deployment to the other partitions, and the answer lists the processes,
 * decision requirements graphs and decisions deployed.
 */
final class DeploymentRequests {
  /** Deployments are made on partition 1, which distributes them to the others. */
  private static final int DEPLOYMENT_PARTITION = 1;

  private final GatewayCommands commands;

  DeploymentRequests(GatewayCommands commands) {
    this.commands = commands;
  }

  /**
   * Each decision requirements graph once (before its decisions, as Zeebe lists them), then each
   * decision.
   */
  private static void addDecisions(
      DeployResourceResponse.Builder response, DeploymentValue deployed) {
    Set<Long> graphs = new HashSet<>();
    for (DeploymentValue.Decision decision : deployed.decisions) {
      if (graphs.add(decision.decisionRequirementsKey())) {
        response.addDeployments(
            Deployment.newBuilder()
                .setDecisionRequirements(
                    DecisionRequirementsMetadata.newBuilder()
                        .setDmnDecisionRequirementsId(decision.decisionRequirementsId())
                        .setDmnDecisionRequirementsName(decision.decisionRequirementsName())
                        .setVersion(decision.decisionRequirementsVersion())
                        .setDecisionRequirementsKey(decision.decisionRequirementsKey())
                        .setResourceName(decision.resourceName())
                        .setTenantId(Conversions.DEFAULT_TENANT)));
      }
    }
    for (DeploymentValue.Decision decision : deployed.decisions) {
      response.addDeployments(
          Deployment.newBuilder()
              .setDecision(
                  DecisionMetadata.newBuilder()
                      .setDmnDecisionId(decision.decisionId())
                      .setDmnDecisionName(decision.decisionName())
                      .setVersion(decision.version())
                      .setDecisionKey(decision.decisionKey())
                      .setDmnDecisionRequirementsId(decision.decisionRequirementsId())
                      .setDecisionRequirementsKey(decision.decisionRequirementsKey())
                      .setTenantId(Conversions.DEFAULT_TENANT)));
    }
  }

  void deleteResource(
      DeleteResourceRequest request, StreamObserver<DeleteResourceResponse> observer) {
    ResourceDeletionValue deletion = new ResourceDeletionValue();
    deletion.resourceKey = request.getResourceKey();
    commands.unary(
        "DeleteResource",
        DEPLOYMENT_PARTITION,
        ResourceDeletionIntent.DELETE,
        -1,
        deletion,
        observer,
        answer ->
            DeleteResourceResponse.newBuilder()
                .setResourceKey(Long.toString(request.getResourceKey()))
                .build());
  }

  void deployResource(
      DeployResourceRequest request, StreamObserver<DeployResourceResponse> observer) {
    for (var resource : request.getResourcesList()) {
      if (RequestTexts.tooLong(observer, "DeployResource", "a resource name", resource.getName())) {
        return;
      }
    }
    DeploymentValue deployment = new DeploymentValue();
    request
        .getResourcesList()
        .forEach(
            resource ->
                deployment.resources.add(
                    new DeploymentValue.Resource(
                        resource.getName(), resource.getContent().toByteArray())));
    commands.unary(
        "DeployResource",
        DEPLOYMENT_PARTITION,
        DeploymentIntent.CREATE,
        -1,
        deployment,
        observer,
        answer -> {
          DeploymentValue deployed = read(new DeploymentValue(), answer);
          DeployResourceResponse.Builder response =
              DeployResourceResponse.newBuilder()
                  .setKey(answer.key())
                  .setTenantId(Conversions.DEFAULT_TENANT);
          for (DeploymentValue.Process process : deployed.processes) {
            response.addDeployments(
                Deployment.newBuilder()
                    .setProcess(
                        ProcessMetadata.newBuilder()
                            .setBpmnProcessId(process.bpmnProcessId())
                            .setVersion(process.version())
                            .setProcessDefinitionKey(process.processDefinitionKey())
                            .setResourceName(process.resourceName())
                            .setTenantId(Conversions.DEFAULT_TENANT)));
          }
          addDecisions(response, deployed);
          return response.build();
        });
  }
}

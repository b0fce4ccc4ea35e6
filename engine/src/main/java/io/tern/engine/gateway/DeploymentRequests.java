package io.tern.engine.gateway;

import static io.tern.engine.gateway.GatewayCommands.read;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeployResourceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeployResourceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.Deployment;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ProcessMetadata;
import io.grpc.stub.StreamObserver;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.DeploymentIntent;
import io.tern.engine.workflow.value.DeploymentValue;

/**
 * The gateway's deployment request: the resources become one deployment command on partition 1,
 * which distributes the deployment to the other partitions, and the answer lists the processes
 * deployed.
 */
final class DeploymentRequests {
  /** Deployments are made on partition 1, which distributes them to the others. */
  private static final int DEPLOYMENT_PARTITION = 1;

  private final GatewayCommands commands;

  DeploymentRequests(GatewayCommands commands) {
    this.commands = commands;
  }

  void deployResource(
      DeployResourceRequest request, StreamObserver<DeployResourceResponse> observer) {
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
        ValueTypes.DEPLOYMENT,
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
          return response.build();
        });
  }
}

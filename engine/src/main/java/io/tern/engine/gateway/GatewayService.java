package io.tern.engine.gateway;

import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivateJobsRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivateJobsResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivatedJob;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.BroadcastSignalRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.BroadcastSignalResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CancelProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CancelProcessInstanceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CompleteJobRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CompleteJobResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceWithResultRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceWithResultResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeleteResourceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeleteResourceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeployResourceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeployResourceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluateDecisionRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.EvaluateDecisionResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.FailJobRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.FailJobResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.MigrateProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.MigrateProcessInstanceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ModifyProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ModifyProcessInstanceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.PublishMessageRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.PublishMessageResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ResolveIncidentRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ResolveIncidentResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.SetVariablesRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.SetVariablesResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.StreamActivatedJobsRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ThrowErrorRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ThrowErrorResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.TopologyRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.TopologyResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.UpdateJobRetriesRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.UpdateJobRetriesResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.UpdateJobTimeoutRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.UpdateJobTimeoutResponse;
import io.grpc.stub.StreamObserver;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.gateway.rest.MessageCorrelation;
import io.tern.engine.gateway.rest.UserTaskService;
import java.util.function.Supplier;

/**
 * Zeebe's gateway API over Tern's partitions: each request becomes a command on the partition it
 * belongs to (deployments on partition 1, new instances in turn, key-based commands by the key's
 * partition, messages by their correlation key, signals from partition 1), answered once the
 * partition's answer is committed. Requests Tern does not run answer UNIMPLEMENTED.
 *
 * <p>Each RPC is handed to the handler of its feature, on the calling gRPC thread: {@link
 * DeploymentRequests}, {@link InstanceRequests}, {@link JobRequests}, {@link MessageRequests} and
 * {@link DecisionRequests}, which share {@link GatewayCommands} to send a command and answer the
 * call.
 */
final class GatewayService extends GatewayGrpc.GatewayImplBase implements MessageCorrelation {
  private final Supplier<TopologyResponse> topology;
  private final DeploymentRequests deployments;
  private final InstanceRequests instances;
  private final JobRequests jobs;
  private final MessageRequests messages;
  private final DecisionRequests decisions;
  private final UserTaskRequests userTasks;

  GatewayService(
      PartitionCommands partitions,
      GatewayConfig config,
      GatewayJobStreams jobStreams,
      JobStreamForwarder forwarder,
      Supplier<TopologyResponse> topology) {
    this.topology = topology;
    GatewayCommands commands = new GatewayCommands(partitions, config);
    this.deployments = new DeploymentRequests(commands);
    this.instances = new InstanceRequests(commands, config);
    this.messages = new MessageRequests(commands);
    this.decisions = new DecisionRequests(commands);
    this.jobs = new JobRequests(commands, partitions, config, jobStreams, forwarder);
    this.userTasks = new UserTaskRequests(commands);
  }

  /** The user task commands, which only the REST API serves. */
  UserTaskService userTasks() {
    return userTasks;
  }

  @Override
  public void topology(TopologyRequest request, StreamObserver<TopologyResponse> observer) {
    observer.onNext(topology.get());
    observer.onCompleted();
  }

  @Override
  public void deployResource(
      DeployResourceRequest request, StreamObserver<DeployResourceResponse> observer) {
    deployments.deployResource(request, observer);
  }

  @Override
  public void createProcessInstance(
      CreateProcessInstanceRequest request,
      StreamObserver<CreateProcessInstanceResponse> observer) {
    instances.createProcessInstance(request, observer);
  }

  @Override
  public void createProcessInstanceWithResult(
      CreateProcessInstanceWithResultRequest request,
      StreamObserver<CreateProcessInstanceWithResultResponse> observer) {
    instances.createProcessInstanceWithResult(request, observer);
  }

  @Override
  public void cancelProcessInstance(
      CancelProcessInstanceRequest request,
      StreamObserver<CancelProcessInstanceResponse> observer) {
    instances.cancelProcessInstance(request, observer);
  }

  @Override
  public void modifyProcessInstance(
      ModifyProcessInstanceRequest request,
      StreamObserver<ModifyProcessInstanceResponse> observer) {
    instances.modifyProcessInstance(request, observer);
  }

  @Override
  public void migrateProcessInstance(
      MigrateProcessInstanceRequest request,
      StreamObserver<MigrateProcessInstanceResponse> observer) {
    instances.migrateProcessInstance(request, observer);
  }

  @Override
  public void activateJobs(
      ActivateJobsRequest request, StreamObserver<ActivateJobsResponse> observer) {
    jobs.activateJobs(request, observer);
  }

  @Override
  public void streamActivatedJobs(
      StreamActivatedJobsRequest request, StreamObserver<ActivatedJob> observer) {
    jobs.streamActivatedJobs(request, observer);
  }

  @Override
  public void completeJob(
      CompleteJobRequest request, StreamObserver<CompleteJobResponse> observer) {
    jobs.completeJob(request, observer);
  }

  @Override
  public void failJob(FailJobRequest request, StreamObserver<FailJobResponse> observer) {
    jobs.failJob(request, observer);
  }

  @Override
  public void throwError(ThrowErrorRequest request, StreamObserver<ThrowErrorResponse> observer) {
    jobs.throwError(request, observer);
  }

  @Override
  public void updateJobRetries(
      UpdateJobRetriesRequest request, StreamObserver<UpdateJobRetriesResponse> observer) {
    jobs.updateJobRetries(request, observer);
  }

  @Override
  public void updateJobTimeout(
      UpdateJobTimeoutRequest request, StreamObserver<UpdateJobTimeoutResponse> observer) {
    jobs.updateJobTimeout(request, observer);
  }

  @Override
  public void publishMessage(
      PublishMessageRequest request, StreamObserver<PublishMessageResponse> observer) {
    messages.publishMessage(request, observer);
  }

  @Override
  public void correlateMessage(
      MessageCorrelation.Request request, StreamObserver<MessageCorrelation.Correlated> observer) {
    messages.correlateMessage(request, observer);
  }

  @Override
  public void deleteResource(
      DeleteResourceRequest request, StreamObserver<DeleteResourceResponse> observer) {
    deployments.deleteResource(request, observer);
  }

  @Override
  public void broadcastSignal(
      BroadcastSignalRequest request, StreamObserver<BroadcastSignalResponse> observer) {
    messages.broadcastSignal(request, observer);
  }

  @Override
  public void setVariables(
      SetVariablesRequest request, StreamObserver<SetVariablesResponse> observer) {
    instances.setVariables(request, observer);
  }

  @Override
  public void resolveIncident(
      ResolveIncidentRequest request, StreamObserver<ResolveIncidentResponse> observer) {
    instances.resolveIncident(request, observer);
  }

  @Override
  public void evaluateDecision(
      EvaluateDecisionRequest request, StreamObserver<EvaluateDecisionResponse> observer) {
    decisions.evaluateDecision(request, observer);
  }

  void close() {
    jobs.close();
  }
}

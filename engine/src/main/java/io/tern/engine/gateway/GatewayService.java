package io.tern.engine.gateway;

import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivateJobsRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivateJobsResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivatedJob;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CancelProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CancelProcessInstanceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CompleteJobRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CompleteJobResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceWithResultRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CreateProcessInstanceWithResultResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeployResourceRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.DeployResourceResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.Deployment;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.FailJobRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.FailJobResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ProcessMetadata;
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
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.command.PartitionCommands.Answer;
import io.tern.engine.record.Keys;
import io.tern.engine.record.RecordValue;
import io.tern.engine.workflow.Partitions;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.CreationIntent;
import io.tern.engine.workflow.ValueTypes.DeploymentIntent;
import io.tern.engine.workflow.ValueTypes.IncidentIntent;
import io.tern.engine.workflow.ValueTypes.JobIntent;
import io.tern.engine.workflow.ValueTypes.MessageIntent;
import io.tern.engine.workflow.ValueTypes.ProcessInstanceIntent;
import io.tern.engine.workflow.ValueTypes.ResultIntent;
import io.tern.engine.workflow.ValueTypes.VariableDocumentIntent;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.MessageValue;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.VariableDocumentValue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Zeebe's gateway API over Tern's partitions: each request becomes a command on the partition it
 * belongs to (deployments on partition 1, new instances in turn, key-based commands by the key's
 * partition, messages by their correlation key), answered once the partition's answer is committed.
 * Requests Tern does not run answer UNIMPLEMENTED.
 */
final class GatewayService extends GatewayGrpc.GatewayImplBase {
  /** How long before a client's deadline a request stops waiting, to answer why in time. */
  private static final long DEADLINE_MARGIN_MS = 500;

  /** Deployments are made on partition 1, which distributes them to the others. */
  private static final int DEPLOYMENT_PARTITION = 1;

  private final PartitionCommands partitions;
  private final GatewayConfig config;
  private final Supplier<TopologyResponse> topology;
  private final JobActivation activation;
  private final GatewayJobStreams jobStreams;
  private final JobStreamForwarder forwarder;
  private final AtomicInteger nextCreationPartition = new AtomicInteger();

  GatewayService(
      PartitionCommands partitions,
      GatewayConfig config,
      GatewayJobStreams jobStreams,
      JobStreamForwarder forwarder,
      Supplier<TopologyResponse> topology) {
    this.partitions = partitions;
    this.forwarder = forwarder;
    this.config = config;
    this.jobStreams = jobStreams;
    this.topology = topology;
    this.activation = new JobActivation(partitions, jobStreams, config);
  }

  @Override
  public void topology(TopologyRequest request, StreamObserver<TopologyResponse> observer) {
    observer.onNext(topology.get());
    observer.onCompleted();
  }

  @Override
  public void deployResource(
      DeployResourceRequest request, StreamObserver<DeployResourceResponse> observer) {
    DeploymentValue deployment = new DeploymentValue();
    request
        .getResourcesList()
        .forEach(
            resource ->
                deployment.resources.add(
                    new DeploymentValue.Resource(
                        resource.getName(), resource.getContent().toByteArray())));
    unary(
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

  @Override
  public void createProcessInstance(
      CreateProcessInstanceRequest request,
      StreamObserver<CreateProcessInstanceResponse> observer) {
    unary(
        "CreateProcessInstance",
        nextCreationPartition(),
        ValueTypes.PROCESS_INSTANCE_CREATION,
        CreationIntent.CREATE,
        -1,
        creation(request),
        observer,
        answer -> {
          ProcessInstanceCreationValue created = read(new ProcessInstanceCreationValue(), answer);
          return CreateProcessInstanceResponse.newBuilder()
              .setProcessDefinitionKey(created.processDefinitionKey)
              .setBpmnProcessId(created.bpmnProcessId)
              .setVersion(created.version)
              .setProcessInstanceKey(created.processInstanceKey)
              .setTenantId(Conversions.DEFAULT_TENANT)
              .build();
        });
  }

  @Override
  public void createProcessInstanceWithResult(
      CreateProcessInstanceWithResultRequest request,
      StreamObserver<CreateProcessInstanceWithResultResponse> observer) {
    ProcessInstanceCreationValue creation = creation(request.getRequest());
    creation.fetchVariables.addAll(request.getFetchVariablesList());
    long timeoutMs =
        request.getRequestTimeout() > 0
            ? request.getRequestTimeout()
            : config.requestTimeout().toMillis();
    send(
        "CreateProcessInstanceWithResult",
        nextCreationPartition(),
        ValueTypes.PROCESS_INSTANCE_CREATION,
        CreationIntent.CREATE_WITH_AWAITING_RESULT,
        -1,
        creation,
        timeoutMs,
        observer,
        answer -> {
          ProcessInstanceCreationValue result = read(new ProcessInstanceCreationValue(), answer);
          if (answer.intent() == ResultIntent.TERMINATED) {
            throw Status.FAILED_PRECONDITION
                .withDescription(
                    "process instance "
                        + result.processInstanceKey
                        + " was terminated before it completed, so it has no result")
                .asRuntimeException();
          }
          return CreateProcessInstanceWithResultResponse.newBuilder()
              .setProcessDefinitionKey(result.processDefinitionKey)
              .setBpmnProcessId(result.bpmnProcessId)
              .setVersion(result.version)
              .setProcessInstanceKey(result.processInstanceKey)
              .setVariables(Conversions.text(result.variables))
              .setTenantId(Conversions.DEFAULT_TENANT)
              .build();
        });
  }

  private static ProcessInstanceCreationValue creation(CreateProcessInstanceRequest request) {
    ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
    creation.processDefinitionKey =
        request.getProcessDefinitionKey() > 0 ? request.getProcessDefinitionKey() : -1;
    creation.bpmnProcessId = request.getBpmnProcessId();
    creation.version =
        request.getVersion() > 0
            ? request.getVersion()
            : ProcessInstanceCreationValue.LATEST_VERSION;
    creation.variables = Conversions.json(request.getVariables());
    return creation;
  }

  @Override
  public void cancelProcessInstance(
      CancelProcessInstanceRequest request,
      StreamObserver<CancelProcessInstanceResponse> observer) {
    byKey(
        "CancelProcessInstance",
        request.getProcessInstanceKey(),
        ValueTypes.PROCESS_INSTANCE,
        ProcessInstanceIntent.CANCEL,
        new ProcessInstanceValue(),
        observer,
        answer -> CancelProcessInstanceResponse.getDefaultInstance());
  }

  @Override
  public void activateJobs(
      ActivateJobsRequest request, StreamObserver<ActivateJobsResponse> observer) {
    activation.activate(request, (ServerCallStreamObserver<ActivateJobsResponse>) observer);
  }

  @Override
  public void streamActivatedJobs(
      StreamActivatedJobsRequest request, StreamObserver<ActivatedJob> observer) {
    if (request.getType().isBlank() || request.getTimeout() < 1) {
      observer.onError(
          Status.INVALID_ARGUMENT
              .withDescription(
                  "a job stream needs a type and a timeout >= 1 ms; got type '"
                      + request.getType()
                      + "' and "
                      + request.getTimeout()
                      + " ms")
              .asRuntimeException());
      return;
    }
    ServerCallStreamObserver<ActivatedJob> call = (ServerCallStreamObserver<ActivatedJob>) observer;
    PushedJobs stream = new PushedJobs(request, call);
    JobStreamForwarder.Handle forwarded = forwarder.forward(request, stream);
    call.setOnCancelHandler(
        () -> {
          jobStreams.close(request.getType(), stream);
          forwarded.close();
        });
    jobStreams.open(request.getType(), stream);
  }

  @Override
  public void completeJob(
      CompleteJobRequest request, StreamObserver<CompleteJobResponse> observer) {
    JobValue completion = new JobValue();
    completion.variables = Conversions.json(request.getVariables());
    byKey(
        "CompleteJob",
        request.getJobKey(),
        ValueTypes.JOB,
        JobIntent.COMPLETE,
        completion,
        observer,
        answer -> CompleteJobResponse.getDefaultInstance());
  }

  @Override
  public void failJob(FailJobRequest request, StreamObserver<FailJobResponse> observer) {
    JobValue failure = new JobValue();
    failure.retries = request.getRetries();
    failure.errorMessage = request.getErrorMessage();
    failure.retryBackoffMs = request.getRetryBackOff();
    failure.variables = Conversions.json(request.getVariables());
    byKey(
        "FailJob",
        request.getJobKey(),
        ValueTypes.JOB,
        JobIntent.FAIL,
        failure,
        observer,
        answer -> FailJobResponse.getDefaultInstance());
  }

  @Override
  public void throwError(ThrowErrorRequest request, StreamObserver<ThrowErrorResponse> observer) {
    JobValue error = new JobValue();
    error.errorCode = request.getErrorCode();
    error.errorMessage = request.getErrorMessage();
    error.variables = Conversions.json(request.getVariables());
    byKey(
        "ThrowError",
        request.getJobKey(),
        ValueTypes.JOB,
        JobIntent.THROW_ERROR,
        error,
        observer,
        answer -> ThrowErrorResponse.getDefaultInstance());
  }

  @Override
  public void updateJobRetries(
      UpdateJobRetriesRequest request, StreamObserver<UpdateJobRetriesResponse> observer) {
    JobValue update = new JobValue();
    update.retries = request.getRetries();
    byKey(
        "UpdateJobRetries",
        request.getJobKey(),
        ValueTypes.JOB,
        JobIntent.UPDATE_RETRIES,
        update,
        observer,
        answer -> UpdateJobRetriesResponse.getDefaultInstance());
  }

  @Override
  public void updateJobTimeout(
      UpdateJobTimeoutRequest request, StreamObserver<UpdateJobTimeoutResponse> observer) {
    JobValue update = new JobValue();
    update.timeoutMs = request.getTimeout();
    byKey(
        "UpdateJobTimeout",
        request.getJobKey(),
        ValueTypes.JOB,
        JobIntent.UPDATE_TIMEOUT,
        update,
        observer,
        answer -> UpdateJobTimeoutResponse.getDefaultInstance());
  }

  @Override
  public void publishMessage(
      PublishMessageRequest request, StreamObserver<PublishMessageResponse> observer) {
    MessageValue message = new MessageValue();
    message.name = request.getName();
    message.correlationKey = request.getCorrelationKey();
    message.timeToLiveMs = request.getTimeToLive();
    message.messageId = request.getMessageId();
    message.variables = Conversions.json(request.getVariables());
    unary(
        "PublishMessage",
        Partitions.ofCorrelationKey(request.getCorrelationKey(), partitions.partitionsCount()),
        ValueTypes.MESSAGE,
        MessageIntent.PUBLISH,
        -1,
        message,
        observer,
        answer ->
            PublishMessageResponse.newBuilder()
                .setKey(answer.key())
                .setTenantId(Conversions.DEFAULT_TENANT)
                .build());
  }

  @Override
  public void setVariables(
      SetVariablesRequest request, StreamObserver<SetVariablesResponse> observer) {
    VariableDocumentValue document = new VariableDocumentValue();
    document.scopeKey = request.getElementInstanceKey();
    document.local = request.getLocal();
    document.variables = Conversions.json(request.getVariables());
    byKey(
        "SetVariables",
        request.getElementInstanceKey(),
        ValueTypes.VARIABLE_DOCUMENT,
        VariableDocumentIntent.UPDATE,
        document,
        observer,
        answer -> SetVariablesResponse.newBuilder().setKey(answer.key()).build());
  }

  @Override
  public void resolveIncident(
      ResolveIncidentRequest request, StreamObserver<ResolveIncidentResponse> observer) {
    byKey(
        "ResolveIncident",
        request.getIncidentKey(),
        ValueTypes.INCIDENT,
        IncidentIntent.RESOLVE,
        new IncidentValue(),
        observer,
        answer -> ResolveIncidentResponse.getDefaultInstance());
  }

  void close() {
    activation.close();
  }

  private int nextCreationPartition() {
    return 1 + Math.floorMod(nextCreationPartition.getAndIncrement(), partitions.partitionsCount());
  }

  /** A command about an existing entity goes to the partition its key was made on. */
  private <T> void byKey(
      String what,
      long key,
      int valueType,
      int intent,
      RecordValue value,
      StreamObserver<T> observer,
      Function<Answer, T> onAccepted) {
    int partition = key > 0 ? Keys.partitionOf(key) : 0;
    if (partition < 1 || partition > partitions.partitionsCount()) {
      observer.onError(
          Status.NOT_FOUND
              .withDescription(
                  what
                      + ": "
                      + key
                      + " is not a key of this cluster (no partition "
                      + partition
                      + " among "
                      + partitions.partitionsCount()
                      + ")")
              .asRuntimeException());
      return;
    }
    unary(what, partition, valueType, intent, key, value, observer, onAccepted);
  }

  private <T> void unary(
      String what,
      int partition,
      int valueType,
      int intent,
      long key,
      RecordValue value,
      StreamObserver<T> observer,
      Function<Answer, T> onAccepted) {
    send(
        what,
        partition,
        valueType,
        intent,
        key,
        value,
        config.requestTimeout().toMillis(),
        observer,
        onAccepted);
  }

  private <T> void send(
      String what,
      int partition,
      int valueType,
      int intent,
      long key,
      RecordValue value,
      long timeoutMs,
      StreamObserver<T> observer,
      Function<Answer, T> onAccepted) {
    // The partition's answer, or its explanation of a timeout, must reach the client before the
    // client's own deadline cuts the call.
    Deadline deadline = Context.current().getDeadline();
    long waitMs =
        deadline == null
            ? timeoutMs
            : Math.min(
                timeoutMs,
                Math.max(1, deadline.timeRemaining(TimeUnit.MILLISECONDS) - DEADLINE_MARGIN_MS));
    CompletableFuture<Answer> answer;
    try {
      answer = partitions.request(partition, valueType, intent, key, value, waitMs);
    } catch (RuntimeException e) {
      observer.onError(GrpcErrors.failed(what, e));
      return;
    }
    answer
        .orTimeout(waitMs + PartitionCommands.TIMEOUT_GRACE_MS, TimeUnit.MILLISECONDS)
        .whenComplete(
            (answered, error) -> {
              if (error != null) {
                observer.onError(GrpcErrors.failed(what, error));
              } else if (!answered.accepted()) {
                observer.onError(GrpcErrors.rejected(what, answered));
              } else {
                T response;
                try {
                  response = onAccepted.apply(answered);
                } catch (RuntimeException e) {
                  observer.onError(GrpcErrors.failed(what, e));
                  return;
                }
                observer.onNext(response);
                observer.onCompleted();
              }
            });
  }

  static <V extends io.tern.engine.workflow.value.WorkflowValue> V read(V into, Answer answer) {
    into.readFrom(new UnsafeBuffer(answer.value()));
    return into;
  }
}

package io.tern.engine.gateway;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivateJobsRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivateJobsResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivatedJob;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CompleteJobRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.CompleteJobResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.FailJobRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.FailJobResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.StreamActivatedJobsRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ThrowErrorRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ThrowErrorResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.UpdateJobRetriesRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.UpdateJobRetriesResponse;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.UpdateJobTimeoutRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.UpdateJobTimeoutResponse;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.workflow.value.JobValue;

/**
 * The gateway's job requests: activating jobs (long polling, through {@link JobActivation}),
 * streaming them as they are created (through {@link GatewayJobStreams} and the {@link
 * JobStreamForwarder} to other brokers), and completing, failing, throwing an error for and
 * updating the retries or timeout of one job, each on the partition its key was made on.
 */
final class JobRequests {
  private final GatewayCommands commands;
  private final JobActivation activation;
  private final GatewayJobStreams jobStreams;
  private final JobStreamForwarder forwarder;

  JobRequests(
      GatewayCommands commands,
      PartitionCommands partitions,
      GatewayConfig config,
      GatewayJobStreams jobStreams,
      JobStreamForwarder forwarder) {
    this.commands = commands;
    this.forwarder = forwarder;
    this.jobStreams = jobStreams;
    this.activation = new JobActivation(partitions, jobStreams, config);
  }

  void activateJobs(ActivateJobsRequest request, StreamObserver<ActivateJobsResponse> observer) {
    activation.activate(request, (ServerCallStreamObserver<ActivateJobsResponse>) observer);
  }

  void streamActivatedJobs(
      StreamActivatedJobsRequest request, StreamObserver<ActivatedJob> observer) {
    if (RequestTexts.tooLong(observer, "StreamActivatedJobs", "the type", request.getType())
        || RequestTexts.tooLong(
            observer, "StreamActivatedJobs", "the worker", request.getWorker())) {
      return;
    }
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

  void completeJob(CompleteJobRequest request, StreamObserver<CompleteJobResponse> observer) {
    JobValue completion = new JobValue();
    completion.variables = Conversions.json(request.getVariables());
    commands.byKey(
        "CompleteJob",
        request.getJobKey(),
        JobIntent.COMPLETE,
        completion,
        observer,
        answer -> CompleteJobResponse.getDefaultInstance());
  }

  void failJob(FailJobRequest request, StreamObserver<FailJobResponse> observer) {
    JobValue failure = new JobValue();
    failure.retries = request.getRetries();
    failure.errorMessage = RequestTexts.cut(request.getErrorMessage());
    failure.retryBackoffMs = request.getRetryBackOff();
    failure.variables = Conversions.json(request.getVariables());
    commands.byKey(
        "FailJob",
        request.getJobKey(),
        JobIntent.FAIL,
        failure,
        observer,
        answer -> FailJobResponse.getDefaultInstance());
  }

  void throwError(ThrowErrorRequest request, StreamObserver<ThrowErrorResponse> observer) {
    if (RequestTexts.tooLong(observer, "ThrowError", "the error code", request.getErrorCode())) {
      return;
    }
    JobValue error = new JobValue();
    error.errorCode = request.getErrorCode();
    error.errorMessage = RequestTexts.cut(request.getErrorMessage());
    error.variables = Conversions.json(request.getVariables());
    commands.byKey(
        "ThrowError",
        request.getJobKey(),
        JobIntent.THROW_ERROR,
        error,
        observer,
        answer -> ThrowErrorResponse.getDefaultInstance());
  }

  void updateJobRetries(
      UpdateJobRetriesRequest request, StreamObserver<UpdateJobRetriesResponse> observer) {
    JobValue update = new JobValue();
    update.retries = request.getRetries();
    commands.byKey(
        "UpdateJobRetries",
        request.getJobKey(),
        JobIntent.UPDATE_RETRIES,
        update,
        observer,
        answer -> UpdateJobRetriesResponse.getDefaultInstance());
  }

  void updateJobTimeout(
      UpdateJobTimeoutRequest request, StreamObserver<UpdateJobTimeoutResponse> observer) {
    JobValue update = new JobValue();
    update.timeoutMs = request.getTimeout();
    commands.byKey(
        "UpdateJobTimeout",
        request.getJobKey(),
        JobIntent.UPDATE_TIMEOUT,
        update,
        observer,
        answer -> UpdateJobTimeoutResponse.getDefaultInstance());
  }

  void close() {
    activation.close();
  }
}

package io.tern.engine.gateway;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivatedJob;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.StreamActivatedJobsRequest;
import io.grpc.stub.ServerCallStreamObserver;
import io.tern.engine.workflow.JobStreams;
import io.tern.engine.workflow.value.JobValue;
import java.util.List;

/** One client's StreamActivatedJobs call: jobs of its type are pushed to it as they come. */
final class PushedJobs implements JobStreams.JobStream {
  private final StreamActivatedJobsRequest request;
  private final ServerCallStreamObserver<ActivatedJob> call;
  private final List<String> fetchVariables;

  PushedJobs(StreamActivatedJobsRequest request, ServerCallStreamObserver<ActivatedJob> call) {
    this.request = request;
    this.call = call;
    this.fetchVariables = List.copyOf(request.getFetchVariableList());
  }

  @Override
  public String worker() {
    return request.getWorker();
  }

  @Override
  public long timeoutMs() {
    return request.getTimeout();
  }

  @Override
  public List<String> fetchVariables() {
    return fetchVariables;
  }

  /** Partitions push from their own threads: one at a time onto the call. */
  @Override
  public synchronized boolean push(long jobKey, JobValue job) {
    if (call.isCancelled()) {
      return false;
    }
    try {
      call.onNext(Conversions.activatedJob(jobKey, job));
      return true;
    } catch (RuntimeException closedMeanwhile) {
      return false;
    }
  }
}

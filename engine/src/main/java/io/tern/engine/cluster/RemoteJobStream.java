package io.tern.engine.cluster;

import io.grpc.stub.ServerCallStreamObserver;
import io.tern.engine.cluster.BrokerMessages.JobStreamRequest;
import io.tern.engine.cluster.BrokerMessages.PushedJob;
import io.tern.engine.workflow.JobStreams;
import io.tern.engine.workflow.value.JobValue;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;

/** A gateway's job stream, open on this broker: activated jobs go to the gateway over gRPC. */
final class RemoteJobStream implements JobStreams.JobStream {
  private final JobStreamRequest request;
  private final ServerCallStreamObserver<byte[]> call;

  RemoteJobStream(JobStreamRequest request, ServerCallStreamObserver<byte[]> call) {
    this.request = request;
    this.call = call;
  }

  @Override
  public String worker() {
    return request.worker();
  }

  @Override
  public long timeoutMs() {
    return request.timeoutMs();
  }

  @Override
  public List<String> fetchVariables() {
    return request.fetchVariables();
  }

  /** Partitions push from their own threads: one at a time onto the call. */
  @Override
  public synchronized boolean push(long jobKey, JobValue job) {
    if (call.isCancelled()) {
      return false;
    }
    byte[] value = new byte[job.length()];
    job.write(new UnsafeBuffer(value), 0);
    try {
      call.onNext(new PushedJob(jobKey, value).encode());
      return true;
    } catch (RuntimeException closedMeanwhile) {
      return false;
    }
  }
}

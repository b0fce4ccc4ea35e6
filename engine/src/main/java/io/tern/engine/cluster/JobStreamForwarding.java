package io.tern.engine.cluster;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.StreamActivatedJobsRequest;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import io.tern.engine.cluster.BrokerMessages.BrokerState;
import io.tern.engine.cluster.BrokerMessages.JobStreamRequest;
import io.tern.engine.cluster.BrokerMessages.PushedJob;
import io.tern.engine.gateway.JobStreamForwarder;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.record.Keys;
import io.tern.engine.workflow.JobStreams;
import io.tern.engine.workflow.Partitions;
import io.tern.engine.workflow.value.JobValue;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The gateway's side of job streams in a cluster: a client's stream is opened on every connected
 * broker (and on brokers that connect later), and the jobs they push are handed to the client. A
 * job that arrives after the client left is given back (JOB YIELD to its partition) at once rather
 * than waiting for its timeout.
 */
public final class JobStreamForwarding implements JobStreamForwarder, ClusterClient.Listener {
  private final ClusterClient cluster;
  private final Partitions partitions;
  private final Set<Forwarded> open = ConcurrentHashMap.newKeySet();

  public JobStreamForwarding(ClusterClient cluster, Partitions partitions) {
    this.cluster = cluster;
    this.partitions = partitions;
    cluster.addListener(this);
  }

  @Override
  public Handle forward(StreamActivatedJobsRequest request, JobStreams.JobStream target) {
    Forwarded forwarded =
        new Forwarded(
            new JobStreamRequest(
                    request.getType(),
                    request.getWorker(),
                    request.getTimeout(),
                    List.copyOf(request.getFetchVariableList()))
                .encode(),
            target);
    open.add(forwarded);
    cluster.connectedNodeIds().forEach(forwarded::openOn);
    return () -> {
      open.remove(forwarded);
      forwarded.close();
    };
  }

  @Override
  public void onState(BrokerState state) {
    open.forEach(forwarded -> forwarded.openOn(state.nodeId()));
  }

  @Override
  public void onLost(BrokerState lastState) {
    open.forEach(forwarded -> forwarded.dropOn(lastState.nodeId()));
  }

  /** One client stream and its calls to the brokers, by node id. */
  private final class Forwarded {
    private final byte[] request;
    private final JobStreams.JobStream target;
    private final Map<Integer, ClientCall<byte[], byte[]>> calls = new ConcurrentHashMap<>();
    private volatile boolean closed;

    Forwarded(byte[] request, JobStreams.JobStream target) {
      this.request = request;
      this.target = target;
    }

    synchronized void openOn(int nodeId) {
      if (closed || calls.containsKey(nodeId)) {
        return;
      }
      io.grpc.Channel channel = cluster.channelOf(nodeId);
      if (channel == null) {
        return;
      }
      ClientCall<byte[], byte[]> call = channel.newCall(BrokerApi.STREAM_JOBS, CallOptions.DEFAULT);
      calls.put(nodeId, call);
      ClientCalls.asyncServerStreamingCall(
          call,
          request,
          new StreamObserver<>() {
            @Override
            public void onNext(byte[] message) {
              PushedJob pushed = PushedJob.decode(message);
              JobValue job = new JobValue().readFrom(new UnsafeBuffer(pushed.value()));
              if (closed || !target.push(pushed.jobKey(), job)) {
                partitions.send(
                    Keys.partitionOf(pushed.jobKey()), JobIntent.YIELD, pushed.jobKey(), job);
              }
            }

            @Override
            public void onError(Throwable error) {
              calls.remove(nodeId, call); // opened again when the broker is back
            }

            @Override
            public void onCompleted() {
              calls.remove(nodeId, call);
            }
          });
    }

    synchronized void dropOn(int nodeId) {
      ClientCall<byte[], byte[]> call = calls.remove(nodeId);
      if (call != null) {
        call.cancel("the broker's subscription broke", null);
      }
    }

    synchronized void close() {
      closed = true;
      calls.values().forEach(call -> call.cancel("the client closed its job stream", null));
      calls.clear();
    }
  }
}

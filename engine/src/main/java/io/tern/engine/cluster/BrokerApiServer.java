package io.tern.engine.cluster;

import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.ssl.SslContext;
import io.tern.engine.cluster.BrokerMessages.Answered;
import io.tern.engine.cluster.BrokerMessages.BrokerState;
import io.tern.engine.cluster.BrokerMessages.Event;
import io.tern.engine.cluster.BrokerMessages.Execute;
import io.tern.engine.cluster.BrokerMessages.JobStreamRequest;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.command.PartitionCommands.Answer;
import io.tern.engine.command.PartitionCommands.NotWrittenException;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.Intents;
import io.tern.engine.record.RecordValue;
import io.tern.engine.workflow.Partitions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves the {@link BrokerApi} on the broker's command port: commands for the partitions led here,
 * this broker's state to its subscribers (sent when it changes, checked every {@link
 * #STATE_CHECK_INTERVAL_MS}), jobs pushed to gateways' streams, and rebalancing.
 *
 * <p>Gateways and brokers both call it, but only brokers may send a partition internal commands
 * (those between partitions, distribution, acknowledgements) and ask it to rebalance: from any
 * other caller, a partition takes only the client commands a gateway forwards ({@link
 * ForwardableCommands}). {@link CommandApiAccess} checks it; who is a broker {@link BrokerIdentity}
 * decides, from the connection's verified certificate when TLS is on, else from the address it
 * comes from.
 */
public final class BrokerApiServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BrokerApiServer.class);

  /** How often the broker's state is compared with what subscribers last got. */
  static final long STATE_CHECK_INTERVAL_MS = 20;

  /** The longest a forwarded command waits for its answer when the caller set no deadline. */
  private static final long DEFAULT_ANSWER_TIMEOUT_MS = 30_000;

  /** What the server needs from its broker. */
  public interface Host {
    /** Writes a command and completes with its committed answer (see {@link PartitionCommands}). */
    CompletableFuture<Answer> request(
        int partitionId, Intent intent, long key, RecordValue value, long timeoutMs);

    /** Engine to engine: writes a command if the partition is led here, else drops it. */
    Partitions partitions();

    BrokerState state();

    BrokerJobStreams jobStreams();

    /** Moves leadership of the partitions led here to their primaries: partition to outcome. */
    CompletableFuture<Map<Integer, String>> rebalanceLocal();

    /** Reads or changes the membership of a partition led here (NOT_LEADER otherwise). */
    default CompletableFuture<BrokerMessages.MembershipAnswer> membership(
        BrokerMessages.MembershipRequest request) {
      return CompletableFuture.completedFuture(BrokerMessages.MembershipAnswer.notLeader());
    }

    /** Answers a write to /actuator/cluster that another broker forwards to this one. */
    default CompletableFuture<BrokerMessages.ClusterAnswer> clusterChange(
        BrokerMessages.ClusterRequest request) {
      return CompletableFuture.completedFuture(
          new BrokerMessages.ClusterAnswer(
              404, "{\"error\":\"this broker does not serve /actuator/cluster\"}"));
    }

    /** A broker subscribed and named its command address (a broker may be new to this one). */
    default void brokerSubscribed(BrokerMessages.BrokerAddress address) {}
  }

  private final Host host;
  private final Server server;
  private final CommandApiAccess access;
  private final Set<ServerCallStreamObserver<byte[]>> subscribers = ConcurrentHashMap.newKeySet();

  /** Every send to subscribers happens on this thread, so that no two overlap on one call. */
  private final ScheduledExecutorService sender =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "broker-api-sender");
            thread.setDaemon(true);
            return thread;
          });

  private BrokerState lastState;

  private BrokerApiServer(
      Host host,
      String bindHost,
      int port,
      SslContext tls,
      BrokerIdentity brokers,
      MeterRegistry registry) {
    this.host = host;
    this.access = new CommandApiAccess(brokers, registry);
    ServerServiceDefinition service =
        ServerServiceDefinition.builder(BrokerApi.SERVICE)
            .addMethod(BrokerApi.EXECUTE, ServerCalls.asyncUnaryCall(this::execute))
            .addMethod(BrokerApi.SUBSCRIBE, ServerCalls.asyncServerStreamingCall(this::subscribe))
            .addMethod(
                BrokerApi.STREAM_JOBS, ServerCalls.asyncServerStreamingCall(this::streamJobs))
            .addMethod(BrokerApi.REBALANCE, ServerCalls.asyncUnaryCall(this::rebalance))
            .addMethod(BrokerApi.MEMBERSHIP, ServerCalls.asyncUnaryCall(this::membership))
            .addMethod(BrokerApi.CLUSTER_CHANGE, ServerCalls.asyncUnaryCall(this::clusterChange))
            .build();
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(new InetSocketAddress(bindHost, port))
            .maxInboundMessageSize(BrokerApi.MAX_MESSAGE_BYTES)
            // Clients (ClusterClient) ping every 5 s, with or without calls, to notice a dead peer.
            .permitKeepAliveTime(1, TimeUnit.SECONDS)
            .permitKeepAliveWithoutCalls(true)
            .addService(ServerInterceptors.intercept(service, access.interceptor()));
    if (tls != null) {
      // Cluster TLS: the context requires a client certificate from the cluster's CA, so only
      // brokers and gateways of this cluster get to call (the SSL session names the caller, which
      // CommandApiAccess checks against the brokers' names).
      builder.sslContext(tls);
    }
    this.server = builder.build();
  }

  /**
   * Starts serving plaintext on {@code bindHost:port} (0: a port the system picks); {@code brokers}
   * tells the brokers of the cluster from other callers, refusals count in {@code registry}.
   */
  public static BrokerApiServer start(
      Host host, String bindHost, int port, BrokerIdentity brokers, MeterRegistry registry) {
    return start(host, bindHost, port, null, brokers, registry);
  }

  /**
   * Starts serving on {@code bindHost:port}, with TLS when {@code tls} (cluster TLS's server
   * context, client certificates required) is set.
   */
  public static BrokerApiServer start(
      Host host,
      String bindHost,
      int port,
      SslContext tls,
      BrokerIdentity brokers,
      MeterRegistry registry) {
    BrokerApiServer api = new BrokerApiServer(host, bindHost, port, tls, brokers, registry);
    try {
      api.server.start();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot start the broker's command API on " + bindHost + ":" + port, e);
    }
    api.sender.scheduleWithFixedDelay(
        api::publishStateIfChanged,
        STATE_CHECK_INTERVAL_MS,
        STATE_CHECK_INTERVAL_MS,
        TimeUnit.MILLISECONDS);
    return api;
  }

  public int port() {
    return server.getPort();
  }

  /** Tells every subscriber that jobs of {@code jobType} became available; from any thread. */
  public void jobsAvailable(String jobType) {
    if (subscribers.isEmpty()) {
      return;
    }
    byte[] event = Event.jobsAvailable(jobType).encode();
    sender.execute(() -> subscribers.forEach(subscriber -> send(subscriber, event)));
  }

  private void publishStateIfChanged() {
    BrokerState state;
    try {
      state = host.state();
    } catch (RuntimeException e) {
      LOG.debug("broker state not available yet", e);
      return;
    }
    if (state.equals(lastState)) {
      return;
    }
    lastState = state;
    byte[] event = Event.of(state).encode();
    subscribers.forEach(subscriber -> send(subscriber, event));
  }

  private void send(ServerCallStreamObserver<byte[]> subscriber, byte[] event) {
    try {
      if (!subscriber.isCancelled()) {
        subscriber.onNext(event);
      }
    } catch (RuntimeException gone) {
      subscribers.remove(subscriber);
    }
  }

  private void execute(byte[] message, StreamObserver<byte[]> observer) {
    Execute command;
    try {
      command = Execute.decode(message);
    } catch (IllegalArgumentException e) {
      observer.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asException());
      return;
    }
    // The codes on the wire, read once: everything after this takes the intent.
    Intent intent = Intents.of(command.valueType(), command.intent());
    if (!access.mayExecute(command, intent, observer)) {
      return;
    }
    if (intent == null) {
      observer.onError(
          Status.INVALID_ARGUMENT
              .withDescription(
                  "unknown command "
                      + ForwardableCommands.describe(command.valueType(), command.intent())
                      + " for partition "
                      + command.partitionId()
                      + ": this broker knows no such value type and intent")
              .asException());
      return;
    }
    RecordValue value =
        RecordValue.of(new UnsafeBuffer(command.value()), 0, command.value().length);
    if (!command.wantsAnswer()) {
      host.partitions().send(command.partitionId(), intent, command.key(), value);
      observer.onNext(BrokerMessages.text(""));
      observer.onCompleted();
      return;
    }
    Deadline deadline = Context.current().getDeadline();
    long timeoutMs =
        deadline == null
            ? DEFAULT_ANSWER_TIMEOUT_MS
            : Math.max(1, deadline.timeRemaining(TimeUnit.MILLISECONDS));
    // The partition times out first, so that its explanation reaches the caller in time.
    CompletableFuture<Answer> answer =
        host.request(
            command.partitionId(),
            intent,
            command.key(),
            value,
            Math.max(1, timeoutMs - PartitionCommands.TIMEOUT_GRACE_MS));
    ServerCallStreamObserver<byte[]> call = (ServerCallStreamObserver<byte[]>) observer;
    call.setOnCancelHandler(() -> answer.completeExceptionally(new TimeoutException("cancelled")));
    answer
        .orTimeout(timeoutMs, TimeUnit.MILLISECONDS)
        .whenComplete(
            (answered, error) -> {
              if (call.isCancelled()) {
                return;
              }
              if (error == null) {
                call.onNext(
                    new Answered(
                            answered.intent(),
                            answered.rejection().value(),
                            answered.reason(),
                            answered.key(),
                            answered.value())
                        .encode());
                call.onCompleted();
              } else {
                Metadata trailers = new Metadata();
                Status status = statusOf(error);
                if (status.getCode() == Status.Code.UNAVAILABLE) {
                  trailers.put(ClusterPartitions.NOT_WRITTEN, "true");
                }
                call.onError(status.asException(trailers));
              }
            });
  }

  /**
   * The three outcomes keep their meaning across the hop: not written is UNAVAILABLE (with the
   * NOT_WRITTEN trailer) or RESOURCE_EXHAUSTED, no answer in time DEADLINE_EXCEEDED, anything that
   * may have been written ABORTED.
   */
  private static Status statusOf(Throwable error) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    if (cause instanceof NotWrittenException unavailable) {
      return (unavailable.exhausted() ? Status.RESOURCE_EXHAUSTED : Status.UNAVAILABLE)
          .withDescription(unavailable.getMessage());
    }
    if (cause instanceof TimeoutException timeout) {
      return Status.DEADLINE_EXCEEDED.withDescription(
          timeout.getMessage() == null
              ? "no answer from the partition in time"
              : timeout.getMessage());
    }
    if (cause instanceof PartitionCommands.OutcomeUnknownException unknown) {
      return Status.ABORTED.withDescription(unknown.getMessage());
    }
    // Not known to have been refused before its write: the caller must not take it as unwritten.
    return Status.ABORTED.withDescription("failed after it was received: " + cause);
  }

  private void subscribe(byte[] message, StreamObserver<byte[]> observer) {
    ServerCallStreamObserver<byte[]> call = (ServerCallStreamObserver<byte[]>) observer;
    try {
      BrokerMessages.Subscriber subscriber = BrokerMessages.Subscriber.decode(message);
      // Only a caller at the address it names is heard: anyone else could name an address of
      // their choosing. The broker dials it only once the topology lists that node (see
      // io.tern.engine.scaling.KnownBrokers).
      if (subscriber.nodeId() >= 0 && access.callerIsAt(subscriber.host())) {
        host.brokerSubscribed(
            new BrokerMessages.BrokerAddress(
                subscriber.nodeId(), subscriber.host(), subscriber.commandPort()));
      }
    } catch (IllegalArgumentException e) {
      LOG.debug("unreadable subscription request: {}", e.getMessage());
    }
    call.setOnCancelHandler(() -> subscribers.remove(call));
    sender.execute(
        () -> {
          BrokerState state;
          try {
            state = host.state();
          } catch (RuntimeException starting) {
            // Not known yet (the broker is starting). Refused rather than kept: a stream with no
            // first state would leave the subscriber waiting for good, and with it the Raft peer
            // it learns from that state. It asks again after its backoff.
            fail(call, Status.UNAVAILABLE.withDescription("the broker's state is not known yet"));
            return;
          }
          try {
            call.onNext(Event.of(state).encode());
            subscribers.add(call);
          } catch (RuntimeException gone) {
            LOG.debug("a subscriber left before it got the broker's state", gone);
          }
        });
  }

  private static void fail(ServerCallStreamObserver<byte[]> call, Status status) {
    try {
      if (!call.isCancelled()) {
        call.onError(status.asException());
      }
    } catch (RuntimeException gone) {
      LOG.debug("a subscriber left before it was refused", gone);
    }
  }

  private void streamJobs(byte[] message, StreamObserver<byte[]> observer) {
    JobStreamRequest request;
    try {
      request = JobStreamRequest.decode(message);
    } catch (IllegalArgumentException e) {
      observer.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asException());
      return;
    }
    ServerCallStreamObserver<byte[]> call = (ServerCallStreamObserver<byte[]>) observer;
    RemoteJobStream stream = new RemoteJobStream(request, call);
    call.setOnCancelHandler(() -> host.jobStreams().closeRemote(request.type(), stream));
    host.jobStreams().openRemote(request.type(), stream);
  }

  private void rebalance(byte[] message, StreamObserver<byte[]> observer) {
    if (!access.mayRebalance(observer)) {
      return;
    }
    reply(host.rebalanceLocal(), BrokerMessages::outcomes, observer);
  }

  private void membership(byte[] message, StreamObserver<byte[]> observer) {
    if (!access.mayChangeMembership(observer)) {
      return;
    }
    BrokerMessages.MembershipRequest request;
    try {
      request = BrokerMessages.MembershipRequest.decode(message);
    } catch (IllegalArgumentException e) {
      observer.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asException());
      return;
    }
    reply(host.membership(request), BrokerMessages.MembershipAnswer::encode, observer);
  }

  /** Sends {@code answer}, encoded, and completes the call; an error ends it as INTERNAL. */
  private static <T> void reply(
      java.util.concurrent.CompletionStage<T> answer,
      java.util.function.Function<T, byte[]> encode,
      StreamObserver<byte[]> observer) {
    answer.whenComplete(
        (value, error) -> {
          if (error != null) {
            observer.onError(Status.INTERNAL.withDescription(error.toString()).asException());
            return;
          }
          observer.onNext(encode.apply(value));
          observer.onCompleted();
        });
  }

  private void clusterChange(byte[] message, StreamObserver<byte[]> observer) {
    if (!access.mayForwardClusterChange(observer)) {
      return;
    }
    BrokerMessages.ClusterRequest request;
    try {
      request = BrokerMessages.ClusterRequest.decode(message);
    } catch (IllegalArgumentException e) {
      observer.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asException());
      return;
    }
    reply(host.clusterChange(request), BrokerMessages.ClusterAnswer::encode, observer);
  }

  @Override
  public void close() {
    sender.shutdownNow();
    subscribers.forEach(
        subscriber -> {
          try {
            subscriber.onCompleted();
          } catch (RuntimeException ignored) {
            // the subscriber is gone already
          }
        });
    server.shutdown();
    try {
      if (!server.awaitTermination(2, TimeUnit.SECONDS)) {
        server.shutdownNow();
      }
    } catch (InterruptedException e) {
      server.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}

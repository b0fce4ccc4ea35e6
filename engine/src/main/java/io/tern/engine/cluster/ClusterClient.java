package io.tern.engine.cluster;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.StreamObserver;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslContext;
import io.tern.engine.cluster.BrokerMessages.BrokerState;
import io.tern.engine.cluster.BrokerMessages.Event;
import io.tern.engine.command.PartitionCommands;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a gateway (or a broker) knows of the other brokers: one gRPC channel to each contact point
 * and one {@link BrokerApi#SUBSCRIBE} stream on it, which brings that broker's addresses and
 * partition roles whenever they change, from which {@link PartitionLeaders} tells each partition's
 * leader. A broken stream forgets its broker's claims and is opened again with back-off.
 */
public final class ClusterClient implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterClient.class);
  private static final long RESUBSCRIBE_MIN_MS = 50;
  private static final long RESUBSCRIBE_MAX_MS = 2_000;

  /** A broker reached through a contact point; {@code state} null while unknown. */
  static final class Connection {
    final InetSocketAddress address;
    final ManagedChannel channel;

    /** Where calls are made: the channel, behind the injected latency if there is one. */
    Channel calls;

    volatile BrokerState state;

    /** The contact point is the broker this runs in: not subscribed to. */
    volatile boolean self;

    long backoffMs = RESUBSCRIBE_MIN_MS;

    /** The TLS failure last logged for this contact point, so that a retry loop logs it once. */
    volatile String tlsFailure;

    Connection(InetSocketAddress address, ManagedChannel channel) {
      this.address = address;
      this.channel = channel;
      this.calls = channel;
    }

    /** host:port as the contact points name it (an unresolved address prints "/<unresolved>"). */
    @Override
    public String toString() {
      return address.getHostString() + ":" + address.getPort();
    }
  }

  /** Told of every broker state received, and of brokers whose stream broke. */
  public interface Listener {
    void onState(BrokerState state);

    default void onLost(BrokerState lastState) {}
  }

  private final int selfNodeId;
  private final int partitionsCount;
  private final List<Connection> connections = new CopyOnWriteArrayList<>();
  private final CallLatency latency;
  private final SslContext tls;
  private volatile byte[] announcement = {BrokerMessages.VERSION};
  private volatile boolean started;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();
  private final Map<Integer, Connection> byNodeId = new ConcurrentHashMap<>();
  private volatile Consumer<String> onJobsAvailable = type -> {};
  private volatile CallTimers callTimers = CallTimers.NONE;

  private final PartitionLeaders leaders;

  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "cluster-client");
            thread.setDaemon(true);
            return thread;
          });
  private volatile boolean closed;
  private ScheduledExecutorService delays;

  /**
   * @param contactPoints every broker's command address, in any order
   * @param selfNodeId the broker this runs in, whose own stream is not needed; -1 in a standalone
   *     gateway
   */
  public ClusterClient(List<InetSocketAddress> contactPoints, int selfNodeId, int partitionsCount) {
    this(contactPoints, selfNodeId, partitionsCount, CallLatency.NONE, null);
  }

  /**
   * @param latency injected on the calls to and from each broker (an experiment; {@link
   *     CallLatency#NONE} in production)
   * @param tls cluster TLS's client context (this side's certificate presented, the broker's
   *     checked against the contact point's host name), or null for plaintext
   */
  public ClusterClient(
      List<InetSocketAddress> contactPoints,
      int selfNodeId,
      int partitionsCount,
      CallLatency latency,
      SslContext tls) {
    this.selfNodeId = selfNodeId;
    this.partitionsCount = partitionsCount;
    this.leaders = new PartitionLeaders(partitionsCount);
    this.latency = latency;
    this.tls = tls;
    for (InetSocketAddress address : contactPoints) {
      connections.add(connect(address));
    }
  }

  private Connection connect(InetSocketAddress address) {
    NettyChannelBuilder builder =
        NettyChannelBuilder.forAddress(address.getHostString(), address.getPort())
            .maxInboundMessageSize(BrokerApi.MAX_MESSAGE_BYTES)
            .keepAliveTime(5, TimeUnit.SECONDS)
            .keepAliveTimeout(5, TimeUnit.SECONDS)
            .keepAliveWithoutCalls(true);
    ManagedChannel channel =
        (tls == null ? builder.usePlaintext() : builder.sslContext(tls).useTransportSecurity())
            .build();
    Connection connection = new Connection(address, channel);
    if (latency != CallLatency.NONE) {
      connection.calls =
          ClientInterceptors.intercept(
              channel,
              new DelayingInterceptor(
                  delays(),
                  () -> {
                    BrokerState known = connection.state;
                    return known == null ? CallLatency.Delay.NONE : latency.toNode(known.nodeId());
                  }));
    }
    return connection;
  }

  /**
   * Subscribes to a broker that is not among the contact points (one added to the cluster later),
   * unless one of the connections already goes to {@code address} or to a broker known by that node
   * id. Usable before and after {@link #start()}.
   */
  public void addBroker(int nodeId, InetSocketAddress address) {
    Connection added;
    synchronized (connections) {
      if (closed || nodeId == selfNodeId || byNodeId.containsKey(nodeId)) {
        return;
      }
      for (Connection connection : connections) {
        if (connection.address.getHostString().equals(address.getHostString())
            && connection.address.getPort() == address.getPort()) {
          return;
        }
      }
      added = connect(address);
      connections.add(added);
      LOG.info("Learned of broker {} at {}", nodeId, added);
    }
    if (started) {
      subscribe(added);
    }
  }

  /**
   * Names this broker in its subscriptions, so that brokers that do not know it yet (it was added
   * to the cluster after them) learn where it is. Before {@link #start()}.
   */
  public void announceAs(String host, int commandPort) {
    this.announcement = new BrokerMessages.Subscriber(selfNodeId, host, commandPort).encode();
  }

  /** The command addresses of the other brokers connected now (what this broker gossips). */
  public List<BrokerMessages.BrokerAddress> knownBrokers() {
    List<BrokerMessages.BrokerAddress> known = new ArrayList<>();
    for (BrokerState state : brokers()) {
      if (!state.host().isBlank()) {
        known.add(
            new BrokerMessages.BrokerAddress(state.nodeId(), state.host(), state.commandPort()));
      }
    }
    known.sort(java.util.Comparator.comparingInt(BrokerMessages.BrokerAddress::nodeId));
    return known;
  }

  public void addListener(Listener listener) {
    listeners.add(listener);
  }

  /** Where "jobs of this type became available" notices from other brokers go. */
  public void onJobsAvailable(Consumer<String> consumer) {
    this.onJobsAvailable = consumer;
  }

  /** Opens the subscription streams. */
  public ClusterClient start() {
    started = true;
    connections.forEach(this::subscribe);
    return this;
  }

  public int partitionsCount() {
    return partitionsCount;
  }

  /** The node id of the broker that leads {@code partitionId} as far as is known, or -1. */
  public int leaderOf(int partitionId) {
    return leaders.leaderOf(partitionId);
  }

  /** The partitions whose leader is not known now, in id order. */
  public List<Integer> partitionsWithoutLeader() {
    return leaders.withoutLeader();
  }

  /** Where calls to broker {@code nodeId} are made, or null if it is not connected. */
  Channel channelOf(int nodeId) {
    Connection connection = byNodeId.get(nodeId);
    return connection == null || connection.state == null ? null : connection.calls;
  }

  /** The thread that runs the injected latency's delayed steps, made on first need. */
  private synchronized ScheduledExecutorService delays() {
    if (delays == null) {
      delays =
          Executors.newSingleThreadScheduledExecutor(
              runnable -> {
                Thread thread = new Thread(runnable, "cluster-call-delays");
                thread.setDaemon(true);
                return thread;
              });
    }
    return delays;
  }

  /** The states of the other brokers now connected. */
  public List<BrokerState> brokers() {
    List<BrokerState> states = new ArrayList<>();
    java.util.Set<Integer> seen = new java.util.HashSet<>();
    for (Connection connection : connections) {
      BrokerState state = connection.state;
      // A broker listed twice among the contact points (two names for one host) counts once.
      if (state != null && state.nodeId() != selfNodeId && seen.add(state.nodeId())) {
        states.add(state);
      }
    }
    return states;
  }

  Collection<Integer> connectedNodeIds() {
    return brokers().stream().map(BrokerState::nodeId).toList();
  }

  private void subscribe(Connection connection) {
    if (closed) {
      return;
    }
    // gRPC backs off reconnecting on its own, up to two minutes after a long outage, and fails
    // calls meanwhile: a broker that is back would stay unseen that long. This client paces its
    // attempts itself (at most RESUBSCRIBE_MAX_MS apart), so each attempt connects at once.
    connection.channel.resetConnectBackoff();
    ClientCall<byte[], byte[]> call =
        connection.calls.newCall(BrokerApi.SUBSCRIBE, CallOptions.DEFAULT);
    ClientCalls.asyncServerStreamingCall(
        call,
        announcement,
        new ClientResponseObserver<byte[], byte[]>() {
          @Override
          public void beforeStart(ClientCallStreamObserver<byte[]> requestStream) {}

          @Override
          public void onNext(byte[] message) {
            Event event;
            try {
              event = Event.decode(message);
            } catch (IllegalArgumentException e) {
              LOG.warn("unreadable event from broker at {}: {}", connection, e.getMessage());
              return;
            }
            if (event.state() != null) {
              received(connection, event.state(), call);
            } else {
              onJobsAvailable.accept(event.jobsAvailable());
            }
          }

          @Override
          public void onError(Throwable error) {
            logTlsFailure(connection, error);
            lost(connection);
          }

          @Override
          public void onCompleted() {
            lost(connection);
          }
        });
  }

  private void received(Connection connection, BrokerState state, ClientCall<byte[], byte[]> call) {
    if (state.nodeId() == selfNodeId) {
      connection.self = true;
      call.cancel("the broker's own state is known without a stream", null);
      return;
    }
    connection.backoffMs = RESUBSCRIBE_MIN_MS;
    connection.tlsFailure = null;
    BrokerState previous = connection.state;
    connection.state = state;
    byNodeId.put(state.nodeId(), connection);
    recomputeLeaders();
    if (previous == null) {
      LOG.info("Connected to broker {} at {}", state.nodeId(), connection);
    }
    listeners.forEach(listener -> listener.onState(state));
    // Brokers added to the cluster after the contact points were written are learned from the
    // brokers that know them.
    for (BrokerMessages.BrokerAddress other : state.known()) {
      if (other.nodeId() != selfNodeId && !byNodeId.containsKey(other.nodeId())) {
        addBroker(
            other.nodeId(), InetSocketAddress.createUnresolved(other.host(), other.commandPort()));
      }
    }
  }

  /**
   * Cluster TLS refusals (no certificate, an untrusted or expired one, a host name the broker's
   * certificate does not name) say why, once per contact point until it connects.
   */
  private static void logTlsFailure(Connection connection, Throwable error) {
    Throwable tls = null;
    for (Throwable t = error; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof javax.net.ssl.SSLException
          || t instanceof java.security.cert.CertificateException) {
        tls = t; // the innermost names the cause best
      }
    }
    if (tls == null) {
      return;
    }
    // netty's NotSslRecordException carries a hex dump of what arrived, different each time.
    String failure =
        tls instanceof NotSslRecordException
            ? "NotSslRecordException: the broker answered without TLS"
            : tls.getClass().getSimpleName() + ": " + tls.getMessage();
    if (!failure.equals(connection.tlsFailure)) {
      connection.tlsFailure = failure;
      LOG.warn(
          "cluster TLS with the command API at {} failed ({}): do both sides use"
              + " network.security with certificates from the same CA, naming their addresses?",
          connection,
          failure);
    }
  }

  private void lost(Connection connection) {
    if (connection.self) {
      return;
    }
    BrokerState last = connection.state;
    connection.state = null;
    if (last != null) {
      byNodeId.remove(last.nodeId(), connection);
      recomputeLeaders();
      LOG.info("Lost broker {} at {}", last.nodeId(), connection);
      listeners.forEach(listener -> listener.onLost(last));
    }
    if (closed) {
      return;
    }
    long delayMs = connection.backoffMs;
    connection.backoffMs = Math.min(RESUBSCRIBE_MAX_MS, delayMs * 2);
    try {
      timer.schedule(() -> subscribe(connection), delayMs, TimeUnit.MILLISECONDS);
    } catch (java.util.concurrent.RejectedExecutionException closedMeanwhile) {
      // close() ran between the check above and here: nothing to resubscribe
    }
  }

  /** Synchronized so that the last to recompute read the latest states. */
  private synchronized void recomputeLeaders() {
    leaders.recompute(brokers());
  }

  /**
   * Times every call made on other brokers from now on in {@code registry} ({@link
   * CallTimers#NAME}); returns this client.
   */
  public ClusterClient timeCallsIn(io.micrometer.core.instrument.MeterRegistry registry) {
    this.callTimers = new CallTimers(registry);
    return this;
  }

  /** Runs a unary call on broker {@code nodeId}. */
  CompletableFuture<byte[]> call(
      int nodeId, io.grpc.MethodDescriptor<byte[], byte[]> method, byte[] request, long timeoutMs) {
    Channel channel = channelOf(nodeId);
    CompletableFuture<byte[]> answer = new CompletableFuture<>();
    if (channel == null) {
      answer.completeExceptionally(
          new PartitionCommands.NotWrittenException(
              "broker " + nodeId + " is not connected", false));
      return answer;
    }
    ClientCall<byte[], byte[]> call =
        channel.newCall(
            method, CallOptions.DEFAULT.withDeadlineAfter(timeoutMs, TimeUnit.MILLISECONDS));
    long startNs = System.nanoTime();
    CallTimers timers = callTimers;
    answer.whenComplete(
        (done, error) -> {
          timers.record(method, nodeId, startNs, error);
          if (error != null) {
            call.cancel("the caller gave up", null);
          }
        });
    ClientCalls.asyncUnaryCall(
        call,
        request,
        new StreamObserver<>() {
          @Override
          public void onNext(byte[] value) {
            answer.complete(value);
          }

          @Override
          public void onError(Throwable error) {
            answer.completeExceptionally(error);
          }

          @Override
          public void onCompleted() {
            answer.completeExceptionally(new IllegalStateException("no answer"));
          }
        });
    return answer;
  }

  /** Sends a membership request to broker {@code nodeId} (the partition's leader, as known). */
  public CompletableFuture<BrokerMessages.MembershipAnswer> membership(
      int nodeId, BrokerMessages.MembershipRequest request, long timeoutMs) {
    return call(nodeId, BrokerApi.MEMBERSHIP, request.encode(), timeoutMs)
        .thenApply(BrokerMessages.MembershipAnswer::decode);
  }

  /** Forwards a write to /actuator/cluster to broker {@code nodeId} (the coordinator). */
  public CompletableFuture<BrokerMessages.ClusterAnswer> clusterChange(
      int nodeId, BrokerMessages.ClusterRequest request, long timeoutMs) {
    return call(nodeId, BrokerApi.CLUSTER_CHANGE, request.encode(), timeoutMs)
        .thenApply(BrokerMessages.ClusterAnswer::decode);
  }

  /** Whether {@code error} is a broker's refusal of a call only brokers may make. */
  public static boolean refusedAsNotABroker(Throwable error) {
    return Status.fromThrowable(error).getCode() == Status.Code.PERMISSION_DENIED;
  }

  /** The state broker {@code nodeId} last published, or null if it is not connected. */
  public BrokerState stateOf(int nodeId) {
    Connection connection = byNodeId.get(nodeId);
    return connection == null ? null : connection.state;
  }

  /**
   * Asks every connected broker to move the leadership of what it leads to the primaries; merges
   * their outcomes (partition to outcome). A broker that does not answer reports nothing.
   */
  public CompletableFuture<Map<Integer, String>> rebalanceOthers(long timeoutMs) {
    List<CompletableFuture<Map<Integer, String>>> answers = new ArrayList<>();
    for (int nodeId : connectedNodeIds()) {
      answers.add(
          call(nodeId, BrokerApi.REBALANCE, new byte[] {BrokerMessages.VERSION}, timeoutMs)
              .thenApply(BrokerMessages::outcomes)
              .exceptionally(
                  error -> {
                    LOG.warn("Broker {} did not rebalance: {}", nodeId, error.toString());
                    return Map.of();
                  }));
    }
    return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
        .thenApply(
            all -> {
              Map<Integer, String> merged = new java.util.TreeMap<>();
              answers.forEach(answer -> merged.putAll(answer.join()));
              return merged;
            });
  }

  @Override
  public void close() {
    synchronized (connections) {
      closed = true;
    }
    timer.shutdownNow();
    synchronized (this) {
      if (delays != null) {
        delays.shutdownNow();
      }
    }
    for (Connection connection : connections) {
      connection.channel.shutdownNow();
    }
  }
}

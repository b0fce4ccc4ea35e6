package io.tern.engine.cluster;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.tern.engine.protocol.Intent;
import java.net.SocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may do what on the command API: any caller may send the client commands a gateway forwards
 * ({@link ForwardableCommands}); internal commands and rebalancing need a broker ({@link
 * BrokerIdentity}). Its {@link #interceptor()} records each call's connection (remote address, and
 * the TLS session when the server has TLS: the only thing TLS has to supply); the checks run in the
 * call. A refusal is PERMISSION_DENIED naming what was refused, before anything is written, counted
 * in {@code tern.commandapi.refused} (tag {@code method}) and logged at most once a minute, so that
 * a stranger's flood does not flood the log.
 */
final class CommandApiAccess {
  private static final Logger LOG = LoggerFactory.getLogger(BrokerApiServer.class);

  /** Refusals are logged at most this often. */
  private static final long REFUSAL_LOG_INTERVAL_MS = 60_000;

  /** The connection the current call came on, set by {@link #interceptor()}. */
  private static final Context.Key<Caller> CALLER = Context.key("tern-command-api-caller");

  /** Where a call comes from, and its TLS session (null in plaintext). */
  private record Caller(SocketAddress remote, SSLSession session) {}

  private static final ServerInterceptor INTERCEPTOR =
      new ServerInterceptor() {
        @Override
        public <Q, A> ServerCall.Listener<Q> interceptCall(
            ServerCall<Q, A> call, Metadata headers, ServerCallHandler<Q, A> next) {
          Caller caller =
              new Caller(
                  call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR),
                  call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION));
          return Contexts.interceptCall(
              Context.current().withValue(CALLER, caller), call, headers, next);
        }
      };

  private final BrokerIdentity brokers;
  private final Counter refusedExecutes;
  private final Counter refusedRebalances;
  private final Counter refusedMembershipChanges;
  private final Counter refusedClusterChanges;
  private final AtomicLong lastLoggedMs = new AtomicLong(Long.MIN_VALUE / 2);

  CommandApiAccess(BrokerIdentity brokers, MeterRegistry registry) {
    this.brokers = brokers;
    this.refusedExecutes = refused(registry, "Execute");
    this.refusedRebalances = refused(registry, "Rebalance");
    this.refusedMembershipChanges = refused(registry, "Membership");
    this.refusedClusterChanges = refused(registry, "ClusterChange");
  }

  /** Records each call's connection for the checks; the server's services go through it. */
  ServerInterceptor interceptor() {
    return INTERCEPTOR;
  }

  /**
   * Whether the current call may execute {@code command}, whose codes name {@code intent} (null if
   * they name none here); if not, it has been answered.
   */
  boolean mayExecute(
      BrokerMessages.Execute command, Intent intent, StreamObserver<byte[]> observer) {
    boolean allowed = ForwardableCommands.allowed(intent, command.wantsAnswer());
    boolean clientForm = ForwardableCommands.isClientForm(intent, command.value());
    if ((allowed && clientForm) || fromBroker()) {
      return true;
    }
    refuse(
        observer,
        refusedExecutes,
        (!command.wantsAnswer()
                ? "only a broker may send a command without waiting for its answer: "
                : allowed
                    ? "only a broker may send a partition's copy of "
                    : "only a broker may send the internal command ")
            + ForwardableCommands.describe(command.valueType(), command.intent())
            + " to partition "
            + command.partitionId()
            + "; a gateway forwards client commands only");
    return false;
  }

  /** Whether the current call may read or change a partition's membership; else answered. */
  boolean mayChangeMembership(StreamObserver<byte[]> observer) {
    if (fromBroker()) {
      return true;
    }
    refuse(
        observer,
        refusedMembershipChanges,
        "only a broker may change a partition's membership here: POST /actuator/cluster/brokers"
            + " on a broker's management port, with its token");
    return false;
  }

  /**
   * Whether the current call may forward a write to /actuator/cluster; else answered. Brokers only:
   * the token was checked by the broker the request came to, and is not sent along.
   */
  boolean mayForwardClusterChange(StreamObserver<byte[]> observer) {
    if (fromBroker()) {
      return true;
    }
    refuse(
        observer,
        refusedClusterChanges,
        "only a broker may forward a cluster change here: POST /actuator/cluster/brokers on a"
            + " broker's management port, with its token");
    return false;
  }

  /**
   * Whether a subscriber that names {@code host} as its address may be taken at its word: with TLS,
   * when its certificate names a broker; without, when it connects from an address {@code host}
   * resolves to (as {@link BrokerIdentity} checks brokers without TLS: it keeps other machines from
   * passing for a broker, not processes of one host).
   */
  boolean callerIsAt(String host) {
    Caller caller = CALLER.get();
    if (caller == null) {
      return false;
    }
    if (caller.session() != null) {
      return fromBroker();
    }
    if (!(caller.remote() instanceof java.net.InetSocketAddress inet)
        || inet.getAddress() == null
        || host.isBlank()) {
      return false;
    }
    try {
      for (java.net.InetAddress address : java.net.InetAddress.getAllByName(host)) {
        if (address.equals(inet.getAddress())) {
          return true;
        }
      }
    } catch (java.net.UnknownHostException e) {
      return false;
    }
    return false;
  }

  /** Whether the current call may rebalance; if not, it has been answered. */
  boolean mayRebalance(StreamObserver<byte[]> observer) {
    if (fromBroker()) {
      return true;
    }
    // The admin's way in is POST /actuator/rebalance with the management token: that broker then
    // asks the others here.
    refuse(
        observer,
        refusedRebalances,
        "only a broker may ask for a rebalance here: POST /actuator/rebalance on a broker's"
            + " management port, with its token");
    return false;
  }

  private boolean fromBroker() {
    Caller caller = CALLER.get();
    return caller != null && brokers.isBroker(caller.remote(), caller.session());
  }

  private void refuse(StreamObserver<byte[]> observer, Counter refused, String reason) {
    refused.increment();
    long nowMs = System.currentTimeMillis();
    long last = lastLoggedMs.get();
    if (nowMs - last >= REFUSAL_LOG_INTERVAL_MS && lastLoggedMs.compareAndSet(last, nowMs)) {
      Caller caller = CALLER.get();
      LOG.warn(
          "Refused a call from {}, which is not a broker of this cluster: {} (logged at most once"
              + " a minute; tern.commandapi.refused counts them all)",
          caller == null ? "an unknown address" : caller.remote(),
          reason);
    }
    observer.onError(Status.PERMISSION_DENIED.withDescription(reason).asException());
  }

  private static Counter refused(MeterRegistry registry, String method) {
    return Counter.builder("tern.commandapi.refused")
        .description("command API calls refused because only a broker may make them")
        .tag("method", method)
        .register(registry);
  }
}

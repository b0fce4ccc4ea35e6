package io.tern.raft.transport;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The transport's meters, all tagged with {@code member} (the local member id) besides the tags the
 * owner passes, so that several transports can share a registry (tests, one JVM per cluster).
 *
 * <p>Per peer ({@code peer} tag): {@code tern.raft.transport.messages.sent}, {@code
 * tern.raft.transport.bytes.sent}, {@code tern.raft.transport.messages.received}, {@code
 * tern.raft.transport.bytes.received} (bytes count whole frames), {@code
 * tern.raft.transport.messages.dropped} (with {@code reason}), {@code
 * tern.raft.transport.reconnects} (connections established after the first), {@code
 * tern.raft.transport.protocol.errors} (inbound frames refused, with {@code reason}), and gauges
 * {@code tern.raft.transport.queue.messages}, {@code tern.raft.transport.queue.bytes}, {@code
 * tern.raft.transport.connected} (0 or 1). Transport-wide: {@code
 * tern.raft.transport.connections.refused} (handshakes refused, with {@code reason}) and {@code
 * tern.raft.transport.messages.dropped} with {@code peer=unknown}.
 */
final class TransportMetrics {
  private static final String PREFIX = "tern.raft.transport.";
  static final String UNKNOWN_PEER = "unknown";

  /** Why {@code send} returned false. */
  enum DropReason {
    QUEUE_FULL,
    TOO_LARGE,
    UNKNOWN_MEMBER,
    CLOSED;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final MeterRegistry registry;
  private final Tags tags;
  private final Set<Meter> registered = ConcurrentHashMap.newKeySet();
  private final Counter droppedUnknownMember;

  TransportMetrics(MeterRegistry registry, Tags tags, int localMemberId) {
    this.registry = registry;
    this.tags = tags.and("member", Integer.toString(localMemberId));
    this.droppedUnknownMember =
        counter(
            "messages.dropped",
            "Messages send() refused",
            Tags.of("peer", UNKNOWN_PEER, "reason", DropReason.UNKNOWN_MEMBER.tag()));
  }

  void droppedUnknownMember() {
    droppedUnknownMember.increment();
  }

  void connectionRefused(String reason) {
    counter("connections.refused", "Handshakes refused", Tags.of("reason", reason)).increment();
  }

  <T> PeerMeters peer(
      int memberId,
      T link,
      ToDoubleFunction<T> queuedMessages,
      ToDoubleFunction<T> queuedBytes,
      ToDoubleFunction<T> connected) {
    Tags peer = Tags.of("peer", Integer.toString(memberId));
    gauge("queue.messages", "Messages waiting to be written", peer, link, queuedMessages);
    gauge("queue.bytes", "Encoded bytes waiting to be written", peer, link, queuedBytes);
    gauge("connected", "1 while a handshaken connection is open", peer, link, connected);
    return new PeerMeters(peer);
  }

  /** Removes every meter this transport registered, so a new transport can register afresh. */
  void close() {
    for (Meter meter : registered) {
      registry.remove(meter);
    }
    registered.clear();
  }

  private Counter counter(String name, String description, Tags extra) {
    Counter counter =
        Counter.builder(PREFIX + name)
            .description(description)
            .tags(tags.and(extra))
            .register(registry);
    registered.add(counter);
    return counter;
  }

  private Counter bytesCounter(String name, String description, Tags extra) {
    Counter counter =
        Counter.builder(PREFIX + name)
            .description(description)
            .baseUnit("bytes")
            .tags(tags.and(extra))
            .register(registry);
    registered.add(counter);
    return counter;
  }

  private <T> void gauge(
      String name, String description, Tags extra, T object, ToDoubleFunction<T> value) {
    registered.add(
        Gauge.builder(PREFIX + name, object, value)
            .description(description)
            .tags(tags.and(extra))
            .strongReference(true)
            .register(registry));
  }

  /** The counters of one peer, created once so the hot path only increments. */
  final class PeerMeters {
    final Counter messagesSent;
    final Counter bytesSent;
    final Counter messagesReceived;
    final Counter bytesReceived;
    final Counter reconnects;
    final Counter connectFailures;
    private final Tags peer;
    private final Map<DropReason, Counter> dropped = new EnumMap<>(DropReason.class);

    private PeerMeters(Tags peer) {
      this.peer = peer;
      messagesSent = counter("messages.sent", "Messages written to the connection", peer);
      bytesSent = bytesCounter("bytes.sent", "Frame bytes written to the connection", peer);
      messagesReceived = counter("messages.received", "Messages received and decoded", peer);
      bytesReceived = bytesCounter("bytes.received", "Frame bytes received", peer);
      reconnects = counter("reconnects", "Connections established after the first", peer);
      connectFailures =
          counter("connect.failures", "Connection attempts that failed (refused, timed out)", peer);
      for (DropReason reason : DropReason.values()) {
        dropped.put(
            reason,
            counter(
                "messages.dropped", "Messages send() refused", peer.and("reason", reason.tag())));
      }
    }

    void dropped(DropReason reason) {
      dropped.get(reason).increment();
    }

    void protocolError(String reason) {
      counter("protocol.errors", "Inbound frames refused", peer.and("reason", reason)).increment();
    }
  }
}

package io.tern.raft.transport;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.TreeMap;

/**
 * Settings of a {@link NettyRaftTransport}. Build with {@link #builder(int)}; every limit has a
 * default suited to a handful of brokers on a LAN.
 *
 * @param localMemberId this broker's member id (>= 0)
 * @param bindHost the address to listen on
 * @param bindPort the port to listen on; 0 picks a free one (see {@link
 *     NettyRaftTransport#boundAddress()})
 * @param peers the other brokers: member id to address. More can be added after start with {@link
 *     NettyRaftTransport#addPeer}
 * @param maxQueuedMessagesPerPeer messages waiting per peer (while disconnected or while the
 *     connection is not writable) before {@code send} drops
 * @param maxQueuedBytesPerPeer encoded bytes waiting per peer before {@code send} drops; at least
 *     {@code maxFrameBytes}, so that any sendable message fits an empty queue
 * @param maxFrameBytes the largest frame (4-byte length prefix included) sent or accepted; larger
 *     outbound messages are dropped, a larger inbound frame closes the connection
 * @param reconnectBackoffMinMs the first delay before reconnecting; doubles per failed attempt
 * @param reconnectBackoffMaxMs the cap of that doubling
 * @param connectTimeoutMs how long a TCP connect, and then the peer's handshake, may take
 * @param deadPeerTimeoutMs a connection on which this broker wrote but read nothing for this long
 *     is closed (and redialled by the lower member id): a peer that vanished without a reset (power
 *     loss, a silent network partition) would otherwise keep it open until TCP gives up, minutes
 *     later. Raft answers every request, so a live peer is heard from well within it. 0: never
 * @param ioThreads event loop threads (one is plenty for a few peers, and keeps each connection's
 *     reads and writes on the thread that owns its queue)
 * @param preferEpoll use native epoll where available (Linux), NIO otherwise
 * @param tls mutual TLS between brokers, or null for plain TCP (every broker must agree)
 */
public record TransportConfig(
    int localMemberId,
    String bindHost,
    int bindPort,
    Map<Integer, InetSocketAddress> peers,
    int maxQueuedMessagesPerPeer,
    long maxQueuedBytesPerPeer,
    int maxFrameBytes,
    long reconnectBackoffMinMs,
    long reconnectBackoffMaxMs,
    long connectTimeoutMs,
    long deadPeerTimeoutMs,
    int ioThreads,
    boolean preferEpoll,
    TransportTls tls) {

  public static final int DEFAULT_MAX_QUEUED_MESSAGES_PER_PEER = 10_000;
  public static final long DEFAULT_MAX_QUEUED_BYTES_PER_PEER = 64L * 1024 * 1024;

  /**
   * Room for an append request carrying the largest journal entry (its frame adds a few dozen bytes
   * of headers): a smaller limit would drop that entry's every retransmission and stall the
   * partition.
   */
  public static final int DEFAULT_MAX_FRAME_BYTES =
      io.tern.journal.JournalConfig.DEFAULT_MAX_ENTRY_SIZE_BYTES + 64 * 1024;

  public static final long DEFAULT_RECONNECT_BACKOFF_MIN_MS = 50;
  public static final long DEFAULT_RECONNECT_BACKOFF_MAX_MS = 2_000;
  public static final long DEFAULT_CONNECT_TIMEOUT_MS = 5_000;

  /**
   * Many heartbeat intervals and election timeouts: a peer stalled by a long GC pause is not cut
   * off, one that is gone is redialled within seconds rather than after TCP's retransmission
   * timeout (about 15 minutes with Linux defaults).
   */
  public static final long DEFAULT_DEAD_PEER_TIMEOUT_MS = 10_000;

  public static final int DEFAULT_IO_THREADS = 1;

  /** Room for a handshake or any fixed-size message, with space to spare. */
  public static final int MIN_MAX_FRAME_BYTES = 1024;

  public TransportConfig {
    require(localMemberId >= 0, "localMemberId must be >= 0, got " + localMemberId);
    require(bindHost != null && !bindHost.isBlank(), "bindHost must be set");
    require(bindPort >= 0 && bindPort <= 65535, "bindPort must be in [0, 65535], got " + bindPort);
    require(peers != null, "peers must not be null (use an empty map)");
    for (Map.Entry<Integer, InetSocketAddress> peer : peers.entrySet()) {
      validatePeer(localMemberId, peer.getKey(), peer.getValue());
    }
    peers = Map.copyOf(peers);
    require(
        maxQueuedMessagesPerPeer >= 1,
        "maxQueuedMessagesPerPeer must be >= 1, got " + maxQueuedMessagesPerPeer);
    require(
        maxFrameBytes >= MIN_MAX_FRAME_BYTES,
        "maxFrameBytes must be >= " + MIN_MAX_FRAME_BYTES + ", got " + maxFrameBytes);
    require(
        maxQueuedBytesPerPeer >= maxFrameBytes,
        "maxQueuedBytesPerPeer ("
            + maxQueuedBytesPerPeer
            + ") must be >= maxFrameBytes ("
            + maxFrameBytes
            + ") so that any message that may be sent fits an empty queue");
    require(
        reconnectBackoffMinMs >= 1 && reconnectBackoffMinMs <= reconnectBackoffMaxMs,
        "need 1 <= reconnectBackoffMinMs <= reconnectBackoffMaxMs, got "
            + reconnectBackoffMinMs
            + " and "
            + reconnectBackoffMaxMs);
    require(
        connectTimeoutMs >= 1 && connectTimeoutMs <= Integer.MAX_VALUE,
        "connectTimeoutMs must be in [1, " + Integer.MAX_VALUE + "], got " + connectTimeoutMs);
    require(
        deadPeerTimeoutMs >= 0,
        "deadPeerTimeoutMs must be >= 0 (0: off), got " + deadPeerTimeoutMs);
    require(ioThreads >= 1, "ioThreads must be >= 1, got " + ioThreads);
  }

  public static Builder builder(int localMemberId) {
    return new Builder(localMemberId);
  }

  static void validatePeer(int localMemberId, Integer id, InetSocketAddress address) {
    require(id != null && id >= 0, "peer ids must be >= 0, got " + id);
    require(id != localMemberId, "peers must not contain the local member " + localMemberId);
    require(address != null, "peer " + id + " has no address");
  }

  private static void require(boolean condition, String message) {
    if (!condition) {
      throw new IllegalArgumentException("raft transport config: " + message);
    }
  }

  /** Defaults for every limit; only the local member id is required. */
  public static final class Builder {
    private final int localMemberId;
    private String bindHost = "0.0.0.0";
    private int bindPort;
    private final Map<Integer, InetSocketAddress> peers = new TreeMap<>();
    private int maxQueuedMessagesPerPeer = DEFAULT_MAX_QUEUED_MESSAGES_PER_PEER;
    private long maxQueuedBytesPerPeer = DEFAULT_MAX_QUEUED_BYTES_PER_PEER;
    private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;
    private long reconnectBackoffMinMs = DEFAULT_RECONNECT_BACKOFF_MIN_MS;
    private long reconnectBackoffMaxMs = DEFAULT_RECONNECT_BACKOFF_MAX_MS;
    private long connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS;
    private long deadPeerTimeoutMs = DEFAULT_DEAD_PEER_TIMEOUT_MS;
    private int ioThreads = DEFAULT_IO_THREADS;
    private boolean preferEpoll = true;
    private TransportTls tls;

    private Builder(int localMemberId) {
      this.localMemberId = localMemberId;
    }

    public Builder bind(String host, int port) {
      this.bindHost = host;
      this.bindPort = port;
      return this;
    }

    public Builder peer(int memberId, InetSocketAddress address) {
      peers.put(memberId, address);
      return this;
    }

    public Builder peers(Map<Integer, InetSocketAddress> members) {
      peers.putAll(members);
      return this;
    }

    public Builder maxQueuedMessagesPerPeer(int messages) {
      this.maxQueuedMessagesPerPeer = messages;
      return this;
    }

    public Builder maxQueuedBytesPerPeer(long bytes) {
      this.maxQueuedBytesPerPeer = bytes;
      return this;
    }

    public Builder maxFrameBytes(int bytes) {
      this.maxFrameBytes = bytes;
      return this;
    }

    public Builder reconnectBackoffMs(long minMs, long maxMs) {
      this.reconnectBackoffMinMs = minMs;
      this.reconnectBackoffMaxMs = maxMs;
      return this;
    }

    public Builder connectTimeoutMs(long ms) {
      this.connectTimeoutMs = ms;
      return this;
    }

    public Builder deadPeerTimeoutMs(long ms) {
      this.deadPeerTimeoutMs = ms;
      return this;
    }

    public Builder ioThreads(int threads) {
      this.ioThreads = threads;
      return this;
    }

    public Builder preferEpoll(boolean prefer) {
      this.preferEpoll = prefer;
      return this;
    }

    /** Mutual TLS with these files; null (the default) for plain TCP. */
    public Builder tls(TransportTls tls) {
      this.tls = tls;
      return this;
    }

    public TransportConfig build() {
      return new TransportConfig(
          localMemberId,
          bindHost,
          bindPort,
          peers,
          maxQueuedMessagesPerPeer,
          maxQueuedBytesPerPeer,
          maxFrameBytes,
          reconnectBackoffMinMs,
          reconnectBackoffMaxMs,
          connectTimeoutMs,
          deadPeerTimeoutMs,
          ioThreads,
          preferEpoll,
          tls);
    }
  }
}

package io.tern.raft.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.raft.RaftMessage;
import io.tern.raft.transport.TransportMetrics.DropReason;
import io.tern.raft.transport.TransportMetrics.PeerMeters;
import java.net.InetSocketAddress;
import java.util.Arrays;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything about one peer: its bounded outbound queue and the single connection to it. Any thread
 * may {@link #offer}; all other state is confined to {@link #loop}, the event loop that also
 * encodes and writes this peer's messages.
 *
 * <p>The member with the lower id ({@link #initiator}) connects and reconnects with exponential
 * back-off; the other waits for the connection and, when a new one arrives (the peer restarted
 * before we noticed the old one die), replaces the old one.
 */
final class PeerLink {
  private static final Logger LOG = LoggerFactory.getLogger(PeerLink.class);

  /** Messages written per flush: enough to batch syscalls, few enough to let reads interleave. */
  static final int MAX_MESSAGES_PER_FLUSH = 64;

  /**
   * The most bytes of frames encoded into one buffer: TLS's largest record carries 16 KiB, so one
   * buffer makes a few records, and a batch of small messages is one buffer.
   */
  static final int MAX_COALESCED_BYTES = 64 * 1024;

  private record Outbound(int partitionId, RaftMessage message, int frameBytes) {}

  final int memberId;
  final boolean initiator;
  final EventLoop loop;
  final PeerMeters meters;
  private final int localMemberId;
  private final TransportConfig config;
  private final Bootstrap template;
  private final Function<PeerLink, ChannelHandler> pipeline;
  private final RaftMessageCodec codec = new RaftMessageCodec();
  private final ConcurrentLinkedQueue<Outbound> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queuedMessages = new AtomicInteger();
  private final AtomicLong queuedBytes = new AtomicLong();
  private final AtomicBoolean drainScheduled = new AtomicBoolean();
  private volatile InetSocketAddress address;
  private volatile boolean connected;

  // Confined to loop.
  private Bootstrap bootstrap;
  private Channel channel;
  private Channel connecting;
  private ScheduledFuture<?> reconnectTask;
  private volatile boolean started;
  private long backoffMs;

  /**
   * When the first request that a live peer answers was written since the peer was last heard from
   * (0: none), for the dead-peer check: set when such a request is written, cleared by every frame
   * read. Answers do not count: a member that only answers writes after every read, and a quiet
   * link must not look dead for it.
   */
  final AtomicLong unansweredSinceNs = new AtomicLong();

  private static boolean expectsAnswer(RaftMessage message) {
    return message instanceof RaftMessage.AppendRequest
        || message instanceof RaftMessage.VoteRequest
        || message instanceof RaftMessage.SnapshotChunk;
  }

  private long attachedAtNs; // event loop only
  private boolean draining; // event loop only
  private final Outbound[] batch = new Outbound[MAX_MESSAGES_PER_FLUSH]; // event loop only
  private boolean everConnected;
  private boolean failureLogged;
  private boolean closed;

  /**
   * @param template configured for outbound connections (channel class, options); only used when
   *     {@code initiator}
   * @param pipeline the handler that sets up an outbound connection's pipeline for this link
   */
  PeerLink(
      int memberId,
      InetSocketAddress address,
      TransportConfig config,
      EventLoop loop,
      Bootstrap template,
      Function<PeerLink, ChannelHandler> pipeline,
      TransportMetrics metrics) {
    this.memberId = memberId;
    this.address = address;
    this.localMemberId = config.localMemberId();
    this.initiator = localMemberId < memberId;
    this.config = config;
    this.loop = loop;
    this.template = template;
    this.pipeline = pipeline;
    this.backoffMs = config.reconnectBackoffMinMs();
    this.meters =
        metrics.peer(
            memberId,
            this,
            link -> link.queuedMessages.get(),
            link -> link.queuedBytes.get(),
            link -> link.connected ? 1 : 0);
  }

  InetSocketAddress address() {
    return address;
  }

  /**
   * The peer's address, as it announced it (it may have moved). Announcing means the peer is up: if
   * this side dials and is not connected, it dials now rather than at the end of a back-off that
   * grew while the peer was down (up to {@code reconnectBackoffMaxMs} later).
   */
  void address(InetSocketAddress newAddress) {
    this.address = newAddress;
    if (initiator && started) {
      execute(this::dialNow);
    }
  }

  private void dialNow() {
    if (closed || channel != null || connecting != null) {
      return;
    }
    if (reconnectTask != null) {
      reconnectTask.cancel(false);
      reconnectTask = null;
    }
    backoffMs = config.reconnectBackoffMinMs();
    connect();
  }

  boolean isConnected() {
    return connected;
  }

  int queuedMessages() {
    return queuedMessages.get();
  }

  /** Queues a message whose frame (length prefix included) has {@code frameBytes}; never blocks. */
  boolean offer(int partitionId, RaftMessage message, int frameBytes) {
    if (queuedMessages.incrementAndGet() > config.maxQueuedMessagesPerPeer()) {
      queuedMessages.decrementAndGet();
      meters.dropped(DropReason.QUEUE_FULL);
      return false;
    }
    if (queuedBytes.addAndGet(frameBytes) > config.maxQueuedBytesPerPeer()) {
      queuedBytes.addAndGet(-frameBytes);
      queuedMessages.decrementAndGet();
      meters.dropped(DropReason.QUEUE_FULL);
      return false;
    }
    queue.offer(new Outbound(partitionId, message, frameBytes));
    scheduleDrain();
    return true;
  }

  void scheduleDrain() {
    if (drainScheduled.compareAndSet(false, true)) {
      execute(this::drain);
    }
  }

  /** Starts connecting if this member is the one to connect. */
  void start() {
    started = true;
    if (initiator) {
      execute(this::connect);
    }
  }

  void close() {
    execute(
        () -> {
          closed = true;
          if (reconnectTask != null) {
            reconnectTask.cancel(false);
          }
          closeQuietly(channel);
          closeQuietly(connecting);
          queue.clear();
          queuedMessages.set(0);
          queuedBytes.set(0);
        });
  }

  /** A handshake on {@code ch} succeeded: make it this peer's connection. */
  void attach(Channel ch) {
    if (!loop.inEventLoop()) {
      execute(() -> attach(ch));
      return;
    }
    if (closed || !ch.isActive()) {
      ch.close();
      return;
    }
    if (channel != null && channel != ch) {
      LOG.info(
          "raft transport: member {} reconnected from {}; closing its previous connection",
          memberId,
          ch.remoteAddress());
      channel.close();
    }
    if (connecting == ch) {
      connecting = null;
    }
    channel = ch;
    connected = true;
    if (everConnected) {
      meters.reconnects.increment();
    }
    everConnected = true;
    failureLogged = false;
    // The back-off is reset only once the connection has proven stable (see onClosed): a peer
    // that accepts the handshake and then closes (a frame over its limit, a message it cannot
    // decode) would otherwise be redialled at the minimum delay forever.
    attachedAtNs = System.nanoTime();
    unansweredSinceNs.set(0); // requests written to an earlier connection are not this one's
    LOG.info("raft transport: member {} connected to member {}", localMemberId, memberId);
    drain();
  }

  /** Registers {@code ch} so that its closing updates this link (and triggers a reconnect). */
  void track(Channel ch) {
    ch.closeFuture().addListener(f -> execute(() -> onClosed(ch)));
  }

  private void connect() {
    if (closed || channel != null || connecting != null) {
      return;
    }
    if (bootstrap == null) {
      bootstrap = template.clone(loop).handler(pipeline.apply(this));
    }
    InetSocketAddress target = address;
    ChannelFuture future = bootstrap.connect(target);
    connecting = future.channel();
    track(connecting);
    future.addListener(
        f -> {
          if (!f.isSuccess()) {
            meters.connectFailures.increment();
            logFailure("cannot connect to member " + memberId + " at " + target, f.cause());
            future.channel().close();
          }
        });
  }

  private void onClosed(Channel ch) {
    boolean wasOurs = false;
    if (channel == ch) {
      channel = null;
      connected = false;
      wasOurs = true;
      long upMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - attachedAtNs);
      if (upMs >= config.reconnectBackoffMaxMs()) {
        backoffMs = config.reconnectBackoffMinMs();
      }
      if (!closed) {
        LOG.info("raft transport: connection to member {} closed", memberId);
      }
    }
    if (connecting == ch) {
      connecting = null;
      wasOurs = true;
    }
    if (wasOurs && initiator && !closed) {
      scheduleReconnect();
    }
  }

  private void scheduleReconnect() {
    if (reconnectTask != null && !reconnectTask.isDone()) {
      return;
    }
    long delayMs = backoffMs;
    backoffMs = Math.min(backoffMs * 2, config.reconnectBackoffMaxMs());
    reconnectTask = loop.schedule(this::connect, delayMs, TimeUnit.MILLISECONDS);
  }

  /** One line per outage at INFO (a peer that is down); the retries behind it at DEBUG. */
  void logFailure(String what, Throwable cause) {
    if (!failureLogged) {
      failureLogged = true;
      LOG.info("raft transport: {}: {} (retrying with back-off)", what, cause.getMessage());
    } else {
      LOG.debug("raft transport: {}: {}", what, cause.getMessage());
    }
  }

  /** Like {@link #logFailure} at WARN: a refused handshake means a misconfiguration. */
  void warnFailure(String line) {
    if (!failureLogged) {
      failureLogged = true;
      LOG.warn("{}; closing the connection (retrying with back-off)", line);
    } else {
      LOG.debug("{}; closing the connection", line);
    }
  }

  /**
   * Writes queued messages, one flush per batch, while the connection takes them. A batch's frames
   * are encoded back to back into as few buffers as {@link #MAX_COALESCED_BYTES} allows, so that
   * each buffer is one write down the pipeline: with TLS, one write is wrapped into one record
   * (rather than the SslHandler queueing, copying and merging one small write per message), and
   * without it the socket gets one buffer instead of one per message.
   */
  private void drain() {
    drainScheduled.set(false);
    if (draining) {
      // Called back from a write below: the batch taken off the queue is not all written yet, and
      // writing later messages now would reorder them. The running drain reschedules itself.
      return;
    }
    draining = true;
    try {
      drainBatch();
    } finally {
      draining = false;
    }
    // Yield between batches so reads and other peers' writes on this loop get their turn.
    Channel ch = channel;
    if (ch != null && ch.isActive() && !queue.isEmpty() && ch.isWritable()) {
      scheduleDrain();
    }
  }

  private void drainBatch() {
    Channel ch = channel;
    if (ch == null || !ch.isActive()) {
      return;
    }
    if (!ch.isWritable()) {
      return; // channelWritabilityChanged drains again
    }
    // Taken off the queue first, so that the buffers can be sized for the whole batch. Bounded by
    // the bytes the connection takes before it stops being writable, as writing one by one was.
    Outbound[] batch = this.batch;
    int count = 0;
    long batchBytes = 0;
    long budget = Math.max(1, ch.bytesBeforeUnwritable());
    while (count < MAX_MESSAGES_PER_FLUSH && batchBytes < budget) {
      Outbound next = queue.poll();
      if (next == null) {
        break;
      }
      queuedMessages.decrementAndGet();
      queuedBytes.addAndGet(-next.frameBytes());
      batch[count++] = next;
      batchBytes += next.frameBytes();
    }
    ByteBuf buffer = null;
    int written = 0;
    for (int i = 0; i < count; i++) {
      Outbound next = batch[i];
      if (buffer != null && buffer.writableBytes() < next.frameBytes()) {
        ch.write(buffer, ch.voidPromise());
        buffer = null;
      }
      if (buffer == null) {
        buffer = ch.alloc().ioBuffer(bufferBytes(batch, i, count));
      }
      int start = buffer.writerIndex();
      try {
        buffer.writeIntLE(next.frameBytes() - NettyRaftTransport.LENGTH_PREFIX_BYTES);
        codec.encode(next.partitionId(), next.message(), buffer);
      } catch (RuntimeException e) {
        buffer.writerIndex(start); // the frames before it stay whole
        LOG.error("raft transport: cannot encode {} for member {}", next.message(), memberId, e);
        continue;
      }
      if (expectsAnswer(next.message()) && unansweredSinceNs.get() == 0) {
        unansweredSinceNs.compareAndSet(0, System.nanoTime());
      }
      meters.messagesSent.increment();
      meters.bytesSent.increment(next.frameBytes());
      written++;
    }
    Arrays.fill(batch, 0, count, null); // reused by the next drain: hold no message
    if (buffer != null) {
      if (buffer.isReadable()) {
        ch.write(buffer, ch.voidPromise());
      } else {
        buffer.release();
      }
    }
    if (written > 0) {
      ch.flush();
    }
  }

  /**
   * The size of the buffer that starts with {@code batch[from]}: the frames from there that fit in
   * {@link #MAX_COALESCED_BYTES} together, or that first frame alone if it is larger.
   */
  private static int bufferBytes(Outbound[] batch, int from, int count) {
    int bytes = batch[from].frameBytes();
    for (int i = from + 1; i < count; i++) {
      int more = batch[i].frameBytes();
      if (bytes + more > MAX_COALESCED_BYTES) {
        break;
      }
      bytes += more;
    }
    return bytes;
  }

  private void execute(Runnable task) {
    try {
      loop.execute(task);
    } catch (RejectedExecutionException e) {
      // The transport is shutting down; its queues go with it.
    }
  }

  private static void closeQuietly(Channel ch) {
    if (ch != null) {
      ch.close();
    }
  }
}

package io.tern.raft.transport;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.tern.raft.RaftMessage;
import io.tern.raft.transport.TransportMetrics.DropReason;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link RaftTransport} over TCP with Netty: one connection per pair of brokers, carrying every
 * partition's messages in both directions.
 *
 * <p><b>Connections.</b> Of two brokers, the one with the lower member id connects (and reconnects
 * with exponential back-off between {@code reconnectBackoffMinMs} and {@code
 * reconnectBackoffMaxMs}); the other only accepts. So there is never a pair of crossing connections
 * to reconcile. The first frame in each direction is a {@link Handshake} (member ids, protocol
 * versions): the acceptor answers only a handshake from a configured peer with a lower id and a
 * compatible version, and both sides log why they close a connection they refuse.
 *
 * <p><b>Frames.</b> A 4-byte little-endian length, then one SBE message ({@link RaftMessageCodec}).
 * Frames above {@code maxFrameBytes} are refused on both sides: {@code send} drops them, and an
 * inbound one closes the connection.
 *
 * <p><b>Queues.</b> Each peer has a bounded queue (messages and bytes). Messages wait there while
 * the peer is disconnected or its connection is not writable (Netty's high water mark), and are
 * encoded straight into the outbound buffer on the peer's event loop, several per flush.
 *
 * <p>Meters: see {@link TransportMetrics}.
 */
public final class NettyRaftTransport implements RaftTransport {
  private static final Logger LOG = LoggerFactory.getLogger(NettyRaftTransport.class);

  static final int LENGTH_PREFIX_BYTES = 4;

  /** Outbound bytes buffered in Netty beyond which the peer counts as not writable. */
  static final int WRITE_BUFFER_HIGH_WATER_MARK_BYTES = 1024 * 1024;

  static final int WRITE_BUFFER_LOW_WATER_MARK_BYTES = 256 * 1024;

  private static final long SHUTDOWN_TIMEOUT_MS = 5_000;

  private static final long CLOSE_NOTIFY_FLUSH_TIMEOUT_MS = 100;

  private final TransportConfig config;
  private final TransportMetrics metrics;
  private final boolean epoll;
  private final EventLoopGroup group;
  private final Bootstrap clientTemplate;
  private final TlsContexts tls;
  private final Map<Integer, PeerLink> links = new ConcurrentHashMap<>();
  private final Object lifecycle = new Object();
  private volatile MessageReceiver receiver = (partitionId, message) -> message.release();
  private volatile Channel serverChannel;
  private volatile boolean started;
  private volatile boolean closed;

  public NettyRaftTransport(TransportConfig config, MeterRegistry registry, Tags tags) {
    this.config = config;
    // First: unreadable certificates fail here, before any thread or port is taken.
    this.tls = config.tls() == null ? null : TlsContexts.create(config.tls());
    this.metrics = new TransportMetrics(registry, tags, config.localMemberId());
    this.epoll = config.preferEpoll() && Epoll.isAvailable();
    IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
    // Threads start lazily, so an unstarted transport holds none.
    this.group =
        new MultiThreadIoEventLoopGroup(
            config.ioThreads(),
            new DefaultThreadFactory("tern-raft-transport-" + config.localMemberId(), true),
            io);
    this.clientTemplate =
        new Bootstrap()
            .group(group)
            .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) config.connectTimeoutMs())
            .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark());
    for (Map.Entry<Integer, InetSocketAddress> peer : config.peers().entrySet()) {
      links.put(peer.getKey(), newLink(peer.getKey(), peer.getValue()));
    }
  }

  /** Listens, then connects to every peer with a higher id. Throws if the port cannot be bound. */
  public NettyRaftTransport start() {
    synchronized (lifecycle) {
      if (closed) {
        throw new IllegalStateException("raft transport: already closed");
      }
      if (started) {
        return this;
      }
      started = true;
    }
    Class<? extends ServerChannel> serverClass =
        epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    ServerBootstrap server =
        new ServerBootstrap()
            .group(group)
            .channel(serverClass)
            // A restarted broker must get its port back while old connections sit in TIME_WAIT.
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark())
            .childHandler(pipeline(null));
    try {
      serverChannel = server.bind(config.bindHost(), config.bindPort()).sync().channel();
    } catch (Exception e) {
      close();
      throw new IllegalStateException(
          "raft transport: member "
              + config.localMemberId()
              + " cannot listen on "
              + config.bindHost()
              + ":"
              + config.bindPort()
              + ": "
              + e,
          e);
    }
    LOG.info(
        "raft transport: member {} listening on {} ({})",
        config.localMemberId(),
        boundAddress(),
        epoll ? "epoll" : "nio");
    links.values().forEach(PeerLink::start);
    return this;
  }

  /** The address actually listened on (the chosen port when configured with port 0). */
  public InetSocketAddress boundAddress() {
    Channel server = serverChannel;
    if (server == null) {
      throw new IllegalStateException("raft transport: not started");
    }
    return (InetSocketAddress) server.localAddress();
  }

  /**
   * Adds a peer, or changes its address (used from the next connection attempt on). Usable before
   * and after start.
   */
  public void addPeer(int memberId, InetSocketAddress address) {
    TransportConfig.validatePeer(config.localMemberId(), memberId, address);
    PeerLink link;
    synchronized (lifecycle) {
      if (closed) {
        throw new IllegalStateException("raft transport: already closed");
      }
      PeerLink existing = links.get(memberId);
      if (existing != null) {
        existing.address(address);
        return;
      }
      link = newLink(memberId, address);
      links.put(memberId, link);
      if (!started) {
        return;
      }
    }
    link.start();
  }

  @Override
  public boolean send(int partitionId, RaftMessage message) {
    PeerLink link = links.get(message.to());
    if (link == null) {
      metrics.droppedUnknownMember();
      LOG.debug("raft transport: dropped {}: member {} is no peer", message, message.to());
      return false;
    }
    if (closed) {
      link.meters.dropped(DropReason.CLOSED);
      return false;
    }
    int frameBytes;
    try {
      frameBytes = LENGTH_PREFIX_BYTES + RaftMessageCodec.encodedLength(message);
    } catch (RaftProtocolException e) {
      link.meters.dropped(DropReason.TOO_LARGE);
      LOG.error("{}; dropped {} for partition {}", e.getMessage(), message, partitionId);
      return false;
    }
    if (frameBytes > config.maxFrameBytes()) {
      link.meters.dropped(DropReason.TOO_LARGE);
      LOG.error(
          "raft transport: {} for partition {} to member {} needs a frame of {} bytes, above"
              + " maxFrameBytes {}; dropped",
          message.getClass().getSimpleName(),
          partitionId,
          message.to(),
          frameBytes,
          config.maxFrameBytes());
      return false;
    }
    return link.offer(partitionId, message, frameBytes);
  }

  @Override
  public void setReceiver(MessageReceiver receiver) {
    this.receiver = receiver;
  }

  @Override
  public int localMemberId() {
    return config.localMemberId();
  }

  @Override
  public int maxFrameBytes() {
    return config.maxFrameBytes();
  }

  @Override
  public EventExecutor singleEventLoop() {
    return config.ioThreads() == 1 ? group.next() : null;
  }

  public TransportConfig config() {
    return config;
  }

  /** Whether a handshaken connection to {@code memberId} is open. */
  public boolean isConnected(int memberId) {
    PeerLink link = links.get(memberId);
    return link != null && link.isConnected();
  }

  /** Messages waiting for {@code memberId} (0 for an unknown member). */
  public int queuedMessages(int memberId) {
    PeerLink link = links.get(memberId);
    return link == null ? 0 : link.queuedMessages();
  }

  @Override
  public void close() {
    synchronized (lifecycle) {
      if (closed) {
        return;
      }
      closed = true;
    }
    links.values().forEach(PeerLink::close);
    Channel server = serverChannel;
    if (server != null) {
      server.close().awaitUninterruptibly(SHUTDOWN_TIMEOUT_MS);
    }
    group
        .shutdownGracefully(0, SHUTDOWN_TIMEOUT_MS, TimeUnit.MILLISECONDS)
        .awaitUninterruptibly(SHUTDOWN_TIMEOUT_MS);
    metrics.close();
    LOG.info("raft transport: member {} closed", config.localMemberId());
  }

  PeerLink link(int memberId) {
    return links.get(memberId);
  }

  TransportMetrics metrics() {
    return metrics;
  }

  void deliver(int partitionId, RaftMessage message) {
    try {
      receiver.onMessage(partitionId, message);
    } catch (RuntimeException e) {
      LOG.error("raft transport: receiver failed on {} for partition {}", message, partitionId, e);
    }
  }

  private PeerLink newLink(int memberId, InetSocketAddress address) {
    return new PeerLink(
        memberId, address, config, group.next(), clientTemplate, link -> pipeline(link), metrics);
  }

  /** Frames, then the handshake; {@code link} is the peer connected to, or null when accepting. */
  private ChannelHandler pipeline(PeerLink link) {
    return new ChannelInitializer<SocketChannel>() {
      @Override
      protected void initChannel(SocketChannel ch) {
        if (tls != null) {
          // The client side is not told the peer's host and port: the JDK would then resume a
          // cached session, whose certificates are those of the last full handshake, and a
          // certificate renewed or fixed since would not be presented or checked until it ends.
          SslHandler handler =
              link == null
                  ? tls.server().newHandler(ch.alloc())
                  : tls.client().newHandler(ch.alloc());
          handler.setHandshakeTimeoutMillis(config.connectTimeoutMs());
          // A close waits this long for TLS's goodbye to be flushed (Netty's default, 3 s,
          // would delay the dead-peer close behind a full outbound buffer).
          handler.setCloseNotifyFlushTimeoutMillis(CLOSE_NOTIFY_FLUSH_TIMEOUT_MS);
          ch.pipeline().addLast("tls", handler);
        }
        ch.pipeline()
            .addLast("frames", new RaftFrameDecoder(config.maxFrameBytes()))
            .addLast("handshake", new HandshakeHandler(NettyRaftTransport.this, link));
      }
    };
  }

  private static WriteBufferWaterMark waterMark() {
    return new WriteBufferWaterMark(
        WRITE_BUFFER_LOW_WATER_MARK_BYTES, WRITE_BUFFER_HIGH_WATER_MARK_BYTES);
  }
}

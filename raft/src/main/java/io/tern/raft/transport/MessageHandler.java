package io.tern.raft.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.raft.RaftMessage;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decodes the frames of a handshaken connection and hands the messages to the transport's receiver.
 * A frame that cannot be decoded closes the connection: after a framing error nothing later on the
 * stream can be trusted, and the connecting side reconnects.
 */
final class MessageHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(MessageHandler.class);

  private final NettyRaftTransport transport;
  private final PeerLink link;
  private final RaftMessageCodec codec;

  /**
   * Set once a frame could not be decoded. Closing the channel does not stop the frames already
   * read from reaching this handler (the decoder keeps going through its buffer), and none of them
   * can be trusted any more.
   */
  private boolean failed;

  private ScheduledFuture<?> deadPeerCheck;

  MessageHandler(NettyRaftTransport transport, PeerLink link, RaftMessageCodec codec) {
    this.transport = transport;
    this.link = link;
    this.codec = codec;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf frame = (ByteBuf) msg;
    if (link.unansweredSinceNs.get() != 0) {
      link.unansweredSinceNs.set(0); // heard from the peer
    }
    if (failed) {
      frame.release();
      return;
    }
    int frameBytes = NettyRaftTransport.LENGTH_PREFIX_BYTES + frame.readableBytes();
    Envelope envelope;
    try {
      envelope = codec.decode(frame, link.memberId);
    } catch (RaftProtocolException e) {
      link.meters.protocolError(e.tag());
      if (e.kind() == RaftProtocolException.Kind.NEWER_MESSAGE_TYPE) {
        // The frame's length is known, so the stream stays aligned: skip it and go on.
        LOG.debug("{}; skipped", e.getMessage());
        return;
      }
      LOG.warn("{}; closing the connection", e.getMessage());
      failed = true;
      ctx.close();
      return;
    } finally {
      frame.release();
    }
    RaftMessage message = envelope.message();
    if (message.from() != link.memberId || message.to() != transport.localMemberId()) {
      LOG.warn(
          "raft transport: dropped {} for partition {} on the connection between members {} and"
              + " {}: it claims to go from {} to {}",
          message.getClass().getSimpleName(),
          envelope.partitionId(),
          link.memberId,
          transport.localMemberId(),
          message.from(),
          message.to());
      link.meters.protocolError("misaddressed");
      message.release();
      return;
    }
    link.meters.messagesReceived.increment();
    link.meters.bytesReceived.increment(frameBytes);
    transport.deliver(envelope.partitionId(), message);
  }

  /** Starts the dead-peer check on the connection's event loop (see {@code deadPeerTimeoutMs}). */
  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    long timeoutMs = transport.config().deadPeerTimeoutMs();
    if (timeoutMs > 0) {
      long periodMs = Math.max(1, timeoutMs / 4);
      deadPeerCheck =
          ctx.executor()
              .scheduleAtFixedRate(
                  () -> checkPeerAlive(ctx, timeoutMs), periodMs, periodMs, TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    if (deadPeerCheck != null) {
      deadPeerCheck.cancel(false);
    }
  }

  /**
   * A request has waited {@code timeoutMs} with nothing read since: Raft answers every request, so
   * the peer is gone. A connection idle both ways, or one on which this side only answers, stays;
   * so does a quiet one on which a request was just sent.
   */
  private void checkPeerAlive(ChannelHandlerContext ctx, long timeoutMs) {
    long sinceNs = link.unansweredSinceNs.get();
    long silentNs = System.nanoTime() - sinceNs;
    if (sinceNs != 0
        && silentNs >= TimeUnit.MILLISECONDS.toNanos(timeoutMs)
        && ctx.channel().isActive()) {
      LOG.warn(
          "raft transport: no answer from member {} for {} ms to requests sent to it; closing the"
              + " connection",
          link.memberId,
          TimeUnit.NANOSECONDS.toMillis(silentNs));
      link.meters.protocolError("dead_peer");
      deadPeerCheck.cancel(false);
      ctx.close();
    }
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    if (ctx.channel().isWritable()) {
      link.scheduleDrain();
    }
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof TooLongFrameException) {
      LOG.warn(
          "raft transport: frame from member {} exceeds maxFrameBytes {} ({}); closing the"
              + " connection",
          link.memberId,
          transport.config().maxFrameBytes(),
          cause.getMessage());
      link.meters.protocolError("too_large");
    } else if (cause instanceof DecoderException) {
      LOG.warn(
          "raft transport: unreadable frame from member {} ({}); closing the connection",
          link.memberId,
          cause.getMessage());
      link.meters.protocolError("malformed");
    } else {
      LOG.info(
          "raft transport: connection with member {} failed: {}", link.memberId, cause.toString());
    }
    ctx.close();
  }
}

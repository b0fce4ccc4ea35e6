package io.tern.raft.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.tern.raft.tls.SubjectNames;
import java.nio.channels.ClosedChannelException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the handshake of one connection, then hands the pipeline to a {@link MessageHandler}. The
 * connecting side ({@code expected} set) speaks first; the accepting side answers only a handshake
 * it accepts, so a refused peer learns of it by the connection closing, and this side logs why.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(HandshakeHandler.class);

  private final NettyRaftTransport transport;
  private final PeerLink expected;
  private final RaftMessageCodec codec = new RaftMessageCodec();
  private ScheduledFuture<?> timeout;
  private boolean done;

  /**
   * @param expected the peer this side connected to, or null on the accepting side
   */
  HandshakeHandler(NettyRaftTransport transport, PeerLink expected) {
    this.transport = transport;
    this.expected = expected;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    if (expected != null) {
      sendHandshake(ctx, expected.memberId);
    }
    long timeoutMs = transport.config().connectTimeoutMs();
    timeout =
        ctx.executor()
            .schedule(
                () -> {
                  if (!done) {
                    refuse(
                        ctx,
                        "timeout",
                        "no handshake from " + peer(ctx) + " in " + timeoutMs + " ms");
                  }
                },
                timeoutMs,
                TimeUnit.MILLISECONDS);
    ctx.fireChannelActive();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    done = true; // the peer left before the handshake ended; nothing to time out
    if (timeout != null) {
      timeout.cancel(false);
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (done) {
      // Refused and closing: ignore whatever else the peer sent.
      ReferenceCountUtil.release(msg);
      return;
    }
    ByteBuf frame = (ByteBuf) msg;
    Handshake remote;
    try {
      remote = codec.decodeHandshake(frame, peer(ctx));
      remote.requireCompatible(peer(ctx));
    } catch (RaftProtocolException e) {
      refuse(ctx, e.tag(), e.getMessage());
      return;
    } finally {
      frame.release();
    }
    PeerLink link = expected != null ? checkAccepted(ctx, remote) : checkConnecting(ctx, remote);
    if (link == null) {
      return;
    }
    done = true;
    timeout.cancel(false);
    ((RaftFrameDecoder) ctx.pipeline().get("frames")).handshakeDone();
    if (expected == null) {
      link.track(ctx.channel());
      sendHandshake(ctx, link.memberId);
    }
    ctx.pipeline().replace(this, "raft-messages", new MessageHandler(transport, link, codec));
    link.attach(ctx.channel());
  }

  /** On the connecting side: is the accepting peer the member we meant to reach? */
  private PeerLink checkAccepted(ChannelHandlerContext ctx, Handshake remote) {
    if (remote.memberId() != expected.memberId) {
      refuse(
          ctx,
          "wrong_member",
          peer(ctx)
              + " is member "
              + remote.memberId()
              + ", but the configuration says member "
              + expected.memberId);
      return null;
    }
    return checkTarget(ctx, remote) && checkIdentity(ctx, expected) ? expected : null;
  }

  /** On the accepting side: is the connecting peer one we know, and the one that should connect? */
  private PeerLink checkConnecting(ChannelHandlerContext ctx, Handshake remote) {
    int local = transport.localMemberId();
    PeerLink link = transport.link(remote.memberId());
    if (link == null) {
      refuse(
          ctx,
          "unknown_member",
          "refusing connection from "
              + peer(ctx)
              + ": member "
              + remote.memberId()
              + " is not a peer of member "
              + local);
      return null;
    }
    if (link.initiator) {
      refuse(
          ctx,
          "wrong_direction",
          "refusing connection from member "
              + remote.memberId()
              + " at "
              + peer(ctx)
              + ": the member with the lower id connects, so member "
              + local
              + " connects to it");
      return null;
    }
    return checkTarget(ctx, remote) && checkIdentity(ctx, link) ? link : null;
  }

  /**
   * With TLS: the peer's certificate must name the address this broker knows member {@code
   * link.memberId} by. The CA vouches for the certificate; this ties it to one member, so that a
   * certificate issued to one broker cannot join as another.
   */
  private boolean checkIdentity(ChannelHandlerContext ctx, PeerLink link) {
    SslHandler tls = (SslHandler) ctx.pipeline().get("tls");
    if (tls == null) {
      return true;
    }
    String host = link.address().getHostString();
    X509Certificate certificate;
    try {
      certificate = (X509Certificate) tls.engine().getSession().getPeerCertificates()[0];
    } catch (SSLPeerUnverifiedException e) {
      refuse(
          ctx, "identity", "member " + link.memberId + " at " + peer(ctx) + " sent no certificate");
      return false;
    }
    if (SubjectNames.matches(certificate, host)) {
      return true;
    }
    tls.engine().getSession().invalidate(); // never resumed: the next attempt checks afresh
    List<String> names = SubjectNames.of(certificate);
    refuse(
        ctx,
        "identity",
        "refusing member "
            + link.memberId
            + " at "
            + peer(ctx)
            + ": its certificate ("
            + certificate.getSubjectX500Principal().getName()
            + ", serial "
            + certificate.getSerialNumber().toString(16)
            + ") names "
            + (names.isEmpty() ? "no subject alternative name" : names)
            + ", but member "
            + link.memberId
            + " is known here as '"
            + host
            + "'");
    return false;
  }

  private boolean checkTarget(ChannelHandlerContext ctx, Handshake remote) {
    if (remote.targetMemberId() == transport.localMemberId()) {
      return true;
    }
    refuse(
        ctx,
        "wrong_target",
        "member "
            + remote.memberId()
            + " at "
            + peer(ctx)
            + " meant to reach member "
            + remote.targetMemberId()
            + " but reached member "
            + transport.localMemberId());
    return false;
  }

  private void sendHandshake(ChannelHandlerContext ctx, int targetMemberId) {
    ByteBuf frame =
        ctx.alloc()
            .ioBuffer(NettyRaftTransport.LENGTH_PREFIX_BYTES + RaftMessageCodec.handshakeLength());
    frame.writeIntLE(RaftMessageCodec.handshakeLength());
    codec.encodeHandshake(Handshake.of(transport.localMemberId(), targetMemberId), frame);
    ctx.writeAndFlush(frame, ctx.voidPromise());
  }

  private void refuse(ChannelHandlerContext ctx, String reason, String message) {
    done = true;
    if (timeout != null) {
      timeout.cancel(false);
    }
    String line = message.startsWith("raft transport: ") ? message : "raft transport: " + message;
    if (expected != null) {
      // Retried with back-off: warn once per outage.
      expected.warnFailure(line);
    } else {
      LOG.warn("{}; closing the connection", line);
    }
    transport.metrics().connectionRefused(reason);
    ctx.close();
  }

  /** TLS handshake failures (a peer without a trusted certificate, or without TLS) refuse too. */
  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
    if (event instanceof SslHandshakeCompletionEvent completion
        && !completion.isSuccess()
        && !done) {
      Throwable cause = completion.cause();
      if (cause instanceof SslHandshakeTimeoutException) {
        refuse(ctx, "timeout", "no TLS handshake from " + peer(ctx) + ": " + cause.getMessage());
      } else if (cause instanceof ClosedChannelException) {
        // Closed before TLS was done: a probe, a scanner, a peer restarting, our own shutdown.
        // Nothing is wrong with TLS; channelInactive has nothing to time out either.
        LOG.debug("raft transport: {} closed during the TLS handshake", peer(ctx));
        done = true;
        ctx.close();
      } else {
        refuse(ctx, "tls", tlsFailure(ctx, cause));
      }
    }
    ctx.fireUserEventTriggered(event);
  }

  private static String tlsFailure(ChannelHandlerContext ctx, Throwable cause) {
    Throwable root = cause;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return "TLS handshake with "
        + peer(ctx)
        + " failed ("
        + root
        + "): does the peer use TLS with a certificate trusted here, and trust ours?";
  }

  private static boolean isTlsFailure(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SSLException) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (done) {
      ctx.close(); // already refused
    } else if (isTlsFailure(cause)) {
      refuse(ctx, "tls", tlsFailure(ctx, cause));
    } else if (cause instanceof TooLongFrameException) {
      refuse(ctx, "too_large", "handshake from " + peer(ctx) + " too large: " + cause.getMessage());
    } else if (cause instanceof DecoderException) {
      refuse(
          ctx, "malformed", "unreadable handshake from " + peer(ctx) + ": " + cause.getMessage());
    } else {
      LOG.debug("raft transport: connection with {} failed during handshake", peer(ctx), cause);
      ctx.close();
    }
  }

  private static String peer(ChannelHandlerContext ctx) {
    return String.valueOf(ctx.channel().remoteAddress());
  }
}

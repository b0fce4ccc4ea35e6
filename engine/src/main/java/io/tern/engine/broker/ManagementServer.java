package io.tern.engine.broker;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.tern.engine.tls.TlsFiles;
import io.tern.raft.tls.ReloadingCredentials;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import javax.net.ssl.SSLException;

/**
 * The management HTTP server (port 9600 by default): a small Netty HTTP/1.1 server whose answers
 * {@link ManagementApi} computes. Requests are tiny; anything long (a snapshot) answers when done.
 */
final class ManagementServer implements AutoCloseable {
  /**
   * Management requests carry tiny bodies at most; this bounds what a client can make us buffer.
   */
  private static final int MAX_REQUEST_BYTES = 64 * 1024;

  private final EventLoopGroup group;
  private final Channel channel;
  private final ReloadingCredentials credentials;

  private ManagementServer(
      EventLoopGroup group, Channel channel, ReloadingCredentials credentials) {
    this.group = group;
    this.channel = channel;
    this.credentials = credentials;
  }

  /**
   * What the server answers: a method and path to an answer. {@code authorization} is the request's
   * Authorization header (null without one), which only the routes look at.
   */
  interface Routes {
    CompletableFuture<ManagementApi.Answer> handle(
        String method, String path, String authorization);

    /** As above, with the request's body (UTF-8; empty without one): the routes that read one. */
    default CompletableFuture<ManagementApi.Answer> handle(
        String method, String path, String authorization, String body) {
      return handle(method, path, authorization);
    }

    /** As above, with the request's query parameters: the routes that take some. */
    default CompletableFuture<ManagementApi.Answer> handle(
        String method,
        String path,
        java.util.Map<String, java.util.List<String>> query,
        String authorization,
        String body) {
      return handle(method, path, authorization, body);
    }
  }

  /**
   * Starts serving on {@code host:port}, over HTTPS when {@code tls} is set (its files are read
   * again when they change).
   */
  static ManagementServer start(String host, int port, TlsFiles tls, Routes api) {
    ReloadingCredentials credentials = tls == null ? null : tls.load();
    SslContext https;
    try {
      https =
          credentials == null
              ? null
              : credentials
                  .forServer(ClientAuth.NONE, ReloadingCredentials.provider())
                  .protocols("TLSv1.3", "TLSv1.2")
                  .sessionTimeout(io.tern.engine.tls.ClusterTls.SESSION_TIMEOUT_SECONDS)
                  .build();
    } catch (SSLException e) {
      credentials.close();
      throw new IllegalArgumentException(
          "management.security.tls: cannot build TLS from " + credentials + ": " + e.getMessage(),
          e);
    }
    EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    try {
      Channel channel =
          new ServerBootstrap()
              .group(group)
              .channel(NioServerSocketChannel.class)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                      if (https != null) {
                        channel.pipeline().addLast(https.newHandler(channel.alloc()));
                      }
                      channel
                          .pipeline()
                          .addLast(new HttpServerCodec())
                          .addLast(new HttpObjectAggregator(MAX_REQUEST_BYTES))
                          .addLast(new Handler(api));
                    }
                  })
              .bind(new InetSocketAddress(host, port))
              .syncUninterruptibly()
              .channel();
      return new ManagementServer(group, channel, credentials);
    } catch (Exception e) { // Netty rethrows the checked BindException undeclared
      group.shutdownGracefully();
      if (credentials != null) {
        credentials.close();
      }
      throw e instanceof RuntimeException runtime ? runtime : new IllegalStateException(e);
    }
  }

  int port() {
    return ((InetSocketAddress) channel.localAddress()).getPort();
  }

  @Override
  public void close() {
    channel.close().syncUninterruptibly();
    group.shutdownGracefully().syncUninterruptibly();
    if (credentials != null) {
      credentials.close();
    }
  }

  private static final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final Routes api;

    Handler(Routes api) {
      this.api = api;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext context, FullHttpRequest request) {
      boolean keepAlive = HttpUtil.isKeepAlive(request);
      QueryStringDecoder uri = new QueryStringDecoder(request.uri());
      String path = uri.path();
      CompletableFuture<ManagementApi.Answer> answer;
      try {
        answer =
            api.handle(
                request.method().name(),
                path,
                uri.parameters(),
                request.headers().get(HttpHeaderNames.AUTHORIZATION),
                request.content().toString(StandardCharsets.UTF_8));
      } catch (RuntimeException e) {
        answer = CompletableFuture.completedFuture(ManagementApi.Answer.error(500, e.toString()));
      }
      answer.whenComplete(
          (done, error) -> {
            ManagementApi.Answer sent =
                error == null ? done : ManagementApi.Answer.error(500, error.toString());
            byte[] body = sent.body().getBytes(StandardCharsets.UTF_8);
            FullHttpResponse response =
                new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1,
                    HttpResponseStatus.valueOf(sent.status()),
                    Unpooled.wrappedBuffer(body));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, sent.contentType());
            HttpUtil.setContentLength(response, body.length);
            HttpUtil.setKeepAlive(response, keepAlive);
            var written = context.writeAndFlush(response);
            if (!keepAlive) {
              written.addListener(ChannelFutureListener.CLOSE);
            }
          });
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
      context.close();
    }
  }
}

package io.tern.engine.tls;

import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.tern.raft.tls.ReloadingCredentials;
import javax.net.ssl.SSLException;

/**
 * TLS on the gateway's port ({@code gateway.security.*}), optionally with client certificates
 * (mTLS) as a way to authenticate clients: with {@link ClientAuth#REQUIRE} a client without a
 * certificate chaining to {@code trustedCertificates} cannot connect at all.
 *
 * @param files the gateway's certificate chain and key, and the trusted client CAs if clients
 *     present certificates
 * @param clientAuth whether clients present certificates: none, optional or required
 */
public record GatewayTls(TlsFiles files, ClientAuth clientAuth) {
  /** 1.2 too: clients of every language and age connect here. */
  /** As between brokers (see {@link ClusterTls#SESSION_TIMEOUT_SECONDS}). */
  private static final long SESSION_TIMEOUT_SECONDS = ClusterTls.SESSION_TIMEOUT_SECONDS;

  private static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

  public GatewayTls {
    if (clientAuth != ClientAuth.NONE && files.trustedCertificates() == null) {
      throw new IllegalArgumentException(
          "gateway.security.trustedCertificatesPath: client certificates need the certificates"
              + " they must chain to");
    }
  }

  /** The gRPC server's context on reloading credentials; close them with the server. */
  public Server start() {
    ReloadingCredentials credentials = files.load();
    org.slf4j.LoggerFactory.getLogger(GatewayTls.class)
        .info(
            "gateway TLS with {}, client certificates {}",
            ReloadingCredentials.provider(),
            clientAuth == ClientAuth.REQUIRE
                ? "required"
                : clientAuth.name().toLowerCase(java.util.Locale.ROOT));
    try {
      SslContext context =
          GrpcSslContexts.configure(
                  credentials.forServer(clientAuth, ReloadingCredentials.provider()),
                  ReloadingCredentials.provider())
              .protocols(PROTOCOLS)
              .sessionTimeout(SESSION_TIMEOUT_SECONDS)
              .build();
      return new Server(context, credentials);
    } catch (SSLException e) {
      credentials.close();
      throw new IllegalArgumentException(
          "gateway.security: cannot build TLS from " + credentials + ": " + e.getMessage(), e);
    }
  }

  /** A built server context and the credentials it reads. */
  public record Server(SslContext context, ReloadingCredentials credentials)
      implements AutoCloseable {
    @Override
    public void close() {
      credentials.close();
    }
  }
}

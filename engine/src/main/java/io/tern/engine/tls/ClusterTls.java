package io.tern.engine.tls;

import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.tern.raft.tls.ReloadingCredentials;
import io.tern.raft.transport.TransportTls;
import javax.net.ssl.SSLException;

/**
 * Cluster TLS ({@code network.security.*}): one set of reloading credentials behind the command
 * API's server (client certificates required), the command API's clients in brokers and standalone
 * gateways (they present theirs and check the server's host name), and the Raft transport (which
 * checks each peer's certificate against the member id it claims).
 */
public final class ClusterTls implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ClusterTls.class);

  /** TLS 1.3 only: every party is Tern, and 1.3 saves a round trip per connection. */
  /**
   * A resumed session keeps the certificates of its first handshake: bounded, so that renewed
   * certificates and trust are used by every connection within minutes.
   */
  public static final long SESSION_TIMEOUT_SECONDS = 300;

  private static final String[] PROTOCOLS = {"TLSv1.3"};

  private final ReloadingCredentials credentials;
  private final SslContext server;
  private final SslContext client;

  private ClusterTls(ReloadingCredentials credentials) {
    this.credentials = credentials;
    LOG.info("cluster TLS with {} on the command API and Raft", ReloadingCredentials.provider());
    try {
      this.server =
          GrpcSslContexts.configure(
                  credentials.forServer(ClientAuth.REQUIRE, ReloadingCredentials.provider()),
                  ReloadingCredentials.provider())
              .protocols(PROTOCOLS)
              .sessionTimeout(SESSION_TIMEOUT_SECONDS)
              .build();
      this.client =
          GrpcSslContexts.configure(
                  credentials.forClient(ReloadingCredentials.provider()),
                  ReloadingCredentials.provider())
              .protocols(PROTOCOLS)
              .sessionTimeout(SESSION_TIMEOUT_SECONDS)
              // The contact point's host must be named by the broker's certificate.
              .endpointIdentificationAlgorithm("HTTPS")
              .build();
    } catch (SSLException e) {
      credentials.close();
      throw new IllegalArgumentException(
          "network.security: cannot build TLS from " + credentials + ": " + e.getMessage(), e);
    }
  }

  /** Reads {@code files} (an {@link IllegalArgumentException} names the setting and file). */
  public static ClusterTls load(TlsFiles files) {
    if (files.trustedCertificates() == null) {
      throw new IllegalArgumentException(
          "network.security.trustedCertificatesPath: cluster TLS needs the certificates peers"
              + " must chain to");
    }
    return new ClusterTls(files.load());
  }

  /** The command API server's context: a client must present a trusted certificate. */
  public SslContext commandApiServer() {
    return server;
  }

  /** The command API clients' context: present ours, check the broker's name and chain. */
  public SslContext commandApiClient() {
    return client;
  }

  /** The Raft transport's TLS, on the same credentials. */
  public TransportTls raft() {
    return new TransportTls(credentials);
  }

  @Override
  public void close() {
    credentials.close();
  }
}

package io.tern.raft.transport;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.tern.raft.tls.ReloadingCredentials;
import javax.net.ssl.SSLException;

/**
 * The client and server TLS contexts of one transport, built once on {@link TransportTls}'
 * reloading credentials (so they serve rotated certificates without being rebuilt).
 *
 * <p>BoringSSL where netty-tcnative is on the class path (the broker's), else the JDK's engine:
 * every Raft append crosses this encryption, and the JDK engine cost a three-broker cluster about a
 * quarter of its throughput. Certificates are still checked by the Java trust manager of the
 * reloading credentials, so a refused handshake names its cause (an expired certificate, an unknown
 * CA) with either provider.
 */
record TlsContexts(SslContext server, SslContext client) {
  /** TLS 1.3 only: every JDK from 17 has it, and it needs one round trip less than 1.2. */
  private static final String[] PROTOCOLS = {"TLSv1.3"};

  static TlsContexts create(TransportTls tls) {
    try {
      SslContext server =
          tls.credentials()
              .forServer(ClientAuth.REQUIRE, ReloadingCredentials.provider())
              .protocols(PROTOCOLS)
              .build();
      SslContext client =
          tls.credentials()
              .forClient(ReloadingCredentials.provider())
              .protocols(PROTOCOLS)
              // Host names are checked after the handshake against the member id the peer
              // claims, on both sides, with one log line that names both (HandshakeHandler).
              .endpointIdentificationAlgorithm(null)
              .build();
      return new TlsContexts(server, client);
    } catch (SSLException e) {
      throw new IllegalArgumentException(
          "raft transport config: cannot use TLS with " + tls.credentials() + ": " + e.getMessage(),
          e);
    }
  }
}

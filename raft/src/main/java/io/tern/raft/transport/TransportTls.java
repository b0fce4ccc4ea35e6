package io.tern.raft.transport;

import io.tern.raft.tls.ReloadingCredentials;

/**
 * Mutual TLS between brokers. Each side presents its certificate chain and accepts a peer only if
 * the peer's certificate chains to the trusted certificates of {@code credentials}, is valid now,
 * and has a subject alternative name (DNS or IP) naming the address this broker knows the peer's
 * member id by: a certificate issued to one broker cannot be used to join as another. The
 * credentials are read again when their files change; new connections use the new ones.
 */
public record TransportTls(ReloadingCredentials credentials) {
  public TransportTls {
    if (credentials == null || credentials.trustManager() == null) {
      throw new IllegalArgumentException(
          "raft transport config: TLS needs a certificate chain, a private key and the trusted"
              + " certificates");
    }
  }
}

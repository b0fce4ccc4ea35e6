package io.tern.raft.transport;

import java.nio.file.Path;

/**
 * Mutual TLS between brokers. Each side presents {@code certificateChain} (PEM, its own certificate
 * first) with {@code privateKey} (PEM, PKCS#8, unencrypted) and accepts a peer only if the peer's
 * certificate chains to one of {@code trustedCertificates} (PEM).
 *
 * <p>What it protects: only holders of a certificate that chains to the trusted ones can connect at
 * all. What it does not: certificates are not tied to member ids and host names are not checked
 * (brokers are dialled by pod IPs or service names; the Raft handshake that follows names the
 * member), so any such holder may claim any member id. Trust a CA that issues certificates to this
 * cluster's brokers only, never a shared or public one. Files are read when the transport is built:
 * renewed certificates take effect at the next restart.
 */
public record TransportTls(Path certificateChain, Path privateKey, Path trustedCertificates) {
  public TransportTls {
    if (certificateChain == null || privateKey == null || trustedCertificates == null) {
      throw new IllegalArgumentException(
          "raft transport config: TLS needs a certificate chain, a private key and the trusted"
              + " certificates");
    }
  }
}

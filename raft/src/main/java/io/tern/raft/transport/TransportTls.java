package io.tern.raft.transport;

import java.nio.file.Path;

/**
 * Mutual TLS between brokers. Each side presents {@code certificateChain} (PEM, its own certificate
 * first) with {@code privateKey} (PEM, PKCS#8, unencrypted) and accepts a peer only if the peer's
 * certificate chains to one of {@code trustedCertificates} (PEM). Host names are not checked: a
 * broker is identified by its member id in the Raft handshake, which follows the TLS handshake, and
 * the certificates prove it belongs to the cluster.
 *
 * @param trustedCertificates the certificates to trust; the chain itself when null, which suits a
 *     cluster sharing one certificate or a chain whose last certificate is the cluster's CA
 */
public record TransportTls(Path certificateChain, Path privateKey, Path trustedCertificates) {
  public TransportTls {
    if (certificateChain == null || privateKey == null) {
      throw new IllegalArgumentException(
          "raft transport config: TLS needs a certificate chain and a private key");
    }
    if (trustedCertificates == null) {
      trustedCertificates = certificateChain;
    }
  }
}

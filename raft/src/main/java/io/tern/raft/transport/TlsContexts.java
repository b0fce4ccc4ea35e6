package io.tern.raft.transport;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.net.ssl.SSLException;

/** The client and server TLS contexts of one transport, built once from {@link TransportTls}. */
record TlsContexts(SslContext server, SslContext client) {
  /** TLS 1.3 only: every JDK from 17 has it, and it needs one round trip less than 1.2. */
  private static final String[] PROTOCOLS = {"TLSv1.3"};

  static TlsContexts create(TransportTls tls) {
    requireReadable(tls.certificateChain(), "certificate chain");
    requireReadable(tls.privateKey(), "private key");
    requireReadable(tls.trustedCertificates(), "trusted certificates");
    try {
      SslContext server =
          SslContextBuilder.forServer(tls.certificateChain().toFile(), tls.privateKey().toFile())
              .sslProvider(SslProvider.JDK)
              .protocols(PROTOCOLS)
              .trustManager(tls.trustedCertificates().toFile())
              .clientAuth(ClientAuth.REQUIRE)
              .build();
      SslContext client =
          SslContextBuilder.forClient()
              .sslProvider(SslProvider.JDK)
              .protocols(PROTOCOLS)
              .keyManager(tls.certificateChain().toFile(), tls.privateKey().toFile())
              .trustManager(tls.trustedCertificates().toFile())
              // Brokers are dialled by whatever address the cluster gave (pod IPs, service
              // names); trust comes from the certificates, identity from the Raft handshake.
              .endpointIdentificationAlgorithm(null)
              .build();
      return new TlsContexts(server, client);
    } catch (SSLException | IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "raft transport config: cannot use TLS certificate chain "
              + tls.certificateChain()
              + ", private key "
              + tls.privateKey()
              + " and trusted certificates "
              + tls.trustedCertificates()
              + " (PEM files; the key unencrypted PKCS#8): "
              + e.getMessage(),
          e);
    }
  }

  private static void requireReadable(Path file, String what) {
    if (!Files.isReadable(file)) {
      throw new IllegalArgumentException(
          "raft transport config: TLS " + what + " " + file + " is not a readable file");
    }
  }
}

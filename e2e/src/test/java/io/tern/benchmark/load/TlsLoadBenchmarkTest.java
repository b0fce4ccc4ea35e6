package io.tern.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * --tls: the load benchmark secures its local brokers with a throwaway CA (gateway TLS and cluster
 * TLS) and its client speaks TLS trusting that CA; with --oauth too, everything issue 44 secures is
 * on at once, the run a plaintext one is compared with.
 */
@Tag("slow") // the load benchmark end to end, over TLS: docs/testing.md
class TlsLoadBenchmarkTest {
  @TempDir Path dir;

  @Test
  void aShortRunWithTlsAndOAuthCompletesInstancesAndLeavesNoKeys() throws Exception {
    MockOAuth2Server issuer = MockIssuers.start();
    try {
      Path secret = Files.writeString(dir.resolve("secret"), "benchmark-secret\n");
      Path data = dir.resolve("data");
      Path out = dir.resolve("load.json");
      List<String> args =
          new ArrayList<>(
              List.of(
                  "--tls",
                  "--warmup",
                  "2",
                  "--duration",
                  "3",
                  "--in-flight",
                  "4",
                  "--dir",
                  data.toString(),
                  "--out",
                  out.toString()));
      args.addAll(MockIssuers.oauthOptions(issuer, secret));
      // The brokers of parallel tests each take a free REST port, not 8080.
      args.addAll(List.of("--set", "gateway.rest.port=0"));
      int exit = LoadBenchmark.run(args.toArray(String[]::new));

      // The client dials https with only the run's CA trusted: a plaintext gateway, or one whose
      // certificate that CA did not sign, completes nothing.
      assertThat(exit).as("no instance failed").isZero();
      assertThat(Files.readString(out))
          .contains("\"tls\": true", "\"oauth\": true", "\"failedInstances\": 0")
          .doesNotContain("\"completedInstances\": 0,");
      try (var left = Files.list(data)) {
        assertThat(left).as("the run's data and keys are removed").isEmpty();
      }
    } finally {
      issuer.shutdown();
    }
  }

  @Test
  void theThrowawayCaSignsCertificatesForLoopbackWhoseKeysOnlyTheUserReads() throws Exception {
    LocalPki pki = LocalPki.create(dir.resolve("tls"), 3);

    X509Certificate ca = certificates(pki.caCertificate()).get(0);
    List<X509Certificate> chain = certificates(dir.resolve("tls/broker-2.crt"));
    assertThat(chain).hasSize(2).element(1).isEqualTo(ca);
    chain.get(0).verify(ca.getPublicKey()); // throws unless the CA signed it
    assertThat(chain.get(0).getSubjectAlternativeNames())
        .contains(List.of(7, "127.0.0.1"), List.of(2, "localhost"));
    assertThat(Files.getPosixFilePermissions(dir.resolve("tls/broker-2.key")))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(pki.brokerSettings())
        .containsEntry("TERN_GATEWAY_SECURITY_ENABLED", "true")
        .containsEntry("TERN_NETWORK_SECURITY_ENABLED", "true")
        .containsEntry(
            "TERN_NETWORK_SECURITY_PRIVATEKEYPATH",
            dir.resolve("tls/broker-{node}.key").toString());
  }

  @SuppressWarnings("unchecked")
  private static List<X509Certificate> certificates(Path pem) throws Exception {
    try (InputStream in = Files.newInputStream(pem)) {
      return (List<X509Certificate>)
          (List<?>) List.copyOf(CertificateFactory.getInstance("X.509").generateCertificates(in));
    }
  }
}

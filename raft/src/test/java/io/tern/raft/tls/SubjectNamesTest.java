package io.tern.raft.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SubjectNamesTest {
  @TempDir Path dir;

  private X509Certificate issue(String... sans) throws Exception {
    TestPki.Issued issued = new TestPki(dir, "ca").issue("peer", sans);
    try (InputStream in = Files.newInputStream(issued.chain())) {
      return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
    }
  }

  @Test
  void dnsNamesMatchExactlyOrByOneLeftmostWildcardLabel() throws Exception {
    X509Certificate certificate = issue("tern-broker-0.tern.ns.svc", "*.tern-broker.ns.svc");
    assertThat(SubjectNames.matches(certificate, "TERN-broker-0.tern.ns.svc.")).isTrue();
    assertThat(SubjectNames.matches(certificate, "tern-broker-1.tern-broker.ns.svc")).isTrue();
    assertThat(SubjectNames.matches(certificate, "a.b.tern-broker.ns.svc")).isFalse();
    assertThat(SubjectNames.matches(certificate, "tern-broker-1.tern.ns.svc")).isFalse();
    assertThat(SubjectNames.of(certificate))
        .containsExactly("DNS:tern-broker-0.tern.ns.svc", "DNS:*.tern-broker.ns.svc");
  }

  @Test
  void ipLiteralsMatchIpNamesOnly() throws Exception {
    X509Certificate certificate = issue("10.0.0.7", "::1", "localhost");
    assertThat(SubjectNames.matches(certificate, "10.0.0.7")).isTrue();
    assertThat(SubjectNames.matches(certificate, "0:0:0:0:0:0:0:1")).isTrue();
    assertThat(SubjectNames.matches(certificate, "10.0.0.8")).isFalse();
    assertThat(SubjectNames.matches(certificate, "127.0.0.1")).isFalse();
    assertThat(SubjectNames.matches(certificate, "localhost")).isTrue();
    assertThat(SubjectNames.matches(issue(), "localhost")).isFalse();
  }
}

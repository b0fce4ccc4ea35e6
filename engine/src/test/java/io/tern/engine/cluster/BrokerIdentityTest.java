package io.tern.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who counts as a broker on the command API: by certificate names, or by address. */
@Tag("slow") // runs keytool processes to make its certificates: docs/testing.md
class BrokerIdentityTest {
  private static final Set<String> BROKERS =
      Set.of("tern-0.tern.default.svc", "tern-1.tern.default.svc", "10.0.0.9");

  @TempDir Path dir;

  /** A self-signed certificate with these subject alternative names, made by the JDK's keytool. */
  private X509Certificate certificate(String alias, String sans) throws Exception {
    Path store = dir.resolve(alias + ".p12");
    List<String> command =
        new ArrayList<>(
            List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair",
                "-alias",
                alias,
                "-keyalg",
                "EC",
                "-dname",
                "CN=" + alias,
                "-validity",
                "1",
                "-storetype",
                "PKCS12",
                "-keystore",
                store.toString(),
                "-storepass",
                "changeit"));
    if (!sans.isEmpty()) {
      command.add("-ext");
      command.add("SAN=" + sans);
    }
    Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(keytool.getInputStream().readAllBytes());
    assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(keytool.exitValue()).as(output).isZero();
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, "changeit".toCharArray());
    }
    return (X509Certificate) keys.getCertificate(alias);
  }

  @Test
  void aCertificateIsABrokersWhenOneOfItsNamesIsABrokersHost() throws Exception {
    BrokerIdentity identity = new BrokerIdentity(() -> BROKERS);
    assertThat(
            identity.namesBroker(
                certificate("exact", "dns:other.example,dns:TERN-1.tern.default.svc")))
        .isTrue();
    assertThat(identity.namesBroker(certificate("wildcard", "dns:*.tern.default.svc"))).isTrue();
    assertThat(identity.namesBroker(certificate("ip", "ip:10.0.0.9"))).isTrue();

    // A gateway's certificate names the gateway (a wildcard covers one label only, and an IP is
    // matched by IP SANs only); a certificate without SANs names nobody, even when its common name
    // is a broker's host, as TLS host checks look at SANs only.
    assertThat(
            identity.namesBroker(
                certificate(
                    "gateway",
                    "dns:tern-gateway.default.svc,dns:*.default.svc,ip:10.0.0.10,dns:10.0.0.9")))
        .isFalse();
    assertThat(identity.namesBroker(certificate("tern-0.tern.default.svc", ""))).isFalse();
  }

  @Test
  void withoutTlsTheCallersAddressMustBeOneABrokersNameResolvesTo() throws Exception {
    Map<String, String> dns = new HashMap<>(Map.of("tern-0", "10.1.0.1", "tern-1", "10.1.0.2"));
    AtomicLong lookups = new AtomicLong();
    AtomicLong nowNs = new AtomicLong();
    BrokerIdentity identity =
        new BrokerIdentity(
            () -> Set.of("tern-0", "tern-1", "tern-2"),
            host -> {
              lookups.incrementAndGet();
              String address = dns.get(host);
              if (address == null) {
                throw new UnknownHostException(host); // tern-2 not in DNS yet
              }
              return new InetAddress[] {InetAddress.getByName(address)};
            },
            nowNs::get);

    assertThat(identity.isBroker(from("10.1.0.1"), null)).isTrue();
    assertThat(identity.isBroker(from("10.1.0.2"), null)).isTrue();
    long afterFirst = lookups.get();
    assertThat(afterFirst).isEqualTo(3);

    // A stranger's calls do not resolve the names again and again.
    for (int i = 0; i < 100; i++) {
      assertThat(identity.isBroker(from("10.9.9.9"), null)).isFalse();
    }
    assertThat(lookups.get()).isEqualTo(afterFirst);

    // tern-1 restarts with a new address, which the old one no longer stands for; tern-2 appears.
    dns.put("tern-1", "10.1.0.22");
    dns.put("tern-2", "10.1.0.3");
    assertThat(identity.isBroker(from("10.1.0.22"), null)).isFalse(); // resolved a moment ago
    nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(BrokerIdentity.RESOLVE_INTERVAL_MS));
    assertThat(identity.isBroker(from("10.1.0.22"), null)).isTrue();
    assertThat(identity.isBroker(from("10.1.0.3"), null)).isTrue();
    nowNs.addAndGet(TimeUnit.MILLISECONDS.toNanos(BrokerIdentity.RESOLVE_INTERVAL_MS));
    assertThat(identity.isBroker(from("10.1.0.2"), null)).isFalse();
  }

  private static InetSocketAddress from(String address) throws UnknownHostException {
    return new InetSocketAddress(InetAddress.getByName(address), 40_000);
  }
}

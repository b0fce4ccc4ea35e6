package io.tern.raft.transport;

import static io.tern.raft.transport.Inbox.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.TimeoutNow;
import io.tern.raft.tls.PemFile;
import io.tern.raft.tls.ReloadingCredentials;
import io.tern.raft.tls.TestPki;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mutual TLS between brokers: only peers with a trusted certificate get through. */
class TlsTransportTest {
  @TempDir static Path certificates;
  private static TestPki clusterCa;
  private static TransportTls cluster;
  private static TransportTls stranger;

  private final List<NettyRaftTransport> transports = new ArrayList<>();
  private final Map<NettyRaftTransport, SimpleMeterRegistry> registries = new HashMap<>();

  @BeforeAll
  static void makeCertificates() throws Exception {
    clusterCa = new TestPki(certificates, "cluster");
    cluster = tls(clusterCa.issue("broker", "127.0.0.1"), clusterCa.caCertificate());
    TestPki strangers = new TestPki(certificates, "stranger");
    stranger = tls(strangers.issue("stranger", "127.0.0.1"), strangers.caCertificate());
  }

  /** A broker's TLS settings: these files, trusting {@code trusted}, not reloaded. */
  static TransportTls tls(TestPki.Issued issued, Path trusted) {
    return new TransportTls(
        ReloadingCredentials.load(
            new PemFile("chain", issued.chain()),
            new PemFile("key", issued.key()),
            new PemFile("trust", trusted),
            Duration.ZERO));
  }

  @AfterEach
  void closeAll() {
    transports.forEach(NettyRaftTransport::close);
  }

  private NettyRaftTransport start(int memberId, Inbox inbox, TransportTls tls) {
    return start(memberId, inbox, tls, 2_000);
  }

  private NettyRaftTransport start(
      int memberId, Inbox inbox, TransportTls tls, long connectTimeoutMs) {
    TransportConfig config =
        TransportConfig.builder(memberId)
            .bind("127.0.0.1", 0)
            .reconnectBackoffMs(10, 100)
            .connectTimeoutMs(connectTimeoutMs)
            .tls(tls)
            .build();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    NettyRaftTransport transport = new NettyRaftTransport(config, registry, Tags.empty());
    transport.setReceiver(inbox);
    transports.add(transport);
    registries.put(transport, registry);
    return transport.start();
  }

  private double refused(NettyRaftTransport transport, String reason) {
    Counter counter =
        registries
            .get(transport)
            .find("tern.raft.transport.connections.refused")
            .tag("reason", reason)
            .counter();
    return counter == null ? 0 : counter.count();
  }

  private static void connect(NettyRaftTransport lower, NettyRaftTransport higher) {
    lower.addPeer(higher.localMemberId(), higher.boundAddress());
    higher.addPeer(lower.localMemberId(), lower.boundAddress());
  }

  @Test
  void brokersSharingTheClusterCertificateExchangeMessagesBothWays() throws Exception {
    Inbox inbox1 = new Inbox();
    Inbox inbox2 = new Inbox();
    NettyRaftTransport one = start(1, inbox1, cluster);
    NettyRaftTransport two = start(2, inbox2, cluster);
    connect(one, two);

    byte[] payload = new byte[100_000]; // several TLS records
    payload[99_999] = 7;
    assertThat(
            one.send(
                3,
                new AppendRequest(
                    1,
                    2,
                    1,
                    0,
                    0,
                    List.of(new RaftEntry(1, 1, RaftEntry.Type.APPLICATION, 1, payload)),
                    0)))
        .isTrue();
    assertThat(two.send(3, new TimeoutNow(2, 1, 5))).isTrue();

    Envelope atTwo = inbox2.take();
    assertThat(((AppendRequest) atTwo.message()).entries().get(0).data()).isEqualTo(payload);
    assertThat(inbox1.take().message()).isEqualTo(new TimeoutNow(2, 1, 5));
    assertThat(refused(one, "tls") + refused(two, "tls")).isZero();
  }

  @Test
  void aPeerWithAnUntrustedCertificateIsRefused() throws Exception {
    Inbox inbox2 = new Inbox();
    NettyRaftTransport one = start(1, new Inbox(), stranger);
    NettyRaftTransport two = start(2, inbox2, cluster);
    connect(one, two);
    one.send(3, new TimeoutNow(1, 2, 5));

    await("the handshake refused", () -> refused(one, "tls") + refused(two, "tls") > 0);
    assertThat(inbox2.drain(Duration.ofMillis(300))).isEmpty();
    assertThat(one.isConnected(2)).isFalse();
  }

  /**
   * The accepting side checks the dialler's certificate too: trusting the cluster is not enough.
   */
  @Test
  void aDiallerThatTrustsTheClusterButHoldsNoClusterCertificateIsRefused() throws Exception {
    Inbox inbox2 = new Inbox();
    TransportTls impostor =
        tls(
            new TestPki(certificates, "impostor").issue("impostor", "127.0.0.1"),
            clusterCa.caCertificate());
    NettyRaftTransport one = start(1, new Inbox(), impostor);
    NettyRaftTransport two = start(2, inbox2, cluster);
    connect(one, two);
    one.send(3, new TimeoutNow(1, 2, 5));

    await("the accepting side refuses the certificate", () -> refused(two, "tls") > 0);
    assertThat(inbox2.drain(Duration.ofMillis(300))).isEmpty();
  }

  @Test
  void aPlainPeerAndATlsPeerDoNotConnectInEitherRole() throws Exception {
    // Member 1 connects. First the plain one dials the TLS one, then the other way round.
    Inbox tlsInbox = new Inbox();
    NettyRaftTransport plain = start(1, new Inbox(), null);
    NettyRaftTransport secure = start(2, tlsInbox, cluster);
    connect(plain, secure);
    plain.send(3, new TimeoutNow(1, 2, 5));
    await("the TLS side refuses plain bytes", () -> refused(secure, "tls") > 0);
    assertThat(tlsInbox.drain(Duration.ofMillis(300))).isEmpty();

    Inbox plainInbox = new Inbox();
    NettyRaftTransport secureLow = start(3, new Inbox(), cluster);
    NettyRaftTransport plainHigh = start(4, plainInbox, null);
    connect(secureLow, plainHigh);
    secureLow.send(3, new TimeoutNow(3, 4, 5));
    await("the plain side refuses a TLS hello", () -> refused(plainHigh, "too_large") > 0);
    assertThat(plainInbox.drain(Duration.ofMillis(300))).isEmpty();
  }

  /** Health probes and scanners connect and close: that is no TLS failure and no refusal. */
  @Test
  void aPlainConnectAndCloseIsNeitherLoggedNorCountedAsATlsFailure() throws Exception {
    // A short handshake timeout, so that the wait below outlasts it: a probe's timeout that its
    // close did not cancel would be counted as a "timeout" refusal.
    NettyRaftTransport secure = start(2, new Inbox(), cluster, 200);
    for (int i = 0; i < 3; i++) {
      try (java.net.Socket probe = new java.net.Socket()) {
        probe.connect(secure.boundAddress(), 2_000);
      }
    }
    // No refusal is counted, before or after the timeout is due: checked throughout 500 ms.
    org.awaitility.Awaitility.await("no refusal counted")
        .during(Duration.ofMillis(500))
        .atMost(Duration.ofSeconds(5))
        .pollInterval(Duration.ofMillis(10))
        .until(() -> refused(secure, "tls") == 0 && refused(secure, "timeout") == 0);
  }

  /**
   * A certificate from the cluster's CA issued for another address cannot join as a member known at
   * 127.0.0.1, in either role: the dialler checks whom it reached, the acceptor who dialled.
   */
  @Test
  void aCertificateNamingAnotherAddressIsRefusedInEitherRole() throws Exception {
    TransportTls elsewhere =
        tls(
            clusterCa.issue("elsewhere", "broker-9.example", "10.9.9.9"),
            clusterCa.caCertificate());
    Inbox inbox2 = new Inbox();
    NettyRaftTransport wrongDialler = start(1, new Inbox(), elsewhere);
    NettyRaftTransport two = start(2, inbox2, cluster);
    connect(wrongDialler, two);
    try (CapturedLog log = new CapturedLog()) {
      wrongDialler.send(3, new TimeoutNow(1, 2, 5));
      await("the acceptor refuses the dialler's identity", () -> refused(two, "identity") > 0);
      await(
          "the acceptor's log says why",
          () ->
              log.text()
                  .contains(
                      "names [DNS:broker-9.example, IP:10.9.9.9], but member 1 is known here as"
                          + " '127.0.0.1'"));
    }
    assertThat(inbox2.drain(Duration.ofMillis(300))).isEmpty();

    Inbox inbox4 = new Inbox();
    NettyRaftTransport three = start(3, new Inbox(), cluster);
    NettyRaftTransport wrongAcceptor = start(4, inbox4, elsewhere);
    connect(three, wrongAcceptor);
    three.send(3, new TimeoutNow(3, 4, 5));
    await("the dialler refuses the acceptor's identity", () -> refused(three, "identity") > 0);
    assertThat(inbox4.drain(Duration.ofMillis(300))).isEmpty();
  }

  /**
   * cert-manager rewrites a Secret's files in place: a member whose certificate named the wrong
   * address gets through once its files hold a right one, without restarting either transport.
   */
  @Test
  void aCertificateFixedInPlaceIsUsedForTheNextConnectionWithoutARestart() throws Exception {
    Path files = certificates.resolve("rotating");
    java.nio.file.Files.createDirectories(files);
    TestPki.Issued misnamed = clusterCa.issue("misnamed", "10.9.9.9");
    TestPki.Issued right = clusterCa.issue("right", "127.0.0.1");
    Path chain = files.resolve("tls.crt");
    Path key = files.resolve("tls.key");
    TestPki.replace(misnamed.chain(), chain);
    TestPki.replace(misnamed.key(), key);
    ReloadingCredentials credentials =
        ReloadingCredentials.load(
            new PemFile("chain", chain),
            new PemFile("key", key),
            new PemFile("trust", clusterCa.caCertificate()),
            Duration.ofMillis(50));
    try {
      Inbox inbox2 = new Inbox();
      NettyRaftTransport one = start(1, new Inbox(), new TransportTls(credentials));
      NettyRaftTransport two = start(2, inbox2, cluster);
      connect(one, two);
      one.send(3, new TimeoutNow(1, 2, 5));
      await("the misnamed certificate refused", () -> refused(two, "identity") > 0);

      TestPki.replace(right.key(), key);
      TestPki.replace(right.chain(), chain);
      await(
          "a message through once the right certificate is in the files",
          () -> {
            one.send(3, new TimeoutNow(1, 2, 6));
            try {
              return !inbox2.drain(Duration.ofMillis(100)).isEmpty();
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
          });
      assertThat(credentials.certificate().getSerialNumber()).isEqualTo(right.serial());
    } finally {
      credentials.close();
    }
  }

  @Test
  void anExpiredCertificateIsRefused() throws Exception {
    Instant now = Instant.now();
    TransportTls expired =
        tls(
            clusterCa.issue(
                "expired",
                now.minus(Duration.ofDays(3)),
                now.minus(Duration.ofDays(1)),
                "127.0.0.1"),
            clusterCa.caCertificate());
    Inbox inbox2 = new Inbox();
    NettyRaftTransport one = start(1, new Inbox(), expired);
    NettyRaftTransport two = start(2, inbox2, cluster);
    connect(one, two);
    try (CapturedLog log = new CapturedLog()) {
      one.send(3, new TimeoutNow(1, 2, 5));
      await("the acceptor refuses the expired certificate", () -> refused(two, "tls") > 0);
      await("the log says why", () -> log.text().contains("CertificateExpiredException"));
    }
    assertThat(inbox2.drain(Duration.ofMillis(300))).isEmpty();
  }

  @Test
  void credentialsWithoutTrustedCertificatesAreRefusedForTheTransport() throws Exception {
    TestPki.Issued broker = clusterCa.issue("untrusting", "127.0.0.1");
    ReloadingCredentials noTrust =
        ReloadingCredentials.load(
            new PemFile("chain", broker.chain()),
            new PemFile("key", broker.key()),
            null,
            Duration.ZERO);
    assertThatThrownBy(() -> new TransportTls(noTrust))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("trusted certificates");
  }

  /**
   * What the transport logs meanwhile: slf4j-simple, the tests' binding, writes to whatever
   * System.err is at the time of each line.
   */
  private static final class CapturedLog implements AutoCloseable {
    private final java.io.PrintStream original = System.err;
    private final java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();

    CapturedLog() {
      System.setErr(
          new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
    }

    synchronized String text() {
      return captured.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
      System.setErr(original);
      original.print(text());
    }
  }
}

package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.BrokerInfo;
import io.tern.engine.tls.TestPki;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 44: with cluster TLS on, a broker with no certificate, a certificate of another CA, an
 * expired one, or one that does not name the address it claims, is refused by the others, and the
 * log says why. Nodes 0 and 1 run here, with cluster TLS, and lead partition 1 (replication factor
 * 3) between them; node 2, the stranger, is started as a process of its own for each case, so that
 * its log and theirs are apart: theirs is captured from log4j, its own is its output file.
 */
@Tag("slow") // a cluster over TLS, and a broker process per case: docs/testing.md
class ClusterTlsRefusalTest {
  private static final Duration REFUSED = Duration.ofSeconds(30);

  @TempDir static Path dir;
  private static TestPki ca;
  private static CapturedLog log;
  private static TestCluster cluster;

  /** Cluster TLS with {@code certificate}, trusting {@code trusted}'s CA. */
  private static Map<String, String> tls(TestPki trusted, TestPki.Issued certificate) {
    Map<String, String> settings = new HashMap<>();
    settings.put("TERN_NETWORK_SECURITY_ENABLED", "true");
    settings.put("TERN_NETWORK_SECURITY_CERTIFICATECHAINPATH", certificate.chain().toString());
    settings.put("TERN_NETWORK_SECURITY_PRIVATEKEYPATH", certificate.key().toString());
    settings.put(
        "TERN_NETWORK_SECURITY_TRUSTEDCERTIFICATESPATH", trusted.caCertificate().toString());
    return settings;
  }

  @BeforeAll
  static void startNodes0And1() throws Exception {
    log = CapturedLog.start();
    ca = new TestPki(dir, "cluster");
    cluster = new TestCluster(dir, 3, 1, 3, tls(ca, ca.issue("broker", "127.0.0.1"))).start(0, 1);
    cluster.awaitReady(Duration.ofSeconds(60));
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
    if (log != null) {
      log.close();
    }
  }

  @Test
  void aBrokerWithoutACertificateIsRefused() throws Exception {
    // Cluster TLS off: it has no certificate to present, and speaks plaintext.
    try (Stranger stranger = Stranger.start("plaintext", Map.of(), "127.0.0.1")) {
      List<String> refusals =
          stranger.awaitRefusedByNodes0And1("cluster TLS with the command API at " + stranger);
      assertThat(refusals.get(0))
          .contains("failed (NotSslRecordException: the broker answered without TLS)");
      stranger.assertNotJoined();
    }
  }

  @Test
  void aBrokerWithACertificateOfAnotherCaIsRefused() throws Exception {
    TestPki strangers = new TestPki(dir, "strangers");
    Map<String, String> own = tls(strangers, strangers.issue("other-ca", "127.0.0.1"));
    try (Stranger stranger = Stranger.start("other-ca", own, "127.0.0.1")) {
      List<String> refusals =
          stranger.awaitRefusedByNodes0And1("cluster TLS with the command API at " + stranger);
      assertThat(refusals.get(0))
          .contains("failed (")
          .contains("unable to find valid certification path");
      // It refuses them too, for the same reason: it trusts only its own CA.
      stranger.awaitInItsLog(
          "cluster TLS with the command API at 127.0.0.1:" + cluster.commandPort(0) + " failed (",
          "unable to find valid certification path");
      stranger.assertNotJoined();
    }
  }

  @Test
  void aBrokerWithAnExpiredCertificateIsRefused() throws Exception {
    Instant now = Instant.now();
    TestPki.Issued expired =
        ca.issue(
            "expired", now.minus(Duration.ofDays(3)), now.minus(Duration.ofDays(1)), "127.0.0.1");
    try (Stranger stranger = Stranger.start("expired", tls(ca, expired), "127.0.0.1")) {
      List<String> refusals =
          stranger.awaitRefusedByNodes0And1("cluster TLS with the command API at " + stranger);
      assertThat(refusals.get(0)).contains("failed (CertificateExpiredException: NotAfter: ");
      // Its own calls present the expired certificate, which nodes 0 and 1 refuse in the
      // handshake: it hears why in the TLS alert.
      stranger.awaitInItsLog(
          "cluster TLS with the command API at 127.0.0.1:" + cluster.commandPort(0) + " failed (",
          "CERTIFICATE_EXPIRED");
      stranger.awaitInItsLog("expired at", "peers will refuse it"); // and warned at its start
      stranger.assertNotJoined();
    }
  }

  @Test
  void aBrokerWhoseCertificateNamesAnotherHostIsRefusedAtTheCommandApi() throws Exception {
    TestPki.Issued elsewhere = ca.issue("elsewhere", "broker-9.example", "10.9.9.9");
    try (Stranger stranger = Stranger.start("elsewhere", tls(ca, elsewhere), "127.0.0.1")) {
      List<String> refusals =
          stranger.awaitRefusedByNodes0And1("cluster TLS with the command API at " + stranger);
      assertThat(refusals.get(0))
          .contains("No subject alternative names matching IP address 127.0.0.1 found");
      stranger.assertNotJoined();
    }
  }

  /**
   * Its certificate is good at the command API (it names 127.0.0.1, the contact point), but the
   * broker claims 127.0.0.2 as its address: Raft refuses the member, naming what the certificate
   * names and what the member is known as.
   */
  @Test
  void aBrokerClaimingAnAddressItsCertificateDoesNotNameIsRefusedByRaft() throws Exception {
    double before = refused(cluster.broker(0), "identity") + refused(cluster.broker(1), "identity");
    TestPki.Issued loopback = ca.issue("claims-another", "127.0.0.1");
    try (Stranger stranger = Stranger.start("claims-another", tls(ca, loopback), "127.0.0.2")) {
      List<String> refusals =
          stranger.awaitRefusedByNodes0And1("raft transport: refusing member 3");
      assertThat(refusals.get(0))
          .contains("its certificate (CN=claims-another")
          .contains("names [IP:127.0.0.1]")
          .contains("but member 3 is known here as '127.0.0.2'"); // Raft's member 3 is node 2
      assertThat(refused(cluster.broker(0), "identity") + refused(cluster.broker(1), "identity"))
          .as("identity refusals counted")
          .isGreaterThan(before);
      assertThat(stranger.commitIndex()).as("node 2 got no Raft entry").isZero();
    }
  }

  /** Node 2, as a process of its own with its own log file. */
  private static final class Stranger implements AutoCloseable {
    private final Process process;
    private final Path logFile;
    private final int managementPort;
    private final int mark;

    private Stranger(Process process, Path logFile, int managementPort, int mark) {
      this.process = process;
      this.logFile = logFile;
      this.managementPort = managementPort;
      this.mark = mark;
    }

    /** Starts node 2 with {@code security} settings, advertising {@code advertisedHost}. */
    static Stranger start(String name, Map<String, String> security, String advertisedHost)
        throws Exception {
      int[] ports = BrokerProcess.freePorts(2);
      Map<String, String> settings = new HashMap<>();
      settings.put("TERN_CLUSTER_NODEID", "2");
      settings.put("TERN_CLUSTER_CLUSTERSIZE", "3");
      settings.put("TERN_CLUSTER_PARTITIONSCOUNT", "1");
      settings.put("TERN_CLUSTER_REPLICATIONFACTOR", "3");
      settings.put("TERN_CLUSTER_CONTACTPOINTS", cluster.contactPoints());
      // All loopback addresses: 127.0.0.2 reaches it too.
      settings.put("TERN_NETWORK_HOST", "0.0.0.0");
      settings.put("TERN_NETWORK_ADVERTISEDHOST", advertisedHost);
      settings.put("TERN_NETWORK_COMMANDPORT", Integer.toString(cluster.commandPort(2)));
      settings.put("TERN_NETWORK_INTERNALPORT", Integer.toString(ports[0]));
      settings.put("TERN_GATEWAY_ENABLE", "false");
      settings.put("TERN_MANAGEMENT_PORT", Integer.toString(ports[1]));
      settings.put("TERN_DATA_DIRECTORY", dir.resolve("stranger-" + name).toString());
      settings.put("TERN_DATA_DISK_MINFREEBYTES", "0");
      settings.put("TERN_RAFT_ELECTIONTIMEOUTMS", "300");
      settings.put("TERN_RAFT_HEARTBEATINTERVALMS", "50");
      settings.put("TERN_MANAGEMENT_SECURITY_TOKEN", TestBrokers.MANAGEMENT_TOKEN);
      settings.putAll(security);
      int mark = log.mark();
      Path logFile = dir.resolve("stranger-" + name + ".log");
      return new Stranger(
          BrokerProcess.start(settings, logFile, "-Xmx256m"), logFile, ports[1], mark);
    }

    /** Its command address, as the contact points name it. */
    @Override
    public String toString() {
      return "127.0.0.1:" + cluster.commandPort(2);
    }

    /**
     * Waits until nodes 0 and 1 (this JVM's log) log {@code refusal} since it started: both, each
     * dials it.
     */
    List<String> awaitRefusedByNodes0And1(String refusal) {
      return Awaitility.await("nodes 0 and 1 to log: " + refusal)
          .atMost(REFUSED)
          .pollInterval(Duration.ofMillis(50))
          .until(
              () -> log.since(mark, line -> line.startsWith("WARN ") && line.contains(refusal)),
              lines -> lines.size() >= 2);
    }

    /**
     * Waits until its own log has a line with all of {@code parts}, in any case (TLS providers
     * spell alerts differently: {@code certificate_expired}, {@code CERTIFICATE_EXPIRED}).
     */
    void awaitInItsLog(String... parts) {
      Awaitility.await("node 2 to log: " + String.join(" ... ", parts))
          .atMost(REFUSED)
          .pollInterval(Duration.ofMillis(50))
          .until(
              () ->
                  Files.readAllLines(logFile).stream()
                      .map(line -> line.toUpperCase(java.util.Locale.ROOT))
                      .anyMatch(
                          line ->
                              List.of(parts).stream()
                                  .allMatch(
                                      part ->
                                          line.contains(part.toUpperCase(java.util.Locale.ROOT)))));
    }

    /**
     * Nodes 0 and 1 do not count it among the brokers (their gateways' topology), and it has no
     * Raft entry. Checked once the refusals are logged: by then it has tried to connect.
     */
    void assertNotJoined() throws Exception {
      try (CamundaClient client = TestBrokers.client(cluster.broker(0))) {
        assertThat(client.newTopologyRequest().send().join().getBrokers())
            .extracting(BrokerInfo::getNodeId)
            .containsExactlyInAnyOrder(0, 1);
      }
      assertThat(commitIndex()).as("node 2 got no Raft entry").isZero();
    }

    /** Its partition's commit index, from its management API (once it answers). */
    long commitIndex() {
      HttpClient http = HttpClient.newHttpClient();
      URI partitions = URI.create("http://127.0.0.1:" + managementPort + "/actuator/partitions");
      String[] body = new String[1];
      Awaitility.await("node 2's management API")
          .atMost(REFUSED)
          .ignoreExceptions()
          .until(
              () -> {
                HttpResponse<String> answer =
                    http.send(
                        HttpRequest.newBuilder(partitions).build(),
                        HttpResponse.BodyHandlers.ofString());
                body[0] = answer.body();
                return answer.statusCode() == 200 && body[0].contains("commitIndex");
              });
      Matcher commit = Pattern.compile("\"commitIndex\"\\s*:\\s*(\\d+)").matcher(body[0]);
      assertThat(commit.find()).as(body[0]).isTrue();
      return Long.parseLong(commit.group(1));
    }

    @Override
    public void close() throws Exception {
      // Its warnings, next to the test's output, for whoever reads a failure.
      Files.readAllLines(logFile).stream()
          .filter(line -> line.contains(" WARN "))
          .forEach(line -> System.out.println("node 2: " + line));
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    }
  }

  /** The refusals of the broker's Raft transport with {@code reason}, from its metrics. */
  private static double refused(Broker broker, String reason) throws Exception {
    HttpResponse<String> metrics =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:" + broker.managementPort() + "/actuator/prometheus"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    Matcher line =
        Pattern.compile(
                "tern_raft_transport_connections_refused_total\\{[^}]*reason=\""
                    + reason
                    + "\"[^}]*} ([0-9.E]+)")
            .matcher(metrics.body());
    double total = 0;
    while (line.find()) {
      total += Double.parseDouble(line.group(1));
    }
    return total;
  }
}

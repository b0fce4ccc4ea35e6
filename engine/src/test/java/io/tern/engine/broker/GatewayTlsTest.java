package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ProcessInstanceResult;
import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.TopologyRequest;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.SslContextBuilder;
import io.tern.engine.tls.TestPki;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS on the gateway (gateway.security.*), with and without client certificates, and HTTPS on the
 * management port: the official client over TLS, plaintext and untrusted clients refused, and a
 * renewed certificate served to new connections without a restart.
 */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class GatewayTlsTest {
  @TempDir Path dir;
  private TestPki ca;
  private TestPki.Issued gatewayCert;
  private Broker broker;

  @BeforeEach
  void issue() throws Exception {
    ca = new TestPki(dir, "clients");
    gatewayCert = ca.issue("gateway", "127.0.0.1", "localhost");
  }

  @AfterEach
  void close() {
    if (broker != null) {
      broker.close();
    }
  }

  private Broker start(Map<String, String> extra) {
    Map<String, String> settings = new HashMap<>();
    settings.put("TERN_GATEWAY_SECURITY_ENABLED", "true");
    settings.put("TERN_GATEWAY_SECURITY_CERTIFICATECHAINPATH", gatewayCert.chain().toString());
    settings.put("TERN_GATEWAY_SECURITY_PRIVATEKEYPATH", gatewayCert.key().toString());
    settings.put("TERN_SECURITY_CERTIFICATERELOADINTERVAL", "100ms");
    settings.putAll(extra);
    broker = Broker.start(TestBrokers.config(dir, settings));
    return broker;
  }

  private CamundaClient tlsClient(Path trusted) {
    return CamundaClient.newClientBuilder()
        .grpcAddress(URI.create("https://127.0.0.1:" + broker.gatewayPort()))
        .caCertificatePath(trusted.toString())
        .preferRestOverGrpc(false)
        .defaultRequestTimeout(Duration.ofSeconds(10))
        .build();
  }

  @Test
  void theOfficialClientCompletesAnInstanceOverTlsAndPlaintextOrUntrustingClientsAreRefused()
      throws Exception {
    start(Map.of());
    try (CamundaClient client = tlsClient(ca.caCertificate())) {
      Awaitility.await("a partition leader")
          .atMost(Duration.ofSeconds(15))
          .ignoreExceptions()
          .until(
              () ->
                  client
                      .newTopologyRequest()
                      .send()
                      .join()
                      .getBrokers()
                      .get(0)
                      .getPartitions()
                      .stream()
                      .anyMatch(partition -> partition.isLeader()));
      client
          .newDeployResourceCommand()
          .addResourceBytes(
              Bpmn.convertToString(
                      Bpmn.createExecutableProcess("secure").startEvent().endEvent().done())
                  .getBytes(StandardCharsets.UTF_8),
              "secure.bpmn")
          .send()
          .join();
      ProcessInstanceResult result =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("secure")
              .latestVersion()
              .variables(Map.of("over", "tls"))
              .withResult()
              .send()
              .join();
      assertThat(result.getVariablesAsMap()).containsEntry("over", "tls");
    }
    try (CamundaClient plaintext = TestBrokers.client(broker)) {
      assertThat(refusal(() -> plaintext.newTopologyRequest().send().join()))
          .isEqualTo(Status.Code.UNAVAILABLE);
    }
    TestPki strangers = new TestPki(dir, "strangers");
    try (CamundaClient untrusting = tlsClient(strangers.caCertificate())) {
      assertThat(refusal(() -> untrusting.newTopologyRequest().send().join()))
          .isEqualTo(Status.Code.UNAVAILABLE);
    }
  }

  @Test
  void withClientCertificatesRequiredOnlyAClientPresentingATrustedOneGetsAnAnswer()
      throws Exception {
    start(
        Map.of(
            "TERN_GATEWAY_SECURITY_CLIENTAUTH",
            "required",
            "TERN_GATEWAY_SECURITY_TRUSTEDCERTIFICATESPATH",
            ca.caCertificate().toString()));
    TestPki.Issued worker = ca.issue("worker-app");
    TestPki.Issued stranger = new TestPki(dir, "strangers").issue("stranger");

    assertThat(topologyStatus(null)).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(topologyStatus(stranger)).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(topologyStatus(worker)).isEqualTo(Status.Code.OK);
    // The official client has no client certificate option: without one it is refused too.
    try (CamundaClient client = tlsClient(ca.caCertificate())) {
      assertThat(
              refusal(
                  () ->
                      client
                          .newTopologyRequest()
                          .requestTimeout(Duration.ofSeconds(2))
                          .send()
                          .join()))
          .isEqualTo(Status.Code.UNAVAILABLE);
    }
  }

  /** The gRPC status {@code call} failed with (it must fail). */
  private static Status.Code refusal(Runnable call) {
    Throwable failure = org.assertj.core.api.Assertions.catchThrowable(call::run);
    assertThat(failure).as("the call is refused").isNotNull();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof StatusRuntimeException status) {
        return status.getStatus().getCode();
      }
    }
    throw new AssertionError("no gRPC status in " + failure, failure);
  }

  /** A Topology call over TLS, presenting {@code certificate} (null: none); its status. */
  private Status.Code topologyStatus(TestPki.Issued certificate) throws Exception {
    SslContextBuilder tls = GrpcSslContexts.forClient().trustManager(ca.caCertificate().toFile());
    if (certificate != null) {
      tls.keyManager(certificate.chain().toFile(), certificate.key().toFile());
    }
    ManagedChannel channel =
        NettyChannelBuilder.forAddress("127.0.0.1", broker.gatewayPort())
            .sslContext(tls.build())
            .build();
    try {
      GatewayGrpc.newBlockingStub(channel)
          .withDeadlineAfter(10, TimeUnit.SECONDS)
          .topology(TopologyRequest.getDefaultInstance());
      return Status.Code.OK;
    } catch (StatusRuntimeException e) {
      return e.getStatus().getCode();
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  void aRenewedGatewayCertificateServesNewConnectionsWithoutARestart() throws Exception {
    start(Map.of());
    assertThat(servedSerial(broker.gatewayPort())).isEqualTo(gatewayCert.serial());
    TestPki.Issued renewed = ca.issue("gateway-renewed", "127.0.0.1");

    TestPki.replace(renewed.key(), gatewayCert.key());
    TestPki.replace(renewed.chain(), gatewayCert.chain());

    Awaitility.await("the renewed certificate served")
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> servedSerial(broker.gatewayPort()), renewed.serial()::equals);
    try (CamundaClient client = tlsClient(ca.caCertificate())) {
      assertThat(client.newTopologyRequest().send().join().getBrokers()).hasSize(1);
    }
  }

  @Test
  void theManagementServerAnswersProbesOverHttps() throws Exception {
    TestPki.Issued management = ca.issue("management", "127.0.0.1");
    start(
        Map.of(
            "TERN_MANAGEMENT_SECURITY_TLS_ENABLED", "true",
            "TERN_MANAGEMENT_SECURITY_TLS_CERTIFICATECHAINPATH", management.chain().toString(),
            "TERN_MANAGEMENT_SECURITY_TLS_PRIVATEKEYPATH", management.key().toString()));
    HttpClient https = HttpClient.newBuilder().sslContext(trusting(ca.caCertificate())).build();
    HttpResponse<String> health =
        https.send(
            HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + broker.managementPort() + "/actuator/health"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isIn(200, 503);
    assertThat(servedSerial(broker.managementPort())).isEqualTo(management.serial());
    HttpClient plain = HttpClient.newHttpClient();
    assertThatThrownBy(
            () ->
                plain.send(
                    HttpRequest.newBuilder(
                            URI.create(
                                "http://127.0.0.1:" + broker.managementPort() + "/actuator/health"))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                    HttpResponse.BodyHandlers.ofString()))
        .isInstanceOf(java.io.IOException.class);
  }

  /** The serial of the certificate a new TLS connection to {@code port} is shown. */
  private BigInteger servedSerial(int port) throws Exception {
    try (SSLSocket socket =
        (SSLSocket)
            trusting(ca.caCertificate()).getSocketFactory().createSocket("127.0.0.1", port)) {
      SSLParameters parameters = socket.getSSLParameters();
      parameters.setApplicationProtocols(new String[] {"h2", "http/1.1"});
      socket.setSSLParameters(parameters);
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    }
  }

  private static SSLContext trusting(Path caFile) throws Exception {
    KeyStore trust = KeyStore.getInstance("PKCS12");
    trust.load(null, null);
    try (var in = java.nio.file.Files.newInputStream(caFile)) {
      trust.setCertificateEntry(
          "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(trust);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, factory.getTrustManagers(), null);
    return context;
  }
}

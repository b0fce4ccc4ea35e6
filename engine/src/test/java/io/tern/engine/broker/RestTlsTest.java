package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.tern.engine.tls.TestPki;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With gateway.security.enabled the REST API serves HTTPS with the gRPC port's certificate. */
@Tag("slow") // a broker end to end, through its REST port: docs/testing.md
class RestTlsTest {
  @TempDir static Path dir;
  private static TestPki ca;
  private static Broker broker;

  @BeforeAll
  static void start() throws Exception {
    ca = new TestPki(dir, "clients");
    TestPki.Issued certificate = ca.issue("gateway", "127.0.0.1", "localhost");
    broker =
        Broker.start(
            TestBrokers.config(
                dir,
                Map.of(
                    "TERN_GATEWAY_SECURITY_ENABLED", "true",
                    "TERN_GATEWAY_SECURITY_CERTIFICATECHAINPATH", certificate.chain().toString(),
                    "TERN_GATEWAY_SECURITY_PRIVATEKEYPATH", certificate.key().toString())));
    assertThat(broker.awaitReady(Duration.ofSeconds(30))).as("the partition elects").isTrue();
  }

  @AfterAll
  static void stop() {
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void theDefaultClientWorksOverHttpsAndPlainHttpIsRefused() {
    try (CamundaClient client =
        CamundaClient.newClientBuilder()
            .restAddress(URI.create("https://127.0.0.1:" + broker.restPort()))
            .grpcAddress(URI.create("https://127.0.0.1:" + broker.gatewayPort()))
            .caCertificatePath(ca.caCertificate().toString())
            .defaultRequestTimeout(Duration.ofSeconds(10))
            .build()) {
      client
          .newDeployResourceCommand()
          .addResourceBytes(
              Bpmn.convertToString(
                      Bpmn.createExecutableProcess("secure").startEvent().endEvent().done())
                  .getBytes(StandardCharsets.UTF_8),
              "secure.bpmn")
          .send()
          .join();
      assertThat(
              client
                  .newCreateInstanceCommand()
                  .bpmnProcessId("secure")
                  .latestVersion()
                  .variables(Map.of("over", "https"))
                  .withResult()
                  .send()
                  .join()
                  .getVariablesAsMap())
          .containsEntry("over", "https");
    }
    assertThatThrownBy(
            () ->
                HttpClient.newHttpClient()
                    .send(
                        HttpRequest.newBuilder(
                                URI.create(
                                    "http://127.0.0.1:" + broker.restPort() + "/v2/topology"))
                            .timeout(Duration.ofSeconds(5))
                            .build(),
                        HttpResponse.BodyHandlers.ofString()))
        .as("plain HTTP to the HTTPS port")
        .isInstanceOf(IOException.class);
  }
}

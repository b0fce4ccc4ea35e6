package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.camunda.client.CamundaClient;
import io.camunda.client.CredentialsProvider;
import io.camunda.client.api.command.ProblemException;
import io.camunda.client.api.response.DeploymentEvent;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.tern.engine.gateway.auth.TestIssuer;
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

/**
 * With gateway.security.authentication.mode oauth the REST API checks the same bearer tokens as the
 * gRPC port: without a good one a request is a 401 problem and nothing of it is written; with one
 * the 8.9 client's default builder works over REST.
 */
@Tag("slow") // a broker end to end, through its REST port: docs/testing.md
class RestAuthenticationTest {
  @TempDir static Path dir;
  private static TestIssuer issuer;
  private static Broker broker;

  @BeforeAll
  static void start() throws InterruptedException {
    issuer = new TestIssuer();
    broker =
        Broker.start(
            TestBrokers.config(
                dir,
                Map.of(
                    "TERN_GATEWAY_SECURITY_AUTHENTICATION_MODE",
                    "oauth",
                    "TERN_GATEWAY_SECURITY_AUTHENTICATION_OAUTH_ISSUERURI",
                    issuer.issuer())));
    assertThat(broker.awaitReady(Duration.ofSeconds(30))).as("the partition elects").isTrue();
  }

  @AfterAll
  static void stop() {
    if (broker != null) {
      broker.close();
    }
    if (issuer != null) {
      issuer.close();
    }
  }

  private static CamundaClient client(String token) {
    return CamundaClient.newClientBuilder()
        .restAddress(URI.create("http://127.0.0.1:" + broker.restPort()))
        .grpcAddress(URI.create("http://127.0.0.1:" + broker.gatewayPort()))
        .credentialsProvider(
            new CredentialsProvider() {
              @Override
              public void applyCredentials(CredentialsApplier applier) {
                if (token != null) {
                  applier.put("Authorization", "Bearer " + token);
                }
              }

              @Override
              public boolean shouldRetryRequest(StatusCode status) {
                return false;
              }
            })
        .defaultRequestTimeout(Duration.ofSeconds(10))
        .build();
  }

  private static byte[] process(String id) {
    return Bpmn.convertToString(Bpmn.createExecutableProcess(id).startEvent().endEvent().done())
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void withoutAGoodTokenARequestIsRefusedAndNothingIsWritten() throws Exception {
    long before = TestBrokers.committedRecords(broker);
    HttpResponse<String> refused =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            "http://127.0.0.1:" + broker.restPort() + "/v2/signals/broadcast"))
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"signalName\": \"go\"}"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(refused.statusCode()).isEqualTo(401);
    assertThat(refused.headers().firstValue("content-type")).hasValue("application/problem+json");
    JsonNode problem = new ObjectMapper().readTree(refused.body());
    assertThat(problem.get("title").asText()).isEqualTo("UNAUTHENTICATED");
    assertThat(problem.get("detail").asText()).contains("no bearer token");

    try (CamundaClient anonymous = client(null);
        CamundaClient forged = client(issuer.token("another-api", Duration.ofMinutes(5)))) {
      for (CamundaClient refusedClient : new CamundaClient[] {anonymous, forged}) {
        assertThatThrownBy(
                () ->
                    refusedClient
                        .newDeployResourceCommand()
                        .addResourceBytes(process("refused"), "refused.bpmn")
                        .send()
                        .join())
            .isInstanceOfSatisfying(
                ProblemException.class, e -> assertThat(e.details().getStatus()).isEqualTo(401));
      }
    }
    assertThat(TestBrokers.committedRecords(broker))
        .as("records in the partition's log")
        .isEqualTo(before);
  }

  @Test
  void withAGoodTokenTheDefaultClientWorksOverRest() {
    try (CamundaClient client = client(issuer.token())) {
      DeploymentEvent deployment =
          client
              .newDeployResourceCommand()
              .addResourceBytes(process("allowed"), "allowed.bpmn")
              .send()
              .join();
      assertThat(deployment.getProcesses().get(0).getBpmnProcessId()).isEqualTo("allowed");
      assertThat(
              client
                  .newCreateInstanceCommand()
                  .bpmnProcessId("allowed")
                  .latestVersion()
                  .withResult()
                  .send()
                  .join()
                  .getProcessInstanceKey())
          .isPositive();
      assertThat(client.newTopologyRequest().send().join().getBrokers()).hasSize(1);
    }
  }
}

package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.CredentialsProvider;
import io.camunda.client.api.command.ClientStatusException;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.response.DeploymentEvent;
import io.camunda.zeebe.client.ZeebeClient;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.grpc.Status;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.gateway.auth.TestIssuer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway with gateway.security.authentication.mode oauth, against a real OAuth server: the
 * official client's OAuthCredentialsProvider works unchanged, and calls without a good token are
 * refused before anything reaches the partition.
 */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class OAuthGatewayClientTest {
  @TempDir static Path dir;
  private static TestIssuer issuer;
  private static Broker broker;
  private static SimpleMeterRegistry registry = new SimpleMeterRegistry();

  @BeforeAll
  static void start() throws InterruptedException {
    issuer = new TestIssuer();
    BrokerConfig config =
        TestBrokers.config(
            dir,
            Map.of(
                "TERN_GATEWAY_SECURITY_AUTHENTICATION_MODE",
                "oauth",
                "TERN_GATEWAY_SECURITY_AUTHENTICATION_OAUTH_ISSUERURI",
                issuer.issuer()));
    broker = Broker.start(config, registry);
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

  private static CamundaClient client(CredentialsProvider credentials) {
    return clientOf(broker.gatewayPort(), credentials);
  }

  /** The official client's own OAuth flow: client_credentials at the issuer's token endpoint. */
  private static CredentialsProvider oauth(String clientId, String audience) {
    return CredentialsProvider.newCredentialsProviderBuilder()
        .authorizationServerUrl(issuer.tokenEndpoint().toString())
        .clientId(clientId)
        .clientSecret("secret-of-" + clientId)
        .audience(audience)
        // Its own cache file: the provider reuses a cached token of the same client id.
        .credentialsCachePath(dir.resolve("credentials-" + clientId).toString())
        .build();
  }

  /** Sends {@code token} as it is, or no authorization header when null. */
  private static CredentialsProvider fixed(String token) {
    return tokens(() -> token);
  }

  /** Sends the token {@code next} gives for each call (none for null). */
  private static CredentialsProvider tokens(Supplier<String> next) {
    return new CredentialsProvider() {
      @Override
      public void applyCredentials(CredentialsApplier applier) {
        String token = next.get();
        if (token != null) {
          applier.put("Authorization", "Bearer " + token);
        }
      }

      @Override
      public boolean shouldRetryRequest(StatusCode status) {
        return false;
      }
    };
  }

  private static byte[] oneTask(String processId, String jobType) {
    return Bpmn.convertToString(
            Bpmn.createExecutableProcess(processId)
                .startEvent()
                .serviceTask("task", t -> t.zeebeJobType(jobType))
                .endEvent()
                .done())
        .getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void theOfficialClientsOAuthCredentialsProviderDeploysCreatesAndCompletes() {
    try (CamundaClient client = client(oauth("tern-worker", TestIssuer.AUDIENCE))) {
      DeploymentEvent deployment =
          client
              .newDeployResourceCommand()
              .addResourceBytes(oneTask("secured", "secured-task"), "secured.bpmn")
              .send()
              .join();
      long instance =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("secured")
              .latestVersion()
              .send()
              .join()
              .getProcessInstanceKey();
      List<ActivatedJob> jobs =
          client
              .newActivateJobsCommand()
              .jobType("secured-task")
              .maxJobsToActivate(1)
              .requestTimeout(Duration.ofSeconds(5))
              .send()
              .join()
              .getJobs();
      assertThat(jobs).hasSize(1);
      assertThat(jobs.get(0).getProcessInstanceKey()).isEqualTo(instance);
      client.newCompleteCommand(jobs.get(0).getKey()).send().join();
      assertThat(deployment.getProcesses()).hasSize(1);
    }
  }

  @Test
  void theZeebeClientsOAuthCredentialsProviderWorksToo() {
    try (ZeebeClient client =
        ZeebeClient.newClientBuilder()
            .gatewayAddress("127.0.0.1:" + broker.gatewayPort())
            .usePlaintext()
            .credentialsProvider(
                io.camunda.zeebe.client.CredentialsProvider.newCredentialsProviderBuilder()
                    .authorizationServerUrl(issuer.tokenEndpoint().toString())
                    .clientId("zeebe-client")
                    .clientSecret("secret-of-zeebe-client")
                    .audience(TestIssuer.AUDIENCE)
                    .credentialsCachePath(dir.resolve("credentials-zeebe-client").toString())
                    .build())
            .defaultRequestTimeout(Duration.ofSeconds(10))
            .build()) {
      assertThat(client.newTopologyRequest().send().join().getPartitionsCount()).isEqualTo(1);
      assertThat(
              client
                  .newDeployResourceCommand()
                  .addResourceBytes(oneTask("secured-8-8", "secured-8-8-task"), "secured-8-8.bpmn")
                  .send()
                  .join()
                  .getProcesses())
          .hasSize(1);
    }
  }

  @Test
  void callsWithoutAGoodTokenAreUnauthenticatedAndWriteNothing() {
    String valid = issuer.token();
    Map<String, CredentialsProvider> refused =
        Map.of(
            "missing", fixed(null),
            "expired", fixed(issuer.token(TestIssuer.AUDIENCE, Duration.ofMinutes(-5))),
            "wrong audience", oauth("other-api-client", "another-api"),
            "wrong issuer",
                fixed(issuer.signedWithClaims(Map.of("iss", "http://evil.example/default"))),
            "badly signed", fixed(TestIssuer.resigned(valid, issuer.keyId())),
            "not yet valid",
                fixed(
                    issuer.signedWithClaims(
                        Map.of("nbf", new Date(System.currentTimeMillis() + 3_600_000)))));
    long recordsBefore = TestBrokers.committedRecords(broker);
    refused.forEach(
        (why, credentials) -> {
          try (CamundaClient client = client(credentials)) {
            assertThatThrownBy(
                    () ->
                        client
                            .newDeployResourceCommand()
                            .addResourceBytes(oneTask("refused", "refused-task"), "refused.bpmn")
                            .send()
                            .join(),
                    why)
                .isInstanceOfSatisfying(
                    ClientStatusException.class,
                    e -> {
                      assertThat(e.getStatusCode()).as(why).isEqualTo(Status.Code.UNAUTHENTICATED);
                      assertThat(e.getMessage()).as(why).doesNotContain(valid);
                    });
            assertThatThrownBy(
                    () -> client.newTopologyRequest().send().join(), why + ": topology too")
                .isInstanceOf(ClientStatusException.class);
          }
        });
    assertThat(TestBrokers.committedRecords(broker))
        .as("records in the partition's log")
        .isEqualTo(recordsBefore);
    assertThat(registry.get("tern.gateway.auth.refused").tag("reason", "missing").counter().count())
        .isGreaterThanOrEqualTo(2);
    assertThat(
            registry.get("tern.gateway.auth.refused").tag("reason", "audience").counter().count())
        .isGreaterThanOrEqualTo(1);
    // Refused calls are timed too, under their status: the request timer is outside the check.
    assertThat(
            registry
                .get("tern.gateway.request.latency")
                .tags("method", "DeployResource", "code", "UNAUTHENTICATED")
                .timer()
                .count())
        .isGreaterThanOrEqualTo(refused.size());
  }

  /**
   * A new token on every call, so that none is answered from the cache of verified tokens: each
   * signature is checked, with the key set fetched once.
   */
  @Test
  void manyCallsFetchTheIssuersKeysOnce() {
    int before = issuer.jwksRequests();
    try (CamundaClient client = client(tokens(issuer::token))) {
      for (int call = 0; call < 200; call++) {
        client.newTopologyRequest().send().join();
      }
    }
    // At most one: the first call of this class may have fetched them already.
    assertThat(issuer.jwksRequests() - before).isLessThanOrEqualTo(1);
    assertThat(registry.get("tern.gateway.auth.jwks.fetches").counter().count()).isEqualTo(1);
    assertThat(registry.get("tern.gateway.auth.verification").timer().count())
        .isGreaterThanOrEqualTo(200);
    assertThat(
            registry
                .get("tern.gateway.request.latency")
                .tags("method", "Topology", "code", "OK")
                .timer()
                .count())
        .isGreaterThanOrEqualTo(200);
  }

  @Test
  void aStandaloneGatewayChecksTokensToo() {
    Map<String, String> settings =
        Map.of(
            "TERN_CLUSTER_CONTACTPOINTS",
            "127.0.0.1:" + broker.commandPort(),
            "TERN_MANAGEMENT_ENABLE",
            "false",
            "TERN_GATEWAY_SECURITY_AUTHENTICATION_MODE",
            "oauth",
            "TERN_GATEWAY_SECURITY_AUTHENTICATION_OAUTH_ISSUERURI",
            issuer.issuer());
    try (StandaloneGateway gateway =
            StandaloneGateway.start(TestBrokers.config(dir.resolve("standalone"), settings));
        CamundaClient refused = clientOf(gateway.port(), fixed(null));
        CamundaClient allowed = clientOf(gateway.port(), fixed(issuer.token()))) {
      assertThatThrownBy(() -> refused.newTopologyRequest().send().join())
          .isInstanceOfSatisfying(
              ClientStatusException.class,
              e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
      assertThat(allowed.newTopologyRequest().send().join().getClusterSize()).isEqualTo(1);
    }
  }

  @Test
  void anIssuerThatCannotBeReachedStopsTheStartNamingTheKey() {
    Map<String, String> settings =
        Map.of(
            "TERN_CLUSTER_CONTACTPOINTS", "127.0.0.1:" + broker.commandPort(),
            "TERN_MANAGEMENT_ENABLE", "false",
            "TERN_GATEWAY_SECURITY_AUTHENTICATION_MODE", "oauth",
            // Port 1: nothing listens.
            "TERN_GATEWAY_SECURITY_AUTHENTICATION_OAUTH_ISSUERURI", "http://127.0.0.1:1/realm");
    assertThatThrownBy(
            () -> StandaloneGateway.start(TestBrokers.config(dir.resolve("unreachable"), settings)))
        .isInstanceOf(IllegalArgumentException.class) // GatewayMain: printed, exit code 2
        .hasMessageContaining("gateway.security.authentication.oauth.issuerUri")
        .hasMessageContaining("http://127.0.0.1:1/realm/.well-known/openid-configuration");
  }

  private static CamundaClient clientOf(int port, CredentialsProvider credentials) {
    return CamundaClient.newClientBuilder()
        .grpcAddress(URI.create("http://127.0.0.1:" + port))
        .preferRestOverGrpc(false)
        .credentialsProvider(credentials)
        .defaultRequestTimeout(Duration.ofSeconds(10))
        .build();
  }
}

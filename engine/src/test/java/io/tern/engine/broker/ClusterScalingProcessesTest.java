package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.camunda.client.CamundaClient;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three broker processes and a fourth started to be added; while instances are created through a
 * standalone gateway, the change to four brokers starts and the new broker is killed with SIGKILL
 * once it joined its first partition (the next join, of the same broker, is then in progress or
 * waiting for it). It restarts on its data and the change completes; nothing acknowledged is lost
 * and no create runs twice.
 */
@Tag("slow") // four broker processes, one killed with SIGKILL: docs/testing.md
class ClusterScalingProcessesTest {
  private static final Duration READY = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aBrokerKilledMidMoveComesBackAndTheChangeCompletes() throws Exception {
    try (BrokerProcesses brokers = new BrokerProcesses(dir, 3, 3, 3, Map.of(), 1)) {
      for (int node = 0; node < 4; node++) {
        brokers.start(node);
      }
      for (int node = 0; node < 4; node++) {
        brokers.awaitReady(node, READY);
      }
      BrokerConfig gatewayConfig = brokers.gatewayConfig(dir.resolve("gateway"));
      try (StandaloneGateway gateway = StandaloneGateway.start(gatewayConfig);
          CamundaClient client =
              CamundaClient.newClientBuilder()
                  .grpcAddress(URI.create("http://127.0.0.1:" + gateway.port()))
                  .preferRestOverGrpc(false)
                  .useDefaultRetryPolicy(true)
                  .defaultRequestTimeout(Duration.ofSeconds(15))
                  .build();
          InstanceTracker instances = new InstanceTracker(client)) {
        assertThat(gateway.awaitLeaders(READY)).isTrue();
        instances.create(30);
        CompletableFuture<Void> load = instances.createInBackground(300, Duration.ofMillis(30));

        JsonNode planned = change(brokers.managementPort(0), "[0, 1, 2, 3]");
        assertThat(ClusterScalingTest.operations(planned.get("plannedChanges")))
            .containsExactly(
                "PARTITION_JOIN 3 2",
                "PARTITION_LEAVE 0 2",
                "PARTITION_JOIN 3 3",
                "PARTITION_LEAVE 1 3");
        Awaitility.await("broker 3 joined partition 2")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(20))
            .until(() -> completedSteps(brokers.managementPort(0)) >= 1);
        brokers.kill(3);
        // Killed mid-change: broker 3's second join (partition 3) cannot have completed without it.
        JsonNode pending = get(brokers.managementPort(0)).get("pendingChange");
        assertThat(pending).as("the change is still under way after the kill").isNotNull();
        assertThat(ClusterScalingTest.operations(pending.get("pending")))
            .contains("PARTITION_JOIN 3 3");
        brokers.start(3);
        brokers.awaitReady(3, READY);
        long changeId = planned.get("changeId").asLong();
        Awaitility.await("change " + changeId + " completed")
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(200))
            .until(
                () -> {
                  JsonNode last = get(brokers.managementPort(0)).get("lastChange");
                  return last != null
                      && last.get("id").asLong() == changeId
                      && last.get("status").asText().equals("COMPLETED");
                });

        load.get(120, TimeUnit.SECONDS);
        instances.create(30);
        assertThat(instances.acknowledgedCount()).isGreaterThan(150);
        instances.assertEveryAcknowledgedInstanceCompleted(Duration.ofSeconds(120));
        instances.assertNoCreateRanTwice(Duration.ofSeconds(60));
        Awaitility.await("the gateway sees four brokers")
            .atMost(Duration.ofSeconds(30))
            .until(() -> client.newTopologyRequest().send().join().getClusterSize() == 4);
      }
    }
  }

  private static JsonNode change(int managementPort, String body) {
    JsonNode[] accepted = new JsonNode[1];
    Awaitility.await("change accepted")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              HttpResponse<String> answer =
                  ManagementCalls.send(
                      managementPort,
                      "POST",
                      "/actuator/cluster/brokers",
                      body,
                      TestBrokers.BEARER,
                      Duration.ofSeconds(10));
              if (answer.statusCode() == 202) {
                accepted[0] = JSON.readTree(answer.body());
                return true;
              }
              assertThat(answer.body()).as(answer.body()).contains("not known");
              return false;
            });
    return accepted[0];
  }

  private static int completedSteps(int managementPort) throws Exception {
    JsonNode topology = get(managementPort);
    JsonNode pending = topology.get("pendingChange");
    return pending == null ? Integer.MAX_VALUE : pending.get("completed").size();
  }

  private static JsonNode get(int managementPort) throws Exception {
    HttpResponse<String> answer =
        ManagementCalls.send(
            managementPort, "GET", "/actuator/cluster", null, null, Duration.ofSeconds(10));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return JSON.readTree(answer.body());
  }
}

package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ClientStatusException;
import io.grpc.Status;
import io.tern.engine.cluster.PartitionDistribution;
import io.tern.engine.record.Keys;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * experimental.network.*: latency injected between two of three brokers shows on the commands that
 * cross their link, both ways, and on no other; bad settings stop the start naming the key.
 */
@Tag("slow") // a three-broker cluster with injected latency: docs/testing.md
class InjectedLatencyTest {
  private static final long LATENCY_MS = 35;

  @TempDir Path dir;

  @Test
  void aCommandCrossingTheDelayedLinkPaysTheRoundTripOthersDoNot() throws Exception {
    Map<String, String> latency =
        Map.of(
            "TERN_EXPERIMENTAL_NETWORK_LATENCY",
            LATENCY_MS + "ms",
            "TERN_EXPERIMENTAL_NETWORK_LATENCYBETWEEN",
            "0-1");
    try (TestCluster cluster = new TestCluster(dir, 3, 3, 3, latency).start()) {
      cluster.awaitReady(Duration.ofSeconds(60));
      awaitLedByPrimaries(cluster);
      try (CamundaClient client = TestBrokers.client(cluster.broker(0))) {
        // Node 0's gateway: partition 1 is led here, 2 by node 1 (delayed), 3 by node 2.
        long viaNode1 = fastestCancelOnPartition(client, 2);
        long viaNode2 = fastestCancelOnPartition(client, 3);
        long local = fastestCancelOnPartition(client, 1);

        assertThat(viaNode1)
            .as("a command to node 1 and its answer cross the delayed link: 2 x %d ms", LATENCY_MS)
            .isGreaterThanOrEqualTo(2 * LATENCY_MS);
        // Against the delayed path, not a fixed bound: on a loaded machine the fastest command
        // of an undelayed path has taken 35 ms, and that floor is under the delayed path too.
        assertThat(viaNode2)
            .as("node 2's link is not delayed: %d ms against %d ms via node 1", viaNode2, viaNode1)
            .isLessThanOrEqualTo(viaNode1 - LATENCY_MS);
        assertThat(local)
            .as(
                "partition 1 is led by node 0 itself: %d ms against %d ms via node 1",
                local, viaNode1)
            .isLessThanOrEqualTo(viaNode1 - LATENCY_MS);
      }
      assertThat(scrape(cluster.broker(0)))
          .as("node 0 says what it injects, and where")
          .contains("tern_network_injected_latency_milliseconds{node_id=\"0\",to=\"1\"} 35.0")
          .doesNotContainPattern("tern_network_injected_latency_milliseconds\\{[^}]*to=\"2\"");
      assertThat(scrape(cluster.broker(2))).doesNotContain("tern_network_injected_latency");
    }
  }

  @Test
  void badSettingsStopTheStartNamingTheKey() {
    assertThatThrownBy(() -> load("TERN_EXPERIMENTAL_NETWORK_LATENCY", "-5ms"))
        .hasMessageContaining("'experimental.network.latency' = '-5ms'");
    assertThatThrownBy(() -> load("TERN_EXPERIMENTAL_NETWORK_JITTER", "soon"))
        .hasMessageContaining("'experimental.network.jitter' = 'soon'");
    assertThatThrownBy(() -> load("TERN_EXPERIMENTAL_NETWORK_LATENCY", "20s"))
        .hasMessageContaining("at most 10s");
    assertThatThrownBy(() -> load("TERN_EXPERIMENTAL_NETWORK_LATENCYBETWEEN", "0-3"))
        .hasMessageContaining("node ids from 0 to 2")
        .hasMessageContaining("'0-3' is not");
    assertThatThrownBy(() -> load("TERN_EXPERIMENTAL_NETWORK_LATENCYBETWEEN", "0:1"))
        .hasMessageContaining("pairs of node ids such as 0-1,1-2")
        .hasMessageContaining("'0:1' is not");
    assertThatThrownBy(() -> load("TERN_EXPERIMENTAL_NETWORK_LATENCYBETWEEN", "1-1"))
        .hasMessageContaining("'1-1' is not");

    NetworkLatency some = load("TERN_EXPERIMENTAL_NETWORK_LATENCYBETWEEN", "0-1, 2-1");
    assertThat(some.active()).as("no latency set: nothing injected").isFalse();
    NetworkLatency between =
        BrokerConfigLoader.load(
                null,
                Map.of(
                    "TERN_CLUSTER_CLUSTERSIZE", "3",
                    "TERN_CLUSTER_CONTACTPOINTS", "a:1,b:2,c:3",
                    "TERN_EXPERIMENTAL_NETWORK_LATENCY", "35ms",
                    "TERN_EXPERIMENTAL_NETWORK_LATENCYBETWEEN", "0-1, 2-1"))
            .networkLatency();
    assertThat(between.delays(1, 0)).isTrue();
    assertThat(between.delays(1, 2)).isTrue();
    assertThat(between.delays(0, 2)).isFalse();
    assertThat(between.describe())
        .isEqualTo("35 ms one way (jitter up to 0 ms) between nodes 0-1, 1-2");
  }

  private static NetworkLatency load(String key, String value) {
    return BrokerConfigLoader.load(
            null,
            Map.of(
                "TERN_CLUSTER_CLUSTERSIZE",
                "3",
                "TERN_CLUSTER_CONTACTPOINTS",
                "a:1,b:2,c:3",
                key,
                value))
        .networkLatency();
  }

  /** The fastest of five NOT_FOUND answers to cancelling an instance that partition never had. */
  private static long fastestCancelOnPartition(CamundaClient client, int partitionId) {
    long fastestMs = Long.MAX_VALUE;
    for (int i = 0; i < 10; i++) {
      long key = Keys.encode(partitionId, 1_000_000 + i);
      long startNs = System.nanoTime();
      assertThatThrownBy(() -> client.newCancelInstanceCommand(key).send().join())
          .isInstanceOfSatisfying(
              ClientStatusException.class,
              e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.NOT_FOUND));
      fastestMs = Math.min(fastestMs, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
    }
    return fastestMs;
  }

  private static void awaitLedByPrimaries(TestCluster cluster) {
    Awaitility.await("the partitions led by their primaries")
        .atMost(Duration.ofSeconds(60))
        .pollDelay(Duration.ZERO)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              boolean balanced = true;
              for (int partitionId = 1; partitionId <= 3; partitionId++) {
                balanced &=
                    cluster.leaderOf(partitionId)
                        == PartitionDistribution.primaryOf(partitionId, 3);
              }
              if (!balanced) {
                ClusterTest.rebalance(cluster.broker(0).managementPort());
              }
              return balanced;
            });
  }

  private static String scrape(Broker broker) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:" + broker.managementPort() + "/actuator/prometheus"))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }
}

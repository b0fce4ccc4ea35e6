package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.Topology;
import io.tern.engine.cluster.PartitionDistribution;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Three broker processes, three partitions, three replicas; the leader of partition 1 is killed
 * with SIGKILL while instances are created and completed through a standalone gateway, by the
 * official client with its default retry policy. Also with {@code processing.uncommitted}: then the
 * killed leader has processed commands that never commit, and none of them may have been answered.
 * In the run without it, the brokers export to one history store on a real PostgreSQL: the killed
 * leader's exporting is taken over by the new one, and the store ends with every instance once,
 * completed.
 */
@Tag("slow") // three broker processes, one killed with SIGKILL: docs/testing.md
class ClusterKillTest {
  private static final Duration READY = Duration.ofSeconds(90);

  @TempDir Path dir;
  private static EmbeddedPostgres postgres;

  @BeforeAll
  static void startPostgres() throws IOException {
    postgres = EmbeddedPostgres.builder().start();
  }

  @AfterAll
  static void stopPostgres() throws IOException {
    if (postgres != null) {
      postgres.close();
    }
  }

  @ParameterizedTest(name = "processing.uncommitted: {0}")
  @ValueSource(booleans = {false, true})
  void aKilledLeaderLosesNoAcknowledgedInstanceAndCompletesNoJobTwice(boolean uncommitted)
      throws Exception {
    String history =
        postgres.getJdbcUrl("postgres", "postgres") + "&currentSchema=kill_" + uncommitted;
    try (Connection connection = postgres.getPostgresDatabase().getConnection();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE SCHEMA kill_" + uncommitted);
    }
    try (BrokerProcesses brokers =
        new BrokerProcesses(
            dir,
            3,
            3,
            3,
            // The history store in one of the two runs only: it costs the brokers CPU.
            uncommitted
                ? Map.of("TERN_PROCESSING_UNCOMMITTED", "true")
                : Map.of(
                    "TERN_PROCESSING_UNCOMMITTED",
                    "false",
                    "TERN_EXPORTERS_HISTORY_ARGS_URL",
                    history))) {
      for (int node = 0; node < 3; node++) {
        brokers.start(node);
      }
      for (int node = 0; node < 3; node++) {
        brokers.awaitReady(node, READY);
      }
      BrokerConfig gatewayConfig = brokers.gatewayConfig(dir.resolve("gateway"));
      try (StandaloneGateway gateway = StandaloneGateway.start(gatewayConfig);
          CamundaClient client =
              CamundaClient.newClientBuilder()
                  .grpcAddress(URI.create("http://127.0.0.1:" + gateway.port()))
                  .preferRestOverGrpc(false)
                  // The client's own retries stay on: a create answered as "not written" while
                  // it was would be sent again and run twice.
                  .useDefaultRetryPolicy(true)
                  .defaultRequestTimeout(Duration.ofSeconds(15))
                  .build()) {
        assertThat(gateway.awaitLeaders(READY)).isTrue();
        int victim;
        try (InstanceTracker instances = new InstanceTracker(client)) {
          instances.create(60);
          victim = leaderOf(client.newTopologyRequest().send().join(), 1);
          assertThat(victim).as("partition 1 has a leader").isNotNegative();
          // Creates keep going while the leader dies: some are in flight to it when it does.
          CompletableFuture<Void> during = instances.createInBackground(150, Duration.ofMillis(10));
          Awaitility.await("a third of the background creates sent")
              .atMost(Duration.ofSeconds(30))
              .pollInterval(Duration.ofMillis(10))
              .until(() -> instances.sentInBackground() >= 50);
          brokers.kill(victim);
          during.get(120, TimeUnit.SECONDS);
          instances.create(60);
          assertThat(instances.acknowledgedCount()).isGreaterThan(60);
          instances.assertEveryAcknowledgedInstanceCompleted(Duration.ofSeconds(60));
          instances.assertNoCreateRanTwice(Duration.ofSeconds(60));
          if (!uncommitted) {
            assertTheHistoryHoldsEveryInstanceOnceCompleted(history, instances.acknowledged());
          }
        }

        brokers.start(victim);
        brokers.awaitReady(victim, READY);
        int survivor = (victim + 1) % 3;
        ClusterTest.rebalance(brokers.managementPort(survivor));
        Awaitility.await("every partition led by its primary after rebalancing")
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(300))
            .until(
                () -> {
                  Topology topology = client.newTopologyRequest().send().join();
                  for (int partitionId = 1; partitionId <= 3; partitionId++) {
                    if (leaderOf(topology, partitionId)
                        != PartitionDistribution.primaryOf(partitionId, 3)) {
                      // a transfer can lose to an election; rebalancing is idempotent
                      ClusterTest.rebalance(brokers.managementPort(survivor));
                      return false;
                    }
                  }
                  return true;
                });
      }
    }
  }

  /**
   * Every acknowledged instance is in the history store, completed, with its two jobs completed and
   * its variable created once: nothing the killed leader exported was lost or written twice.
   */
  private static void assertTheHistoryHoldsEveryInstanceOnceCompleted(
      String url, Set<Long> acknowledged) {
    Awaitility.await("every acknowledged instance completed in the history store")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptionsInstanceOf(IllegalStateException.class) // tables made at first open
        .until(
            () ->
                TestBrokers.sqlRows(
                        url,
                        "SELECT process_instance_key FROM process_instance WHERE state = 'COMPLETED'")
                    .containsAll(keys(acknowledged)));
    // Three queries for all instances, grouped here: a connection per instance and table cost the
    // test seconds of PostgreSQL backends.
    String in = String.join(",", keys(acknowledged));
    Map<String, List<String>> states = byInstance(url, "state", "process_instance", "", in, "");
    Map<String, List<String>> jobs =
        byInstance(url, "type || ':' || state", "job", "", in, ", type");
    Map<String, List<String>> tags =
        byInstance(url, "intent", "variable_history", "name = 'tag' AND ", in, "");
    for (String instance : keys(acknowledged)) {
      assertThat(states.get(instance)).as("instance " + instance).containsExactly("COMPLETED");
      assertThat(jobs.get(instance))
          .as("instance " + instance + "'s jobs")
          .containsExactly("done:COMPLETED", "work:COMPLETED");
      assertThat(tags.get(instance))
          .as("instance " + instance + "'s variable, created once")
          .containsExactly("CREATED");
    }
  }

  /** {@code column} of {@code table}'s rows for the instances {@code in}, by instance key. */
  private static Map<String, List<String>> byInstance(
      String url, String column, String table, String condition, String in, String orderBy) {
    Map<String, List<String>> rows = new java.util.HashMap<>();
    String sql =
        "SELECT process_instance_key || '|' || "
            + column
            + " FROM "
            + table
            + " WHERE "
            + condition
            + "process_instance_key IN ("
            + in
            + ") ORDER BY process_instance_key"
            + orderBy;
    for (String row : TestBrokers.sqlRows(url, sql)) {
      String[] parts = row.split("\\|", 2);
      rows.computeIfAbsent(parts[0], key -> new java.util.ArrayList<>()).add(parts[1]);
    }
    return rows;
  }

  private static List<String> keys(Set<Long> instances) {
    return instances.stream().map(String::valueOf).toList();
  }

  private static int leaderOf(Topology topology, int partitionId) {
    return topology.getBrokers().stream()
        .filter(
            broker ->
                broker.getPartitions().stream()
                    .anyMatch(p -> p.getPartitionId() == partitionId && p.isLeader()))
        .mapToInt(broker -> broker.getNodeId())
        .findFirst()
        .orElse(-1);
  }
}

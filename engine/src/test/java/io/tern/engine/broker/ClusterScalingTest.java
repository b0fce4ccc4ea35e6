package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.camunda.client.CamundaClient;
import io.tern.engine.partition.EnginePartition;
import io.tern.engine.scaling.Planner;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changing a running cluster's brokers through {@code /actuator/cluster} (docs/scaling.md), on
 * in-JVM brokers, while instances are created and completed through a standalone gateway whose
 * contact points name the first brokers only: every acknowledged instance runs to its end, and no
 * create runs twice.
 */
@Tag("slow") // several brokers moving replicas: docs/testing.md
class ClusterScalingTest {
  private static final Duration READY = Duration.ofSeconds(90);
  private static final Duration CHANGE = Duration.ofSeconds(180);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void replicasMoveFromBroker2ToANewBroker3WhileInstancesAreCreated() throws Exception {
    try (TestCluster cluster = new TestCluster(dir, 3, 2, 3, Map.of(), 1).start();
        CamundaClient client = cluster.client()) {
      cluster.awaitReady(READY);
      cluster.startBroker(3);
      assertThat(cluster.broker(3).partitions()).as("a broker outside the cluster").isEmpty();
      try (InstanceTracker instances = new InstanceTracker(client)) {
        instances.create(20);
        CompletableFuture<Void> load = instances.createInBackground(150, Duration.ofMillis(40));

        // Bad input is named; a change whose new broker is down waits for it, refuses a second
        // change meanwhile, and can be cancelled, leaving the placement as it was.
        assertThat(post(cluster, "/actuator/cluster/brokers", "[0, \"x\"]").body())
            .contains("'x' is not a number");
        assertThat(post(cluster, "/actuator/cluster/brokers", "{\"brokers\": [0]}").body())
            .contains("a JSON array of broker ids");
        assertThat(
                post(cluster, "/actuator/cluster/brokers?replicationFactor=4", "[0, 1, 2]").body())
            .contains("replication factor 4 needs between 1 and 3");
        change(cluster, 0, "/actuator/cluster/brokers?dryRun=true", "[0, 1, 3]"); // 3 is known
        cluster.stop(3);
        JsonNode waiting = change(cluster, 0, "/actuator/cluster/brokers", "[0, 1, 3]");
        HttpResponse<String> second = post(cluster, "/actuator/cluster/brokers", "[0, 1, 2, 3]");
        assertThat(second.statusCode()).isEqualTo(409);
        assertThat(second.body()).contains("is under way");
        long waitingId = waiting.get("changeId").asLong();
        HttpResponse<String> cancelled =
            post(cluster, "/actuator/cluster/changes/" + waitingId + "/cancel", null);
        assertThat(cancelled.statusCode()).as(cancelled.body()).isEqualTo(200);
        JsonNode afterCancel = get(cluster, 0);
        assertThat(afterCancel.get("pendingChange")).isNull();
        assertThat(afterCancel.get("lastChange").get("status").asText()).isEqualTo("CANCELLED");
        assertThat(brokerIds(afterCancel)).containsExactly(0, 1, 2);
        cluster.startBroker(3);

        JsonNode planned = change(cluster, 0, "/actuator/cluster/brokers", "[0, 1, 3]");
        assertThat(operations(planned.get("plannedChanges")))
            .containsExactly(
                "PARTITION_JOIN 3 1",
                "PARTITION_LEAVE 2 1",
                "PARTITION_JOIN 3 2",
                "PARTITION_LEAVE 2 2");
        awaitCompleted(cluster, 0, planned.get("changeId").asLong());

        assertThat(ids(cluster.broker(3).partitions())).containsExactly(1, 2);
        // Broker 2 drops its replicas when the topology with the leaves done reaches it.
        // Its data is deleted once each replica has closed, after it left the list.
        Awaitility.await("broker 2 dropped its replicas and their data")
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    cluster.broker(2).partitions().isEmpty()
                        && !Files.exists(
                            cluster.broker(2).config().dataDirectory().resolve("partition-1"))
                        && !Files.exists(
                            cluster
                                .broker(2)
                                .config()
                                .dataDirectory()
                                .resolve("raft")
                                .resolve("partition-2")));
        assertThat(cluster.broker(2).config().dataDirectory().resolve("partition-1"))
            .doesNotExist();
        assertThat(
                cluster.broker(2).config().dataDirectory().resolve("raft").resolve("partition-2"))
            .doesNotExist();
        // The new broker has the topology too, once gossip brought it.
        Awaitility.await("broker 3's topology shows the change done")
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    get(cluster, 3).get("pendingChange") == null
                        && brokerIds(get(cluster, 3)).equals(Set.of(0, 1, 3)));

        load.get(120, TimeUnit.SECONDS);
        instances.create(20); // after the move, through the new replicas' leaders
        assertThat(instances.acknowledgedCount()).isGreaterThan(100);
        instances.assertEveryAcknowledgedInstanceCompleted(Duration.ofSeconds(90));
        instances.assertNoCreateRanTwice(Duration.ofSeconds(30));
      }
    }
  }

  @Test
  void threeToFiveToThreeBrokersWhileInstancesAreCreatedWithBrokersStoppedMidChange()
      throws Exception {
    try (TestCluster cluster = new TestCluster(dir, 3, 3, 3, Map.of(), 2).start();
        CamundaClient client = cluster.client()) {
      cluster.awaitReady(READY);
      cluster.startBroker(3);
      cluster.startBroker(4);
      try (InstanceTracker instances = new InstanceTracker(client)) {
        instances.create(20);
        CompletableFuture<Void> load = instances.createInBackground(400, Duration.ofMillis(40));

        // A dry run plans without changing anything; a write needs the token.
        long versionBefore = get(cluster, 0).get("version").asLong();
        HttpResponse<String> dryRun =
            ManagementCalls.send(
                cluster.broker(0).managementPort(),
                "POST",
                "/actuator/cluster/brokers?dryRun=true",
                "[0, 1, 2, 3, 4]",
                TestBrokers.BEARER,
                Duration.ofSeconds(10));
        assertThat(dryRun.statusCode()).as(dryRun.body()).isEqualTo(200);
        assertThat(operations(JSON.readTree(dryRun.body()).get("plannedChanges"))).hasSize(6);
        assertThat(get(cluster, 0).get("version").asLong()).isEqualTo(versionBefore);
        assertThat(get(cluster, 0).get("pendingChange")).isNull();
        HttpResponse<String> anonymous =
            ManagementCalls.send(
                cluster.broker(0).managementPort(),
                "POST",
                "/actuator/cluster/brokers",
                "[0, 1, 2, 3, 4]",
                null,
                Duration.ofSeconds(10));
        assertThat(anonymous.statusCode()).isEqualTo(401);

        // Broker 4 goes down after announcing itself: the change runs until broker 4's join,
        // which waits for it. Meanwhile broker 1 and then the coordinator restart.
        cluster.stop(4);
        JsonNode up = change(cluster, 0, "/actuator/cluster/brokers", "[0, 1, 2, 3, 4]");
        assertThat(operations(up.get("plannedChanges")))
            .containsExactly(
                "PARTITION_JOIN 3 2",
                "PARTITION_LEAVE 0 2",
                "PARTITION_JOIN 3 3",
                "PARTITION_JOIN 4 3",
                "PARTITION_LEAVE 0 3",
                "PARTITION_LEAVE 1 3");
        awaitCompletedSteps(cluster, 0, 3);
        cluster.stop(1);
        cluster.startBroker(1);
        cluster.stop(0);
        cluster.startBroker(0);
        JsonNode waiting = get(cluster, 0).get("pendingChange");
        assertThat(waiting.get("completed")).hasSize(3);
        assertThat(operations(waiting.get("pending")).get(0)).isEqualTo("PARTITION_JOIN 4 3");
        cluster.startBroker(4);
        awaitCompleted(cluster, 0, up.get("changeId").asLong());
        // The standalone gateway knows only brokers 0-2 from its contact points: it learns the
        // new ones from the brokers, and the cluster's new size from their topology.
        Awaitility.await("the gateway's topology shows five brokers")
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> {
                  var topology = client.newTopologyRequest().send().join();
                  return topology.getClusterSize() == 5 && topology.getBrokers().size() == 5;
                });
        assertThat(ids(cluster.broker(3).partitions())).containsExactly(2, 3);
        assertThat(ids(cluster.broker(4).partitions())).containsExactly(3);
        Awaitility.await("broker 0 and 1 dropped partition 3")
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    ids(cluster.broker(0).partitions()).equals(Set.of(1))
                        && ids(cluster.broker(1).partitions()).equals(Set.of(1, 2)));

        JsonNode down = change(cluster, 0, "/actuator/cluster/brokers", "[0, 1, 2]");
        awaitCompleted(cluster, 0, down.get("changeId").asLong());
        Awaitility.await("brokers 3 and 4 dropped every replica")
            .atMost(Duration.ofSeconds(30))
            .until(
                () ->
                    cluster.broker(3).partitions().isEmpty()
                        && cluster.broker(4).partitions().isEmpty());
        Awaitility.await("broker 1's topology shows brokers 0 to 2")
            .atMost(Duration.ofSeconds(30))
            .until(() -> brokerIds(get(cluster, 1)).equals(Set.of(0, 1, 2)));
        cluster.stop(3);
        cluster.stop(4);

        load.get(180, TimeUnit.SECONDS);
        instances.create(20);
        assertThat(instances.acknowledgedCount()).isGreaterThan(200);
        instances.assertEveryAcknowledgedInstanceCompleted(Duration.ofSeconds(120));
        instances.assertNoCreateRanTwice(Duration.ofSeconds(30));
      }
    }
  }

  /**
   * 2 -> 3 brokers, 3 partitions of 2 replicas, sent to broker 1, which forwards it to the
   * coordinator: broker 0 keeps partition 3 but the new placement makes broker 2 its primary, so
   * the plan ends by lowering broker 0's priority there, and a rebalance then spreads the leaders
   * over all three brokers (without that step, broker 0 would stay partition 3's primary).
   */
  @Test
  void aChangeSentToAnyBrokerSetsTheNewPlacementsPrioritiesSoThatRebalancingSpreadsLeaders()
      throws Exception {
    try (TestCluster cluster = new TestCluster(dir, 2, 3, 2, Map.of(), 1).start()) {
      cluster.awaitReady(READY);
      cluster.startBroker(2);

      JsonNode planned = change(cluster, 1, "/actuator/cluster/brokers", "[0, 1, 2]");
      assertThat(operations(planned.get("plannedChanges")))
          .containsExactly(
              "PARTITION_JOIN 2 2",
              "PARTITION_LEAVE 0 2",
              "PARTITION_JOIN 2 3",
              "PARTITION_LEAVE 1 3",
              "PARTITION_RECONFIGURE_PRIORITY 0 3");
      awaitCompleted(cluster, 1, planned.get("changeId").asLong());

      var expected = Planner.placement(new TreeSet<>(List.of(0, 1, 2)), 3, 2);
      assertThat(priorities(get(cluster, 1))).isEqualTo(expected);
      // The standalone gateway serves the topology the brokers gossip, and forwards writes
      // (here it runs on the brokers' address, so it counts as a broker) once it checked the token.
      int gatewayPort = cluster.gateway().managementPort();
      Awaitility.await("the gateway's topology shows the change done")
          .atMost(Duration.ofSeconds(30))
          .until(() -> priorities(getAt(gatewayPort)).equals(expected));
      String dryRun = "/actuator/cluster/brokers?dryRun=true";
      assertThat(
              ManagementCalls.send(
                      gatewayPort, "POST", dryRun, "[0, 1]", null, Duration.ofSeconds(10))
                  .statusCode())
          .isEqualTo(401);
      HttpResponse<String> viaGateway =
          ManagementCalls.send(
              gatewayPort, "POST", dryRun, "[0, 1]", TestBrokers.BEARER, Duration.ofSeconds(10));
      assertThat(viaGateway.statusCode()).as(viaGateway.body()).isEqualTo(200);
      Set<Integer> dryRunBrokers = new TreeSet<>();
      JSON.readTree(viaGateway.body())
          .get("expectedTopology")
          .forEach(broker -> dryRunBrokers.add(broker.get("id").asInt()));
      assertThat(dryRunBrokers).as("the dry run's outcome").containsExactly(0, 1);

      // Each partition's leader moves to its primary: 0, 1 and 2 (the highest priority).
      Awaitility.await("leaders on the primaries after rebalancing")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(500))
          .until(
              () -> {
                ManagementCalls.send(
                    cluster.broker(1).managementPort(),
                    "POST",
                    "/actuator/rebalance",
                    null,
                    TestBrokers.BEARER,
                    Duration.ofSeconds(10));
                return cluster.leaderOf(1) == 0
                    && cluster.leaderOf(2) == 1
                    && cluster.leaderOf(3) == 2;
              });

      // With the coordinator down, a change sent elsewhere says who is missing.
      cluster.stop(0);
      HttpResponse<String> down =
          ManagementCalls.send(
              cluster.broker(1).managementPort(),
              "DELETE",
              "/actuator/cluster/brokers/2",
              null,
              TestBrokers.BEARER,
              Duration.ofSeconds(30));
      assertThat(down.statusCode()).as(down.body()).isEqualTo(503);
      assertThat(down.body()).contains("broker 0 coordinates changes of the cluster");
    }
  }

  /** Node id to partition to priority, as GET /actuator/cluster shows them. */
  static Map<Integer, Map<Integer, Integer>> priorities(JsonNode topology) {
    Map<Integer, Map<Integer, Integer>> priorities = new java.util.TreeMap<>();
    topology
        .get("brokers")
        .forEach(
            broker -> {
              Map<Integer, Integer> partitions = new java.util.TreeMap<>();
              broker
                  .get("partitions")
                  .forEach(p -> partitions.put(p.get("id").asInt(), p.get("priority").asInt()));
              priorities.put(broker.get("id").asInt(), partitions);
            });
    return priorities;
  }

  static JsonNode getAt(int managementPort) throws Exception {
    HttpResponse<String> answer =
        ManagementCalls.send(
            managementPort, "GET", "/actuator/cluster", null, null, Duration.ofSeconds(10));
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return JSON.readTree(answer.body());
  }

  static void awaitCompletedSteps(TestCluster cluster, int node, int steps) {
    Awaitility.await(steps + " steps done")
        .atMost(CHANGE)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              JsonNode pending = get(cluster, node).get("pendingChange");
              return pending == null || pending.get("completed").size() >= steps;
            });
  }

  static HttpResponse<String> post(TestCluster cluster, String path, String body) throws Exception {
    return ManagementCalls.send(
        cluster.broker(0).managementPort(),
        "POST",
        path,
        body,
        TestBrokers.BEARER,
        Duration.ofSeconds(10));
  }

  /** Sends a change to broker {@code node} until it is accepted (new brokers announce late). */
  static JsonNode change(TestCluster cluster, int node, String path, String body) {
    JsonNode[] accepted = new JsonNode[1];
    Awaitility.await("change " + path + " " + body + " accepted")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              HttpResponse<String> answer =
                  ManagementCalls.send(
                      cluster.broker(node).managementPort(),
                      "POST",
                      path,
                      body,
                      TestBrokers.BEARER,
                      Duration.ofSeconds(10));
              if (answer.statusCode() == 202 || answer.statusCode() == 200) {
                accepted[0] = JSON.readTree(answer.body());
                return true;
              }
              // Only "not known yet" is waited out: anything else is a failure of the test.
              assertThat(answer.body())
                  .as(answer.statusCode() + " " + answer.body())
                  .contains("not known");
              return false;
            });
    return accepted[0];
  }

  static void awaitCompleted(TestCluster cluster, int node, long changeId) {
    Awaitility.await("change " + changeId + " completed")
        .atMost(CHANGE)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              JsonNode last = get(cluster, node).get("lastChange");
              return last != null
                  && last.get("id").asLong() == changeId
                  && last.get("status").asText().equals("COMPLETED");
            });
  }

  static JsonNode get(TestCluster cluster, int node) throws Exception {
    return getAt(cluster.broker(node).managementPort());
  }

  static List<String> operations(JsonNode steps) {
    List<String> operations = new ArrayList<>();
    steps.forEach(
        step ->
            operations.add(
                step.get("operation").asText()
                    + " "
                    + step.get("brokerId").asInt()
                    + " "
                    + step.get("partitionId").asInt()));
    return operations;
  }

  static Set<Integer> brokerIds(JsonNode topology) {
    Set<Integer> ids = new TreeSet<>();
    topology.get("brokers").forEach(broker -> ids.add(broker.get("id").asInt()));
    return ids;
  }

  static Set<Integer> ids(List<EnginePartition> partitions) {
    Set<Integer> ids = new TreeSet<>();
    partitions.forEach(partition -> ids.add(partition.partitionId()));
    return ids;
  }
}

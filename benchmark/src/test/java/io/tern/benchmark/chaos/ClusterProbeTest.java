package io.tern.benchmark.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.benchmark.chaos.ClusterProbe.Replica;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the chaos suite reads from the brokers' partitions, without brokers. */
class ClusterProbeTest {
  private static final String PARTITIONS =
      "{\"1\":{\"role\":\"LEADER\",\"term\":4,\"leaderNodeId\":0,\"commitIndex\":900,"
          + "\"lastIndex\":900,\"processedPosition\":2000,\"readIndex\":899,\"replayLag\":1,"
          + "\"replaying\":false,\"snapshotId\":null,\"processorPhase\":\"PROCESSING\","
          + "\"backpressure\":{\"enabled\":true,\"limit\":100,\"inFlight\":0,\"refused\":0}},"
          + "\"2\":{\"role\":\"FOLLOWER\",\"term\":3,\"leaderNodeId\":null,\"commitIndex\":50000,"
          + "\"replayLag\":123456,\"replaying\":true,\"processorPhase\":\"REPLAYING\"}}";

  @Test
  void replicasCarryTheirReplayLag() throws Exception {
    assertThat(ClusterProbe.parseReplicas(0, PARTITIONS))
        .containsExactly(
            new Replica(0, 1, "LEADER", 4, 1, false),
            new Replica(0, 2, "FOLLOWER", 3, 123_456, true));
  }

  @Test
  void aReplicaStillReplayingKeepsTheClusterFromRecovered() throws Exception {
    List<Replica> replicas = ClusterProbe.parseReplicas(0, PARTITIONS);

    assertThat(ClusterProbe.replaying(replicas))
        .isEqualTo("broker 0 partition 2 replaying: 123456 entries behind");
    assertThat(ClusterProbe.replaying(List.of(replicas.get(0)))).isNull();
  }

  @Test
  void failoverNeedsExactlyOneLeaderPerPartitionByRoleAlone() {
    Replica leads1 = new Replica(0, 1, "LEADER", 4, 0, false);
    // A new leader still replaying has failed over: processing again is measured elsewhere.
    Replica leads2Replaying = new Replica(1, 2, "LEADER", 5, 40_000, true);
    Replica follows2 = new Replica(0, 2, "FOLLOWER", 5, 0, false);

    assertThat(ClusterProbe.leaderProblems(2, List.of(leads1, leads2Replaying, follows2))).isNull();
    assertThat(ClusterProbe.leaderProblems(2, List.of(leads1, follows2)))
        .isEqualTo("partition 2 has leaders []");
    assertThat(
            ClusterProbe.leaderProblems(
                1, List.of(leads1, new Replica(2, 1, "LEADER", 3, 0, false))))
        .isEqualTo("partition 1 has leaders [0, 2]");
  }

  @Test
  void theClusterAnswerIsReadAsMapsAndLists() throws Exception {
    Object tree =
        ClusterProbe.tree(
            "{\"lastChange\":{\"id\":2,\"status\":\"COMPLETED\",\"completedAt\":null},"
                + "\"pendingChange\":{\"completed\":[{\"operation\":\"PARTITION_JOIN\","
                + "\"brokerId\":3,\"partitionId\":2,\"priority\":1.5}],\"pending\":[]},"
                + "\"flag\":true}");

    java.util.Map<?, ?> map = (java.util.Map<?, ?>) tree;
    java.util.Map<?, ?> last = (java.util.Map<?, ?>) map.get("lastChange");
    assertThat(last.get("id")).isEqualTo(2L);
    assertThat(last.get("status")).isEqualTo("COMPLETED");
    assertThat(last.containsKey("completedAt") && last.get("completedAt") == null).isTrue();
    java.util.Map<?, ?> pending = (java.util.Map<?, ?>) map.get("pendingChange");
    assertThat(pending.get("completed"))
        .isEqualTo(
            List.of(
                java.util.Map.of(
                    "operation",
                    "PARTITION_JOIN",
                    "brokerId",
                    3L,
                    "partitionId",
                    2L,
                    "priority",
                    1.5)));
    assertThat(pending.get("pending")).isEqualTo(List.of());
    assertThat(map.get("flag")).isEqualTo(true);
  }
}

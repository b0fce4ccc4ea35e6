package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A data directory remembers the topology it was made under, and a broker configured with another
 * refuses to start on it (partition membership would move replicas away from their data).
 */
class StoredTopologyTest {
  @TempDir Path dir;

  @Test
  void aBrokerRestartedWithAnotherTopologyRefusesToStartNamingBoth() {
    Broker.start(TestBrokers.config(dir, Map.of("TERN_CLUSTER_PARTITIONSCOUNT", "2"))).close();
    Path file = dir.resolve("data").resolve(StoredTopology.FILE_NAME);
    assertThat(file).exists();

    // Five brokers where there were one: node 0 would now hold other partitions' replicas.
    BrokerConfig grown =
        TestBrokers.config(
            dir,
            Map.of(
                "TERN_CLUSTER_PARTITIONSCOUNT", "2",
                "TERN_CLUSTER_CLUSTERSIZE", "5",
                "TERN_CLUSTER_CONTACTPOINTS",
                    "127.0.0.1:1,127.0.0.1:2,127.0.0.1:3,127.0.0.1:4,127.0.0.1:5"));
    assertThatThrownBy(() -> Broker.start(grown))
        .isInstanceOf(StoredTopology.MismatchException.class)
        .hasMessageContaining("clusterSize 1, partitionsCount 2, replicationFactor 1")
        .hasMessageContaining("configured for clusterSize 5, partitionsCount 2")
        .hasMessageContaining(file.toString())
        .hasMessageContaining("Set cluster.clusterSize")
        .hasMessageContaining("POST /actuator/cluster/brokers");
    assertThatThrownBy(
            () ->
                Broker.start(TestBrokers.config(dir, Map.of("TERN_CLUSTER_PARTITIONSCOUNT", "3"))))
        .isInstanceOf(StoredTopology.MismatchException.class)
        .hasMessageContaining("configured for clusterSize 1, partitionsCount 3");

    // The refusal released the data directory, and the stored topology still starts.
    Broker.start(TestBrokers.config(dir, Map.of("TERN_CLUSTER_PARTITIONSCOUNT", "2"))).close();
  }

  @Test
  void aClusterChangedOnlineStartsWithItsNewSizeOrItsFirstButNoOther() throws Exception {
    BrokerConfig first = TestBrokers.config(dir, Map.of("TERN_CLUSTER_PARTITIONSCOUNT", "2"));
    Files.createDirectories(first.dataDirectory()); // as the broker's data lock does
    StoredTopology.open(first);
    // As if the cluster had grown online to two brokers holding two replicas of each partition.
    java.util.SortedMap<Integer, java.util.SortedMap<Integer, Integer>> brokers =
        new java.util.TreeMap<>();
    brokers.put(0, new java.util.TreeMap<>(Map.of(1, 2, 2, 1)));
    brokers.put(1, new java.util.TreeMap<>(Map.of(1, 1, 2, 2)));
    assertThat(
            StoredTopology.open(first)
                .adopt(new io.tern.engine.scaling.Topology(4, 2, 1, 1, brokers, null, null)))
        .isTrue();

    Map<String, String> grown =
        Map.of(
            "TERN_CLUSTER_PARTITIONSCOUNT", "2",
            "TERN_CLUSTER_CLUSTERSIZE", "2",
            "TERN_CLUSTER_REPLICATIONFACTOR", "2",
            "TERN_CLUSTER_CONTACTPOINTS", "127.0.0.1:1,127.0.0.1:2");
    assertThat(StoredTopology.open(TestBrokers.config(dir, grown)).current().version())
        .isEqualTo(4);
    assertThat(StoredTopology.open(first).current().replicasOf(1)).containsKeys(0, 1);

    Map<String, String> other = new java.util.HashMap<>(grown);
    other.put("TERN_CLUSTER_CLUSTERSIZE", "3");
    other.put("TERN_CLUSTER_CONTACTPOINTS", "127.0.0.1:1,127.0.0.1:2,127.0.0.1:3");
    assertThatThrownBy(() -> StoredTopology.open(TestBrokers.config(dir, other)))
        .isInstanceOf(StoredTopology.MismatchException.class)
        .hasMessageContaining("changed online to clusterSize 2, partitionsCount 2")
        .hasMessageContaining("configured for clusterSize 3");
  }

  @Test
  void aDamagedRecordIsNamed() throws Exception {
    Path data = dir.resolve("data");
    Files.createDirectories(data);
    Files.writeString(data.resolve(StoredTopology.FILE_NAME), "clusterSize=three\n");
    assertThatThrownBy(() -> Broker.start(TestBrokers.config(dir, Map.of())))
        .hasMessageContaining("has no valid clusterSize (three)");
  }
}

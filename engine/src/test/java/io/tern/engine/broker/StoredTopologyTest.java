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
        .hasMessageContaining("set cluster.clusterSize");
    assertThatThrownBy(
            () ->
                Broker.start(TestBrokers.config(dir, Map.of("TERN_CLUSTER_PARTITIONSCOUNT", "3"))))
        .isInstanceOf(StoredTopology.MismatchException.class)
        .hasMessageContaining("configured for clusterSize 1, partitionsCount 3");

    // The refusal released the data directory, and the stored topology still starts.
    Broker.start(TestBrokers.config(dir, Map.of("TERN_CLUSTER_PARTITIONSCOUNT", "2"))).close();
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

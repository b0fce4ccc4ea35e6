package io.tern.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LoadOptionsTest {
  @Test
  void aLocalClusterDefaultsToAPartitionPerBrokerAndAtMostThreeReplicas() {
    LoadOptions three = LoadOptions.parse(new String[] {"--brokers", "3"});
    assertThat(three.brokers()).isEqualTo(3);
    assertThat(three.partitions()).isEqualTo(3);
    assertThat(three.replication()).isEqualTo(3);
    LoadOptions five = LoadOptions.parse(new String[] {"--brokers", "5", "--partitions", "10"});
    assertThat(five.partitions()).isEqualTo(10);
    assertThat(five.replication()).isEqualTo(3);
    LoadOptions single = LoadOptions.parse(new String[0]);
    assertThat(single.brokers()).isEqualTo(1);
    assertThat(single.partitions()).isEqualTo(1);
    assertThat(single.replication()).isEqualTo(1);
  }

  @Test
  void impossibleClustersAreRefusedSayingWhy() {
    assertThatThrownBy(
            () -> LoadOptions.parse(new String[] {"--brokers", "2", "--replication", "3"}))
        .hasMessageContaining("--replication from 1 to --brokers");
    assertThatThrownBy(
            () -> LoadOptions.parse(new String[] {"--brokers", "3", "--gateway", "host:26500"}))
        .hasMessageContaining("not with --gateway");
    assertThatThrownBy(() -> LoadOptions.parse(new String[] {"--brokers", "0"}))
        .hasMessageContaining("--brokers must be at least 1");
  }
}

package io.tern.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.raft.Member;
import org.junit.jupiter.api.Test;

class PartitionDistributionTest {
  @Test
  void replicasGoRoundRobinWithThePrimaryFirstAndHighest() {
    // Zeebe's round robin: partition p on nodes p-1, p, ... (mod size), member ids are node + 1.
    assertThat(PartitionDistribution.membersOf(1, 3, 3))
        .containsExactly(new Member(1, 3), new Member(2, 2), new Member(3, 1));
    assertThat(PartitionDistribution.membersOf(3, 3, 3))
        .containsExactly(new Member(3, 3), new Member(1, 2), new Member(2, 1));
    assertThat(PartitionDistribution.membersOf(5, 4, 2))
        .containsExactly(new Member(1, 2), new Member(2, 1));
    assertThat(PartitionDistribution.primaryOf(5, 4)).isZero();
    assertThat(PartitionDistribution.membersOf(2, 1, 1)).containsExactly(new Member(1, 1));
  }

  @Test
  void aReplicationFactorAboveTheClusterSizeIsRefused() {
    assertThatThrownBy(() -> PartitionDistribution.membersOf(1, 2, 3))
        .hasMessageContaining("replication 3 in a cluster of 2");
  }
}

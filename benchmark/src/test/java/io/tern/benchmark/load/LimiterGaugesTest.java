package io.tern.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class LimiterGaugesTest {
  @Test
  void onlyTheLeadersLimiterOfEachPartitionIsKept() throws Exception {
    String node1 =
        "{\"1\":{\"role\":\"FOLLOWER\",\"term\":2,\"leaderNodeId\":0,\"snapshotId\":null,"
            + "\"backpressure\":{\"enabled\":true,\"limit\":100,\"inFlight\":0,\"refused\":0}},"
            + "\"2\":{\"role\":\"LEADER\",\"term\":1,\"leaderNodeId\":1,"
            + "\"backpressure\":{\"enabled\":true,\"limit\":81,\"inFlight\":3,\"refused\":7}},"
            + "\"3\":{\"role\":\"LEADER\",\"backpressure\":{\"enabled\":false,\"inFlight\":0,"
            + "\"refused\":0}}}";
    Map<Integer, LimiterGauges.Partition> partitions = new TreeMap<>();

    LimiterGauges.parse(1, node1, partitions);

    assertThat(partitions).containsOnlyKeys(2, 3);
    assertThat(partitions.get(2)).isEqualTo(new LimiterGauges.Partition(1, 81, 3, 7));
    assertThat(partitions.get(3).limit()).as("no limit when disabled").isNaN();
  }
}

package io.tern.engine.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.cluster.PartitionDistribution;
import io.tern.engine.scaling.Topology.Change;
import io.tern.engine.scaling.Topology.Step;
import io.tern.raft.Member;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class PlannerTest {
  @Test
  void theInitialTopologyIsTheRoundRobinDistribution() {
    Topology topology = Topology.initial(3, 6, 3);
    for (int partition = 1; partition <= 6; partition++) {
      SortedMap<Integer, Integer> expected = new TreeMap<>();
      for (Member member : PartitionDistribution.membersOf(partition, 3, 3)) {
        expected.put(PartitionDistribution.nodeIdOf(member.id()), member.priority());
      }
      assertThat(topology.replicasOf(partition)).isEqualTo(expected);
      assertThat(topology.bootstrapGroup(partition))
          .isEqualTo(PartitionDistribution.membersOf(partition, 3, 3));
    }
    assertThat(topology.replicationFactor()).isEqualTo(3);
    assertThat(topology.coordinator()).isZero();
  }

  @Test
  void aPlanJoinsBeforeItLeavesAndEndsInTheNewRoundRobin() {
    Topology topology = Topology.initial(3, 6, 3);
    List<Step> steps = Planner.plan(topology, new TreeSet<>(List.of(0, 1, 2, 3, 4, 5)), 3);
    Topology applied = applyAll(topology, steps, List.of(0, 1, 2, 3, 4, 5));
    SortedMap<Integer, SortedMap<Integer, Integer>> target =
        Planner.placement(new TreeSet<>(List.of(0, 1, 2, 3, 4, 5)), 6, 3);
    for (int partition = 1; partition <= 6; partition++) {
      assertThat(applied.replicasOf(partition).keySet())
          .as("partition %d", partition)
          .isEqualTo(replicasIn(target, partition));
      // Never fewer replicas than before or after, at any step of this partition.
      int replicas = topology.replicasOf(partition).size();
      for (Step step : steps) {
        if (step.partitionId() == partition) {
          replicas += step.operation() == Step.Operation.PARTITION_JOIN ? 1 : -1;
          assertThat(replicas).isGreaterThanOrEqualTo(3);
        }
      }
    }
    assertThat(applied.brokers().keySet()).containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(Planner.plan(applied, new TreeSet<>(List.of(0, 1, 2, 3, 4, 5)), 3)).isEmpty();
  }

  @Test
  void scalingDownRemovesTheBrokersOnceTheyHoldNothingAndTheReplicationFactorChanges() {
    Topology five =
        applyAll(
            Topology.initial(3, 3, 3),
            Planner.plan(Topology.initial(3, 3, 3), new TreeSet<>(List.of(0, 1, 2, 3, 4)), 3),
            List.of(0, 1, 2, 3, 4));
    Topology three =
        applyAll(five, Planner.plan(five, new TreeSet<>(List.of(0, 1, 2)), 2), List.of(0, 1, 2));
    assertThat(three.brokers().keySet()).containsExactly(0, 1, 2);
    assertThat(three.replicationFactor()).isEqualTo(2);
    assertThat(three.lastChange().status()).isEqualTo(Change.Status.COMPLETED);
    assertThat(three.pendingChange()).isNull();
  }

  @Test
  void aRequestThatDoesNotFitSaysWhy() {
    Topology topology = Topology.initial(3, 3, 3);
    assertThatThrownBy(() -> Planner.plan(topology, new TreeSet<>(List.of(0, 1)), 3))
        .hasMessageContaining("replication factor 3 needs between 1 and 2");
    assertThatThrownBy(() -> Planner.plan(topology, new TreeSet<>(), 1))
        .hasMessageContaining("at least one broker");
    assertThatThrownBy(() -> Planner.plan(topology, new TreeSet<>(List.of(0, 2000)), 1))
        .hasMessageContaining("broker id 2000 is outside [0, 1023]");
  }

  @Test
  void aTopologyReadsBackAsWrittenAndAJoiningBrokerHostsItsReplicaBeforeTheStepIsDone() {
    Topology topology = Topology.initial(3, 3, 3);
    List<Step> steps = Planner.plan(topology, new TreeSet<>(List.of(0, 1, 3)), 3);
    Topology planned = topology.withChange(change(steps, List.of(0, 1, 3)));
    assertThat(Topology.fromJson(planned.toJson())).isEqualTo(planned);
    assertThat(planned.currentStep()).isEqualTo(new Step(Step.Operation.PARTITION_JOIN, 3, 1, 1));
    assertThat(planned.partitionsToHost(3)).containsExactly(1);
    assertThat(planned.lists(3)).isTrue();
    assertThat(planned.lists(4)).isFalse();
    assertThatThrownBy(() -> Topology.fromJson("{\"version\": 1}"))
        .hasMessageContaining("without brokers");
  }

  private static Topology applyAll(Topology topology, List<Step> steps, List<Integer> brokers) {
    Topology result = topology.withChange(change(steps, brokers));
    while (result.pendingChange() != null) {
      result = result.withStepDone("2026-12-07T00:00:00Z");
    }
    return result;
  }

  private static Change change(List<Step> steps, List<Integer> brokers) {
    return new Change(
        7, Change.Status.IN_PROGRESS, "2026-12-07T00:00:00Z", null, brokers, 3, List.of(), steps);
  }

  private static java.util.Set<Integer> replicasIn(
      SortedMap<Integer, SortedMap<Integer, Integer>> placement, int partition) {
    java.util.Set<Integer> nodes = new TreeSet<>();
    placement.forEach(
        (node, partitions) -> {
          if (partitions.containsKey(partition)) {
            nodes.add(node);
          }
        });
    return nodes;
  }
}

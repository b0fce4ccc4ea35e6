package io.tern.engine.scaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.cluster.PartitionDistribution;
import io.tern.engine.scaling.Topology.Change;
import io.tern.engine.scaling.Topology.Step;
import io.tern.raft.Member;
import java.util.List;
import java.util.Map;
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
          replicas +=
              switch (step.operation()) {
                case PARTITION_JOIN -> 1;
                case PARTITION_LEAVE -> -1;
                case PARTITION_RECONFIGURE_PRIORITY -> 0;
              };
          assertThat(replicas).isGreaterThanOrEqualTo(3);
        }
      }
    }
    assertThat(applied.brokers()).as("replicas and priorities").isEqualTo(target);
    assertThat(Planner.plan(applied, new TreeSet<>(List.of(0, 1, 2, 3, 4, 5)), 3)).isEmpty();
  }

  @Test
  void keptReplicasTakeTheNewPlacementsPriorityAfterThePartitionsJoinsAndLeaves() {
    // 2 -> 3 brokers, 3 partitions of 2 replicas: broker 0 keeps partition 3 but is no longer
    // its primary (broker 2 is), so leaders can spread over the three brokers.
    Topology two = Topology.initial(2, 3, 2);
    TreeSet<Integer> three = new TreeSet<>(List.of(0, 1, 2));
    List<Step> steps = Planner.plan(two, three, 2);

    assertThat(steps)
        .containsExactly(
            new Step(Step.Operation.PARTITION_JOIN, 2, 2, 1),
            new Step(Step.Operation.PARTITION_LEAVE, 0, 2, 0),
            new Step(Step.Operation.PARTITION_JOIN, 2, 3, 2),
            new Step(Step.Operation.PARTITION_LEAVE, 1, 3, 0),
            new Step(Step.Operation.PARTITION_RECONFIGURE_PRIORITY, 0, 3, 1));
    assertThat(steps.get(4)).hasToString("broker 0 takes priority 1 in partition 3");
    Topology applied = applyAll(two, steps, List.of(0, 1, 2));
    assertThat(applied.brokers()).isEqualTo(Planner.placement(three, 3, 2));
    assertThat(applied.replicasOf(3)).containsExactly(Map.entry(0, 1), Map.entry(2, 2));
    assertThat(Planner.plan(applied, three, 2)).isEmpty();
    // With the replication factor unchanged, only priorities move between the same brokers:
    // the placement of [0, 1, 2] seen from one that differs in priorities only.
    SortedMap<Integer, SortedMap<Integer, Integer>> swapped = new TreeMap<>(applied.brokers());
    swapped.put(0, new TreeMap<>(Map.of(1, 1, 3, 2)));
    swapped.put(1, new TreeMap<>(Map.of(1, 2, 2, 2)));
    Topology priorities = new Topology(9, 3, 2, 2, swapped, null, null);
    assertThat(Planner.plan(priorities, three, 2))
        .containsExactly(
            new Step(Step.Operation.PARTITION_RECONFIGURE_PRIORITY, 0, 1, 2),
            new Step(Step.Operation.PARTITION_RECONFIGURE_PRIORITY, 1, 1, 1),
            new Step(Step.Operation.PARTITION_RECONFIGURE_PRIORITY, 0, 3, 1));
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

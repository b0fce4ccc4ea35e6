package io.tern.engine.broker;

import io.tern.engine.cluster.PartitionDistribution;
import io.tern.engine.partition.EnginePartition;
import io.tern.raft.Member;
import io.tern.raft.RaftRole;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Moves each partition's leadership to its primary (the member with the highest priority) by Raft
 * leadership transfer. Each broker moves the partitions it leads; {@link Broker} asks every broker
 * and merges their outcomes. Idempotent, so a CronJob may call it often.
 */
final class Rebalancer {
  private final List<ManagementApi.Hosted> partitions;

  Rebalancer(List<ManagementApi.Hosted> partitions) {
    this.partitions = partitions;
  }

  /** The partitions led here: partition id to what was done. */
  CompletableFuture<Map<Integer, String>> rebalanceLocal() {
    Map<Integer, CompletableFuture<String>> actions = new TreeMap<>();
    for (ManagementApi.Hosted hosted : partitions) {
      EnginePartition partition = hosted.partition();
      if (partition.raft().role() != RaftRole.LEADER) {
        continue;
      }
      // The configuration in force, not the one the partition started with: a cluster change
      // (docs/scaling.md) may have moved the primary's replica to another broker.
      Member primary =
          partition.raft().membership().voters().stream()
              .max(Comparator.comparingInt(Member::priority))
              .orElseThrow();
      int primaryNode = PartitionDistribution.nodeIdOf(primary.id());
      if (partition.raft().memberId() == primary.id()) {
        actions.put(
            partition.partitionId(),
            CompletableFuture.completedFuture("already led by its primary, node " + primaryNode));
        continue;
      }
      actions.put(
          partition.partitionId(),
          partition
              .raft()
              .transferLeadership(primary.id())
              .handle(
                  (moved, error) ->
                      error == null && Boolean.TRUE.equals(moved)
                          ? "moved to its primary, node " + primaryNode
                          : "not moved: "
                              + (error == null
                                  ? "the primary, node " + primaryNode + ", did not take it"
                                  : ManagementApi.rootMessage(error))));
    }
    return CompletableFuture.allOf(actions.values().toArray(CompletableFuture[]::new))
        .thenApply(
            all -> {
              Map<Integer, String> outcomes = new TreeMap<>();
              actions.forEach((partitionId, action) -> outcomes.put(partitionId, action.join()));
              return outcomes;
            });
  }

  /** Fills in the partitions no broker reported leading. */
  static Map<Integer, String> complete(Map<Integer, String> outcomes, int partitionsCount) {
    Map<Integer, String> all = new TreeMap<>(outcomes);
    for (int partitionId = 1; partitionId <= partitionsCount; partitionId++) {
      all.putIfAbsent(
          partitionId, "not moved: no reachable broker leads it right now; call again later");
    }
    return all;
  }
}

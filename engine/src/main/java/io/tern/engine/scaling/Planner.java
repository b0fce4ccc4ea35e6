package io.tern.engine.scaling;

import io.tern.engine.scaling.Topology.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Plans a change: the placement the new set of brokers would have with {@code
 * PartitionDistribution}'s round robin (over the brokers sorted by id: partition {@code p}'s
 * replicas are the {@code (p - 1 + i)}-th brokers, priorities from the replication factor down),
 * and the steps that get there from the placement now, partition by partition: its new replicas
 * join first, then the old ones leave, so that no partition has fewer replicas than it had or will
 * have at any point; last, the replicas it keeps take the priority the new placement gives them
 * (Zeebe's PARTITION_RECONFIGURE_PRIORITY), so that rebalancing spreads leaders as the round robin
 * would.
 */
public final class Planner {
  /** The highest node id (as cluster.nodeId allows). */
  static final int MAX_NODE_ID = 1023;

  private Planner() {}

  /**
   * The placement of {@code brokers} with {@code replicationFactor}: node id to partition to
   * priority.
   */
  public static SortedMap<Integer, SortedMap<Integer, Integer>> placement(
      SortedSet<Integer> brokers, int partitionsCount, int replicationFactor) {
    List<Integer> ids = new ArrayList<>(brokers);
    SortedMap<Integer, SortedMap<Integer, Integer>> placement = new TreeMap<>();
    ids.forEach(id -> placement.put(id, new TreeMap<>()));
    for (int partition = 1; partition <= partitionsCount; partition++) {
      for (int replica = 0; replica < replicationFactor; replica++) {
        int node = ids.get((partition - 1 + replica) % ids.size());
        placement.get(node).put(partition, replicationFactor - replica);
      }
    }
    return placement;
  }

  /**
   * The steps from {@code topology}'s placement to that of {@code brokers} with {@code
   * replicationFactor}; empty when it is there already.
   *
   * @throws IllegalArgumentException naming what is wrong with the request
   */
  public static List<Step> plan(
      Topology topology, SortedSet<Integer> brokers, int replicationFactor) {
    if (brokers.isEmpty()) {
      throw new IllegalArgumentException("the cluster needs at least one broker");
    }
    for (int id : brokers) {
      if (id < 0 || id > MAX_NODE_ID) {
        throw new IllegalArgumentException(
            "broker id " + id + " is outside [0, " + MAX_NODE_ID + "] (cluster.nodeId)");
      }
    }
    if (replicationFactor < 1 || replicationFactor > brokers.size()) {
      throw new IllegalArgumentException(
          "replication factor "
              + replicationFactor
              + " needs between 1 and "
              + brokers.size()
              + " (the number of brokers)");
    }
    SortedMap<Integer, SortedMap<Integer, Integer>> target =
        placement(new TreeSet<>(brokers), topology.partitionsCount(), replicationFactor);
    List<Step> steps = new ArrayList<>();
    for (int partition = 1; partition <= topology.partitionsCount(); partition++) {
      SortedMap<Integer, Integer> now = topology.replicasOf(partition);
      List<Step> leaves = new ArrayList<>();
      for (var broker : target.entrySet()) {
        Integer priority = broker.getValue().get(partition);
        if (priority != null && !now.containsKey(broker.getKey())) {
          steps.add(new Step(Step.Operation.PARTITION_JOIN, broker.getKey(), partition, priority));
        }
      }
      List<Step> priorities = new ArrayList<>();
      for (var replica : now.entrySet()) {
        int node = replica.getKey();
        Integer priority = target.containsKey(node) ? target.get(node).get(partition) : null;
        if (priority == null) {
          leaves.add(new Step(Step.Operation.PARTITION_LEAVE, node, partition, 0));
        } else if (!priority.equals(replica.getValue())) {
          priorities.add(
              new Step(Step.Operation.PARTITION_RECONFIGURE_PRIORITY, node, partition, priority));
        }
      }
      steps.addAll(leaves);
      steps.addAll(priorities);
    }
    return steps;
  }
}

package io.tern.engine.scaling;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tern.engine.cluster.ClusterTopology;
import io.tern.engine.cluster.PartitionDistribution;
import io.tern.raft.Member;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where every partition's replicas are, and the change under way: what every broker keeps in {@code
 * cluster-topology.json} and gossips in its state (see docs/scaling.md). Immutable; a newer {@code
 * version} replaces an older one everywhere, and only the coordinator makes new versions.
 *
 * @param version raised by one with each change of this record
 * @param partitionsCount fixed for the life of the cluster
 * @param bootstrapClusterSize the cluster size the partitions were created with: with {@code
 *     bootstrapReplicationFactor} it gives each partition's bootstrap Raft group, which a replica
 *     added later must be created with too
 * @param brokers node id to the partitions it holds (partition id to Raft priority); a broker
 *     holding nothing is listed with none
 * @param lastChange the change finished or cancelled last, or null
 * @param pendingChange the change under way, or null: at most one
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Topology(
    long version,
    int partitionsCount,
    int bootstrapClusterSize,
    int bootstrapReplicationFactor,
    SortedMap<Integer, SortedMap<Integer, Integer>> brokers,
    Change lastChange,
    Change pendingChange) {
  static final ObjectMapper JSON =
      new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public Topology {
    if (brokers == null || brokers.isEmpty()) {
      throw new IllegalArgumentException("a topology without brokers");
    }
    SortedMap<Integer, SortedMap<Integer, Integer>> copy = new TreeMap<>();
    brokers.forEach((node, partitions) -> copy.put(node, new TreeMap<>(partitions)));
    brokers = copy;
  }

  /** What a cluster starts with: {@code PartitionDistribution}'s round robin with priorities. */
  public static Topology initial(int clusterSize, int partitionsCount, int replicationFactor) {
    SortedMap<Integer, SortedMap<Integer, Integer>> brokers = new TreeMap<>();
    for (int node = 0; node < clusterSize; node++) {
      brokers.put(node, new TreeMap<>());
    }
    for (int partition = 1; partition <= partitionsCount; partition++) {
      for (Member member :
          PartitionDistribution.membersOf(partition, clusterSize, replicationFactor)) {
        brokers.get(PartitionDistribution.nodeIdOf(member.id())).put(partition, member.priority());
      }
    }
    return new Topology(0, partitionsCount, clusterSize, replicationFactor, brokers, null, null);
  }

  /** The Raft group every replica of {@code partitionId} is created with, now and later. */
  public List<Member> bootstrapGroup(int partitionId) {
    return PartitionDistribution.membersOf(
        partitionId, bootstrapClusterSize, bootstrapReplicationFactor);
  }

  /** Node id to priority of the brokers holding {@code partitionId} (changes applied so far). */
  public SortedMap<Integer, Integer> replicasOf(int partitionId) {
    SortedMap<Integer, Integer> replicas = new TreeMap<>();
    brokers.forEach(
        (node, partitions) -> {
          Integer priority = partitions.get(partitionId);
          if (priority != null) {
            replicas.put(node, priority);
          }
        });
    return replicas;
  }

  /**
   * The partitions broker {@code nodeId} must host: those it holds, and the one it joins in the
   * step under way (it holds that replica before the group adds it).
   */
  public TreeSet<Integer> partitionsToHost(int nodeId) {
    TreeSet<Integer> partitions =
        new TreeSet<>(brokers.getOrDefault(nodeId, new TreeMap<>()).keySet());
    Step step = currentStep();
    if (step != null
        && step.operation() == Step.Operation.PARTITION_JOIN
        && step.brokerId() == nodeId) {
      partitions.add(step.partitionId());
    }
    return partitions;
  }

  /** The step the coordinator works on, or null. */
  public Step currentStep() {
    return pendingChange == null || pendingChange.pending().isEmpty()
        ? null
        : pendingChange.pending().get(0);
  }

  /** The replication factor in force: the most replicas of a partition. */
  public int replicationFactor() {
    int factor = 0;
    for (int partition = 1; partition <= partitionsCount; partition++) {
      factor = Math.max(factor, replicasOf(partition).size());
    }
    return factor;
  }

  /**
   * The broker that plans and applies changes: the lowest node id of the cluster, so that every
   * broker agrees without an election (as Zeebe's coordinator, broker 0 while it is a member).
   */
  public int coordinator() {
    return brokers.firstKey();
  }

  /** Whether {@code nodeId} is a broker of the cluster or one a change under way adds. */
  public boolean lists(int nodeId) {
    return brokers.containsKey(nodeId)
        || (pendingChange != null && pendingChange.targetBrokers().contains(nodeId));
  }

  /** This topology with the current step done: applied to the placement, moved to completed. */
  Topology withStepDone(String nowIso) {
    Step step = currentStep();
    SortedMap<Integer, SortedMap<Integer, Integer>> placed = new TreeMap<>(brokers);
    SortedMap<Integer, Integer> partitions =
        new TreeMap<>(placed.getOrDefault(step.brokerId(), new TreeMap<>()));
    if (step.operation() == Step.Operation.PARTITION_LEAVE) {
      partitions.remove(step.partitionId());
    } else {
      partitions.put(step.partitionId(), step.priority());
    }
    placed.put(step.brokerId(), partitions);
    List<Step> completed = new ArrayList<>(pendingChange.completed());
    completed.add(step);
    List<Step> pending =
        new ArrayList<>(pendingChange.pending().subList(1, pendingChange.pending().size()));
    Change change = pendingChange.withSteps(completed, pending);
    if (pending.isEmpty()) {
      // The brokers the change drops leave the list once they hold nothing.
      for (Integer node : List.copyOf(placed.keySet())) {
        if (!change.targetBrokers().contains(node) && placed.get(node).isEmpty()) {
          placed.remove(node);
        }
      }
      for (Integer node : change.targetBrokers()) {
        placed.putIfAbsent(node, new TreeMap<>());
      }
      return new Topology(
          version + 1,
          partitionsCount,
          bootstrapClusterSize,
          bootstrapReplicationFactor,
          placed,
          change.finished(Change.Status.COMPLETED, nowIso),
          null);
    }
    return new Topology(
        version + 1,
        partitionsCount,
        bootstrapClusterSize,
        bootstrapReplicationFactor,
        placed,
        lastChange,
        change);
  }

  /** This topology with {@code change} under way. */
  Topology withChange(Change change) {
    return new Topology(
        version + 1,
        partitionsCount,
        bootstrapClusterSize,
        bootstrapReplicationFactor,
        brokers,
        lastChange,
        change);
  }

  /**
   * This topology with the change under way cancelled: the steps done stay done, the others are
   * dropped (see docs/scaling.md for what that leaves).
   */
  Topology cancelled(String nowIso) {
    return new Topology(
        version + 1,
        partitionsCount,
        bootstrapClusterSize,
        bootstrapReplicationFactor,
        brokers,
        pendingChange.finished(Change.Status.CANCELLED, nowIso),
        null);
  }

  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the topology", e);
    }
  }

  /** Reads {@link #toJson()}'s output; an error says what is wrong with it. */
  /** What a gateway's Topology answer needs of a topology text (ClusterTopology). */
  public static ClusterTopology.Shape shapeOf(String json) {
    Topology topology = fromJson(json);
    return new ClusterTopology.Shape(
        topology.version(), topology.brokers().size(), topology.replicationFactor());
  }

  public static Topology fromJson(String json) {
    try {
      Topology topology = JSON.readValue(json, Topology.class);
      if (topology.brokers() == null || topology.brokers().isEmpty()) {
        throw new IllegalArgumentException("a topology without brokers: " + json);
      }
      return topology;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "unreadable cluster topology: " + e.getOriginalMessage(), e);
    }
  }

  /** One change: the steps done and those to do, one at a time. */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record Change(
      long id,
      Status status,
      String startedAt,
      String completedAt,
      List<Integer> targetBrokers,
      int targetReplicationFactor,
      List<Step> completed,
      List<Step> pending) {
    public enum Status {
      IN_PROGRESS,
      COMPLETED,
      CANCELLED
    }

    public Change {
      targetBrokers = List.copyOf(targetBrokers);
      completed = List.copyOf(completed);
      pending = List.copyOf(pending);
    }

    Change withSteps(List<Step> completed, List<Step> pending) {
      return new Change(
          id,
          status,
          startedAt,
          completedAt,
          targetBrokers,
          targetReplicationFactor,
          completed,
          pending);
    }

    Change finished(Status status, String nowIso) {
      return new Change(
          id,
          status,
          startedAt,
          nowIso,
          targetBrokers,
          targetReplicationFactor,
          completed,
          pending);
    }
  }

  /**
   * One step: a broker's replica of a partition joins the group (created, added as a learner,
   * promoted once caught up), leaves it (removed, then dropped with its data), or takes another
   * Raft priority ({@code priority}: the one it joins with or takes; 0 for a leave).
   */
  public record Step(Operation operation, int brokerId, int partitionId, int priority) {
    public enum Operation {
      PARTITION_JOIN,
      PARTITION_LEAVE,
      PARTITION_RECONFIGURE_PRIORITY
    }

    @Override
    public String toString() {
      return switch (operation) {
        case PARTITION_JOIN -> "broker " + brokerId + " joins partition " + partitionId;
        case PARTITION_LEAVE -> "broker " + brokerId + " leaves partition " + partitionId;
        case PARTITION_RECONFIGURE_PRIORITY ->
            "broker " + brokerId + " takes priority " + priority + " in partition " + partitionId;
      };
    }
  }

  /** For logs and errors: node id to partitions. */
  public String describePlacement() {
    StringBuilder text = new StringBuilder();
    for (Map.Entry<Integer, SortedMap<Integer, Integer>> broker : brokers.entrySet()) {
      text.append(text.length() == 0 ? "" : ", ")
          .append("broker ")
          .append(broker.getKey())
          .append(": ")
          .append(broker.getValue().keySet());
    }
    return text.toString();
  }
}

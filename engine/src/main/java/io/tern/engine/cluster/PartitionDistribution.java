package io.tern.engine.cluster;

import io.tern.raft.Member;
import java.util.ArrayList;
import java.util.List;

/**
 * Which brokers hold which partitions, as in Zeebe: round robin, partition {@code p}'s replicas are
 * nodes {@code p - 1, p, ...} (mod the cluster size), and the first, the primary, has the highest
 * priority, so that it wins elections when it can and rebalancing moves leadership to it. Raft
 * member ids are node ids + 1 (0 means "no member" in Raft).
 */
public final class PartitionDistribution {
  private PartitionDistribution() {}

  /** The members of {@code partitionId} with their priorities (replication factor down to 1). */
  public static List<Member> membersOf(int partitionId, int clusterSize, int replicationFactor) {
    if (partitionId < 1 || replicationFactor < 1 || replicationFactor > clusterSize) {
      throw new IllegalArgumentException(
          "partition "
              + partitionId
              + " with replication "
              + replicationFactor
              + " in a cluster of "
              + clusterSize);
    }
    List<Member> members = new ArrayList<>(replicationFactor);
    for (int replica = 0; replica < replicationFactor; replica++) {
      int nodeId = (partitionId - 1 + replica) % clusterSize;
      members.add(new Member(memberIdOf(nodeId), replicationFactor - replica));
    }
    return members;
  }

  public static int memberIdOf(int nodeId) {
    return nodeId + 1;
  }

  public static int nodeIdOf(int memberId) {
    return memberId - 1;
  }

  /** The primary's node id: the member with the highest priority. */
  public static int primaryOf(int partitionId, int clusterSize) {
    return (partitionId - 1) % clusterSize;
  }
}

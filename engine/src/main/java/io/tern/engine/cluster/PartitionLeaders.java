package io.tern.engine.cluster;

import io.tern.engine.cluster.BrokerMessages.BrokerState;
import io.tern.engine.cluster.BrokerMessages.PartitionState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The leader of each partition as the brokers' claims say: the broker that claims it with the
 * highest term (a deposed leader that has not heard of the new term yet claims a lower one). Read
 * from any thread; recomputed whenever a broker's state arrives or its stream breaks.
 */
final class PartitionLeaders {
  private final int partitionsCount;

  /** Node id of the leader of each partition (index partition - 1), -1 if none is known. */
  private volatile int[] leaders;

  PartitionLeaders(int partitionsCount) {
    this.partitionsCount = partitionsCount;
    int[] none = new int[partitionsCount];
    Arrays.fill(none, -1);
    this.leaders = none;
  }

  /** The node id of the broker that leads {@code partitionId} as far as is known, or -1. */
  int leaderOf(int partitionId) {
    int[] known = leaders;
    return partitionId < 1 || partitionId > known.length ? -1 : known[partitionId - 1];
  }

  /** The partitions whose leader is not known now, in id order. */
  List<Integer> withoutLeader() {
    int[] known = leaders;
    List<Integer> missing = new ArrayList<>();
    for (int index = 0; index < known.length; index++) {
      if (known[index] < 0) {
        missing.add(index + 1);
      }
    }
    return missing;
  }

  /** Recomputes every partition's leader from the states of the brokers now connected. */
  synchronized void recompute(List<BrokerState> brokers) {
    int[] next = new int[partitionsCount];
    long[] terms = new long[partitionsCount];
    Arrays.fill(next, -1);
    for (BrokerState state : brokers) {
      for (PartitionState partition : state.partitions()) {
        int index = partition.partitionId() - 1;
        if (partition.leader()
            && index >= 0
            && index < partitionsCount
            && partition.term() >= terms[index]) {
          next[index] = state.nodeId();
          terms[index] = partition.term();
        }
      }
    }
    leaders = next;
  }
}

package io.tern.engine.cluster;

import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.BrokerInfo;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.Partition;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.TopologyResponse;
import io.tern.engine.cluster.BrokerMessages.BrokerState;
import io.tern.engine.cluster.BrokerMessages.PartitionState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/** The gateway's Topology answer: every broker it knows of, as the brokers themselves said. */
public final class ClusterTopology implements Supplier<TopologyResponse> {
  public static final String VERSION = "tern-0.1.0";

  private final ClusterClient cluster;
  private final Supplier<BrokerState> self;
  private final int clusterSize;
  private final int replicationFactor;
  private final Function<String, Shape> shapeOf;

  /**
   * The size of a cluster changed online, read from the topology text a broker states
   * (docs/scaling.md). The reading is given by the broker's wiring (the scaling package's
   * Topology), which depends on this package, not the other way round.
   */
  public record Shape(long version, int clusterSize, int replicationFactor) {}

  /**
   * {@code self}: the state of the broker this gateway runs in, or null for a standalone one;
   * {@code shapeOf} reads a broker's topology text, throwing IllegalArgumentException where it
   * cannot.
   */
  public ClusterTopology(
      ClusterClient cluster,
      Supplier<BrokerState> self,
      int clusterSize,
      int replicationFactor,
      Function<String, Shape> shapeOf) {
    this.cluster = cluster;
    this.self = self;
    this.clusterSize = clusterSize;
    this.replicationFactor = replicationFactor;
    this.shapeOf = shapeOf;
  }

  @Override
  public TopologyResponse get() {
    List<BrokerState> brokers = new ArrayList<>(cluster.brokers());
    if (self != null) {
      brokers.add(self.get());
    }
    brokers.sort(Comparator.comparingInt(BrokerState::nodeId));
    int size = clusterSize;
    int factor = replicationFactor;
    // A cluster changed online (docs/scaling.md): the newest topology any broker holds says
    // how many brokers and replicas it has now; the configured values are those it began with.
    Shape newest = null;
    for (BrokerState broker : brokers) {
      if (!broker.topology().isEmpty()) {
        try {
          Shape known = shapeOf.apply(broker.topology());
          if (newest == null || known.version() > newest.version()) {
            newest = known;
          }
        } catch (IllegalArgumentException unreadable) {
          // a broker of another version: its topology is not used here
        }
      }
    }
    if (newest != null && newest.version() > 0) {
      size = newest.clusterSize();
      factor = newest.replicationFactor();
    }
    TopologyResponse.Builder topology =
        TopologyResponse.newBuilder()
            .setClusterSize(size)
            .setPartitionsCount(cluster.partitionsCount())
            .setReplicationFactor(factor)
            .setGatewayVersion(VERSION);
    for (BrokerState broker : brokers) {
      BrokerInfo.Builder info =
          BrokerInfo.newBuilder()
              .setNodeId(broker.nodeId())
              .setHost(broker.host())
              .setPort(broker.commandPort())
              .setVersion(VERSION);
      for (PartitionState partition : broker.partitions()) {
        info.addPartitions(
            Partition.newBuilder()
                .setPartitionId(partition.partitionId())
                .setRole(
                    partition.leader()
                        ? Partition.PartitionBrokerRole.LEADER
                        : Partition.PartitionBrokerRole.FOLLOWER)
                .setHealth(
                    partition.healthy()
                        ? Partition.PartitionBrokerHealth.HEALTHY
                        : Partition.PartitionBrokerHealth.UNHEALTHY));
      }
      topology.addBrokers(info);
    }
    return topology.build();
  }
}

package io.tern.engine.broker;

import io.tern.engine.cluster.BrokerApiServer;
import io.tern.engine.cluster.BrokerJobStreams;
import io.tern.engine.cluster.BrokerMessages;
import io.tern.engine.cluster.BrokerMessages.BrokerState;
import io.tern.engine.command.PartitionCommands.Answer;
import io.tern.engine.protocol.Intent;
import io.tern.engine.record.RecordValue;
import io.tern.engine.workflow.Partitions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * What a broker's command API serves from: commands for the partitions held here, the broker's
 * state, its job streams and the rebalancing of its partitions, asked for by gateways and other
 * brokers.
 */
final class CommandApiHost implements BrokerApiServer.Host {
  private final LocalPartitions partitions;
  private final BrokerJobStreams jobStreams;
  private final List<ManagementApi.Hosted> hosted;
  private final Supplier<BrokerState> state;
  private final ClusterScaling scaling;

  CommandApiHost(
      LocalPartitions partitions,
      BrokerJobStreams jobStreams,
      List<ManagementApi.Hosted> hosted,
      Supplier<BrokerState> state,
      ClusterScaling scaling) {
    this.scaling = scaling;
    this.partitions = partitions;
    this.jobStreams = jobStreams;
    this.hosted = hosted;
    this.state = state;
  }

  @Override
  public CompletableFuture<Answer> request(
      int partitionId, Intent intent, long key, RecordValue value, long timeoutMs) {
    return partitions.request(partitionId, intent, key, value, timeoutMs);
  }

  @Override
  public Partitions partitions() {
    return partitions;
  }

  @Override
  public BrokerState state() {
    return state.get();
  }

  @Override
  public BrokerJobStreams jobStreams() {
    return jobStreams;
  }

  @Override
  public CompletableFuture<Map<Integer, String>> rebalanceLocal() {
    return new Rebalancer(hosted).rebalanceLocal();
  }

  @Override
  public CompletableFuture<BrokerMessages.MembershipAnswer> membership(
      BrokerMessages.MembershipRequest request) {
    return scaling.membership(request);
  }

  @Override
  public CompletableFuture<BrokerMessages.ClusterAnswer> clusterChange(
      BrokerMessages.ClusterRequest request) {
    return scaling.endpoint().forwarded(request);
  }

  @Override
  public void brokerSubscribed(BrokerMessages.BrokerAddress address) {
    scaling.brokerSubscribed(address);
  }
}

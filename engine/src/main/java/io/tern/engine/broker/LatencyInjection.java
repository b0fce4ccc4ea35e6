package io.tern.engine.broker;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tern.engine.cluster.CallLatency;
import io.tern.engine.cluster.PartitionDistribution;
import io.tern.raft.transport.FaultInjectingTransport;
import io.tern.raft.transport.NettyRaftTransport;
import io.tern.raft.transport.RaftTransport;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The latency experiment ({@code experimental.network.*}) wired into a broker: injected on its Raft
 * links and on its command API calls to and from the delayed nodes, with a gauge and a warning that
 * say so. Without the experiment, both are the plain ones.
 */
final class LatencyInjection {
  // The broker's logger: the warning is about the broker.
  private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

  private LatencyInjection() {}

  /**
   * The Raft transport, behind the injected latency of {@code experimental.network.*} if any: each
   * delayed peer's link gets it, on the sending side (so each direction is delayed by its sender).
   */
  static RaftTransport raftTransport(
      BrokerConfig config, MeterRegistry registry, NettyRaftTransport netty) {
    NetworkLatency latency = config.networkLatency();
    if (!latency.active()) {
      return netty;
    }
    FaultInjectingTransport delayed = new FaultInjectingTransport(netty, config.nodeId());
    List<Integer> delayedNodes = new ArrayList<>();
    for (int node = 0; node < config.clusterSize(); node++) {
      if (latency.delays(config.nodeId(), node)) {
        delayed.setLinkFault(PartitionDistribution.memberIdOf(node), latency.linkFault());
        delayedNodes.add(node);
        Gauge.builder("tern.network.injected.latency", latency, l -> l.latency().toMillis())
            .description("latency injected on every message to this node (an experiment)")
            .baseUnit("milliseconds")
            .tags("to", Integer.toString(node))
            .register(registry);
      }
    }
    LOG.warn(
        "EXPERIMENT: broker {} injects {} (experimental.network.*): messages to nodes {} are"
            + " delayed; latencies measured here include it",
        config.nodeId(),
        latency.describe(),
        delayedNodes);
    return delayed;
  }

  /** The command API's share of the injected latency: the calls to and from delayed nodes. */
  static CallLatency callLatency(BrokerConfig config) {
    NetworkLatency latency = config.networkLatency();
    if (!latency.active()) {
      return CallLatency.NONE;
    }
    CallLatency.Delay delay =
        new CallLatency.Delay(latency.latency().toNanos(), latency.jitter().toNanos());
    return node -> latency.delays(config.nodeId(), node) ? delay : CallLatency.Delay.NONE;
  }
}

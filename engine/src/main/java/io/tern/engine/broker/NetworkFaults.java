package io.tern.engine.broker;

import io.tern.engine.cluster.PartitionDistribution;
import io.tern.raft.transport.FaultInjectingTransport;
import io.tern.raft.transport.LinkFault;
import io.tern.raft.transport.RaftTransport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Network partitions set at run time, for chaos tests ({@code
 * experimental.faultInjection.enabled}): {@code POST /actuator/faults/isolate/{nodes}} cuts this
 * broker's Raft links to those nodes (every message to them is lost), {@code POST
 * /actuator/faults/heal} restores them. Only what this broker sends is cut: a full partition asks
 * every broker on both sides. Off (the default), the Raft transport is the plain one and both
 * endpoints answer 404.
 */
final class NetworkFaults {
  // The broker's logger: the warnings are about the broker.
  private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

  /** The endpoints' common prefix. */
  static final String PREFIX = "/actuator/faults/";

  private final BrokerConfig config;
  private final FaultInjectingTransport injecting;

  private NetworkFaults(BrokerConfig config, FaultInjectingTransport injecting) {
    this.config = config;
    this.injecting = injecting;
  }

  /** Off: the transport as it is. */
  static NetworkFaults off(BrokerConfig config) {
    return new NetworkFaults(config, null);
  }

  /**
   * With {@code experimental.faultInjection.enabled}, wraps {@code transport} in one whose links
   * can be cut; returns the faults and the transport Raft is to use.
   */
  static NetworkFaults wrap(BrokerConfig config, RaftTransport transport) {
    if (!config.faultInjection()) {
      return off(config);
    }
    LOG.warn(
        "EXPERIMENT: broker {} lets its Raft links be cut at run time"
            + " (experimental.faultInjection.enabled): never in production",
        config.nodeId());
    return new NetworkFaults(config, new FaultInjectingTransport(transport, config.nodeId()));
  }

  /** The transport Raft uses: the injecting one when enabled, else null (use your own). */
  FaultInjectingTransport transport() {
    return injecting;
  }

  /** Answers a {@code POST /actuator/faults/...} request. */
  CompletableFuture<ManagementApi.Answer> handle(String method, String path) {
    if (injecting == null) {
      return done(
          ManagementApi.Answer.error(
              404,
              "fault injection is off; experimental.faultInjection.enabled turns it on (for chaos"
                  + " tests only)"));
    }
    if (!method.equals("POST")) {
      return done(ManagementApi.Answer.error(405, "method not allowed: " + method + " " + path));
    }
    String action = path.substring(PREFIX.length());
    if (action.equals("heal")) {
      injecting.clear();
      LOG.warn("EXPERIMENT: broker {} healed its Raft links", config.nodeId());
      return done(answer(List.of()));
    }
    if (!action.startsWith("isolate/")) {
      return done(
          ManagementApi.Answer.error(
              404, "no such fault: " + path + "; known: isolate/{node,node,...}, heal"));
    }
    List<Integer> nodes = new ArrayList<>();
    for (String item : action.substring("isolate/".length()).split(",")) {
      int node;
      try {
        node = Integer.parseInt(item.strip());
      } catch (NumberFormatException e) {
        return done(ManagementApi.Answer.error(400, "not a node id: '" + item + "' in " + path));
      }
      if (node < 0 || node >= config.clusterSize() || node == config.nodeId()) {
        return done(
            ManagementApi.Answer.error(
                400,
                "node "
                    + node
                    + " is not another broker of this cluster (0 to "
                    + (config.clusterSize() - 1)
                    + ", not "
                    + config.nodeId()
                    + ")"));
      }
      nodes.add(node);
    }
    for (int node : nodes) {
      injecting.setLinkFault(PartitionDistribution.memberIdOf(node), LinkFault.PARTITIONED);
    }
    LOG.warn("EXPERIMENT: broker {} cut its Raft links to nodes {}", config.nodeId(), nodes);
    return done(answer(nodes));
  }

  private ManagementApi.Answer answer(List<Integer> added) {
    List<Integer> cut = new ArrayList<>();
    for (int node = 0; node < config.clusterSize(); node++) {
      if (node != config.nodeId()
          && injecting.linkFault(PartitionDistribution.memberIdOf(node)).partitioned()) {
        cut.add(node);
      }
    }
    return ManagementApi.Answer.json(
        200,
        ManagementApi.object(
            json -> {
              json.writeArrayFieldStart("isolatedFrom");
              for (int node : cut) {
                json.writeNumber(node);
              }
              json.writeEndArray();
            }));
  }

  private static CompletableFuture<ManagementApi.Answer> done(ManagementApi.Answer answer) {
    return CompletableFuture.completedFuture(answer);
  }
}

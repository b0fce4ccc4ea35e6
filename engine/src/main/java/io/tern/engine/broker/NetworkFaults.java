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
 * Network partitions and slow links set at run time, for chaos tests ({@code
 * experimental.faultInjection.enabled}): {@code POST /actuator/faults/isolate/{nodes}} cuts this
 * broker's Raft links to those nodes (every message to them is lost), {@code POST
 * /actuator/faults/delay/{nodes}/{ms}} delays every message to them, {@code POST
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
      return done(answer());
    }
    if (action.startsWith("isolate/")) {
      return done(isolate(path, action.substring("isolate/".length())));
    }
    if (action.startsWith("delay/")) {
      return done(delay(path, action.substring("delay/".length())));
    }
    return done(
        ManagementApi.Answer.error(
            404,
            "no such fault: "
                + path
                + "; known: isolate/{node,node,...}, delay/{node,...}/{ms}, heal"));
  }

  private ManagementApi.Answer isolate(String path, String nodeList) {
    List<Integer> nodes = new ArrayList<>();
    ManagementApi.Answer refused = parseNodes(path, nodeList, nodes);
    if (refused != null) {
      return refused;
    }
    for (int node : nodes) {
      injecting.setLinkFault(PartitionDistribution.memberIdOf(node), LinkFault.PARTITIONED);
    }
    LOG.warn("EXPERIMENT: broker {} cut its Raft links to nodes {}", config.nodeId(), nodes);
    return answer();
  }

  /** {@code delay/1,2/300}: every Raft message to those nodes waits 300 ms (a slow link). */
  private ManagementApi.Answer delay(String path, String rest) {
    int slash = rest.lastIndexOf('/');
    if (slash < 0) {
      return ManagementApi.Answer.error(
          400, "a delay needs nodes and milliseconds: delay/{node,...}/{ms}, not " + path);
    }
    long delayMs;
    try {
      delayMs = Long.parseLong(rest.substring(slash + 1).strip());
    } catch (NumberFormatException e) {
      return ManagementApi.Answer.error(
          400, "not a delay in milliseconds: '" + rest.substring(slash + 1) + "' in " + path);
    }
    if (delayMs < 1 || delayMs > NetworkLatency.MAX.toMillis()) {
      return ManagementApi.Answer.error(
          400, "a delay must be 1 to " + NetworkLatency.MAX.toMillis() + " ms, not " + delayMs);
    }
    List<Integer> nodes = new ArrayList<>();
    ManagementApi.Answer refused = parseNodes(path, rest.substring(0, slash), nodes);
    if (refused != null) {
      return refused;
    }
    for (int node : nodes) {
      injecting.setLinkFault(PartitionDistribution.memberIdOf(node), LinkFault.delay(delayMs));
    }
    LOG.warn(
        "EXPERIMENT: broker {} delays its Raft messages to nodes {} by {} ms",
        config.nodeId(),
        nodes,
        delayMs);
    return answer();
  }

  /** Reads other brokers' ids into {@code nodes}; the refusal naming a bad one, or null. */
  private ManagementApi.Answer parseNodes(String path, String nodeList, List<Integer> nodes) {
    for (String item : nodeList.split(",")) {
      int node;
      try {
        node = Integer.parseInt(item.strip());
      } catch (NumberFormatException e) {
        return ManagementApi.Answer.error(400, "not a node id: '" + item + "' in " + path);
      }
      if (node < 0 || node >= config.clusterSize() || node == config.nodeId()) {
        return ManagementApi.Answer.error(
            400,
            "node "
                + node
                + " is not another broker of this cluster (0 to "
                + (config.clusterSize() - 1)
                + ", not "
                + config.nodeId()
                + ")");
      }
      nodes.add(node);
    }
    return null;
  }

  /** What this broker's links suffer now: the nodes it is cut from, and the delayed ones. */
  private ManagementApi.Answer answer() {
    return ManagementApi.Answer.json(
        200,
        ManagementApi.object(
            json -> {
              json.writeArrayFieldStart("isolatedFrom");
              for (int node = 0; node < config.clusterSize(); node++) {
                if (node != config.nodeId() && linkOf(node).partitioned()) {
                  json.writeNumber(node);
                }
              }
              json.writeEndArray();
              json.writeObjectFieldStart("delayMsTo");
              for (int node = 0; node < config.clusterSize(); node++) {
                if (node != config.nodeId()
                    && !linkOf(node).partitioned()
                    && linkOf(node).delayMs() > 0) {
                  json.writeNumberField(Integer.toString(node), linkOf(node).delayMs());
                }
              }
              json.writeEndObject();
            }));
  }

  private LinkFault linkOf(int node) {
    return injecting.linkFault(PartitionDistribution.memberIdOf(node));
  }

  private static CompletableFuture<ManagementApi.Answer> done(ManagementApi.Answer answer) {
    return CompletableFuture.completedFuture(answer);
  }
}

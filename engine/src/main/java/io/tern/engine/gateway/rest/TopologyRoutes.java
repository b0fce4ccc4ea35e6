package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.camunda.zeebe.gateway.protocol.GatewayGrpc;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.BrokerInfo;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.Partition;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.TopologyRequest;
import io.camunda.zeebe.gateway.protocol.GatewayOuterClass.TopologyResponse;
import io.vertx.core.http.HttpMethod;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * GET /v2/topology (the gRPC Topology answer in Camunda's shape) and GET /v2/status (204 while some
 * partition has a healthy leader, else 503).
 */
final class TopologyRoutes {
  private TopologyRoutes() {}

  static void register(
      Routes routes, GatewayGrpc.AsyncService service, Supplier<TopologyResponse> topology) {
    routes.json(
        HttpMethod.GET,
        "/v2/topology",
        exchange ->
            service.topology(
                TopologyRequest.getDefaultInstance(), exchange.reply(TopologyRoutes::topology)));
    routes.json(
        HttpMethod.GET,
        "/v2/status",
        exchange -> {
          if (anyHealthyLeader(topology.get())) {
            exchange.noContent();
          } else {
            exchange.fail(
                io.grpc.Status.UNAVAILABLE
                    .withDescription("no partition has a healthy leader")
                    .asRuntimeException());
          }
        });
  }

  private static boolean anyHealthyLeader(TopologyResponse topology) {
    return topology.getBrokersList().stream()
        .flatMap(broker -> broker.getPartitionsList().stream())
        .anyMatch(
            partition ->
                partition.getRole() == Partition.PartitionBrokerRole.LEADER
                    && partition.getHealth() == Partition.PartitionBrokerHealth.HEALTHY);
  }

  static ObjectNode topology(TopologyResponse topology) {
    ObjectNode document = Json.MAPPER.createObjectNode();
    ArrayNode brokers = document.putArray("brokers");
    for (BrokerInfo broker : topology.getBrokersList()) {
      ObjectNode node = brokers.addObject();
      node.put("nodeId", broker.getNodeId());
      node.put("host", broker.getHost());
      node.put("port", broker.getPort());
      node.put("version", broker.getVersion());
      ArrayNode partitions = node.putArray("partitions");
      for (Partition partition : broker.getPartitionsList()) {
        ObjectNode entry = partitions.addObject();
        entry.put("partitionId", partition.getPartitionId());
        entry.put("role", partition.getRole().name().toLowerCase(Locale.ROOT));
        entry.put("health", partition.getHealth().name().toLowerCase(Locale.ROOT));
      }
    }
    document.put("clusterSize", topology.getClusterSize());
    document.put("partitionsCount", topology.getPartitionsCount());
    document.put("replicationFactor", topology.getReplicationFactor());
    document.put("gatewayVersion", topology.getGatewayVersion());
    return document;
  }
}

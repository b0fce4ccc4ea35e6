package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.cluster.ClusterClient;
import io.tern.engine.gateway.GatewayJobStreams;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A standalone gateway's /actuator/cluster before any broker told it the topology. */
class GatewayManagementApiTest {
  @TempDir Path dir;

  @Test
  void clusterAnswersWaitForABrokersTopologyAndWritesNeedTheTokenFirst() {
    // Never started: no broker has sent its state.
    try (ClusterClient cluster =
        new ClusterClient(List.of(InetSocketAddress.createUnresolved("127.0.0.1", 1)), -1, 1)) {
      GatewayManagementApi api =
          new GatewayManagementApi(
              cluster,
              () -> "",
              new GatewayJobStreams(),
              TestBrokers.config(dir, Map.of()).managementToken());

      ManagementApi.Answer get = api.handle("GET", "/actuator/cluster/", Map.of(), null, "").join();
      assertThat(get.status()).isEqualTo(503);
      assertThat(get.body()).contains("no broker has told this gateway the cluster's topology");

      String brokers = "/actuator/cluster/brokers";
      assertThat(api.handle("POST", brokers, Map.of(), null, "[0]").join().status()).isEqualTo(401);
      ManagementApi.Answer withToken =
          api.handle("POST", brokers, Map.of(), TestBrokers.BEARER, "[0]").join();
      assertThat(withToken.status()).isEqualTo(503);
      assertThat(withToken.body()).contains("no broker has told this gateway");

      ManagementApi.Answer unknown =
          api.handle("GET", "/actuator/nothing", Map.of(), null, "").join();
      assertThat(unknown.status()).isEqualTo(404);
      assertThat(unknown.body()).contains("GET /actuator/cluster");
    }
  }
}

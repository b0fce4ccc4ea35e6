package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metrics name their broker ({@code node_id}) and their standalone gateway ({@code gateway}),
 * so a dashboard filters by them and a series survives a pod's new address; a standalone gateway's
 * management port exports its calls' rates, latencies and status codes.
 */
@Tag("slow") // a broker behind a standalone gateway: docs/testing.md
class MetricsTagsTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dir;

  @Test
  void brokersAndStandaloneGatewaysTagTheirSeriesAndTheGatewayExportsItsCalls() throws Exception {
    try (Broker broker = Broker.start(TestBrokers.config(dir.resolve("broker"), Map.of()));
        StandaloneGateway gateway =
            StandaloneGateway.start(
                TestBrokers.config(
                    dir.resolve("gateway"),
                    Map.of("TERN_CLUSTER_CONTACTPOINTS", "127.0.0.1:" + broker.commandPort())));
        CamundaClient client =
            CamundaClient.newClientBuilder()
                .grpcAddress(URI.create("http://127.0.0.1:" + gateway.port()))
                .preferRestOverGrpc(false)
                .defaultRequestTimeout(Duration.ofSeconds(10))
                .build()) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      assertThat(gateway.awaitLeaders(Duration.ofSeconds(30))).isTrue();
      client.newTopologyRequest().send().join();

      String brokerMetrics = scrape(broker.managementPort());
      assertThat(brokerMetrics)
          .contains("tern_raft_role{node_id=\"0\",partition=\"1\"")
          .contains("jvm_threads_live_threads{node_id=\"0\"}");
      String gatewayMetrics = scrape(gateway.managementPort());
      String name = StandaloneGateway.gatewayName();
      assertThat(gatewayMetrics)
          .contains(
              "tern_gateway_request_latency_seconds_count{code=\"OK\",gateway=\""
                  + name
                  + "\",method=\"Topology\"} 1")
          .contains("tern_gateway_request_latency_seconds_bucket{code=\"OK\",gateway=\"" + name)
          .contains("jvm_threads_live_threads{gateway=\"" + name + "\"}");
    }
  }

  private static String scrape(int port) throws Exception {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }
}

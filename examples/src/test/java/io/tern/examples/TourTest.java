package io.tern.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.broker.Broker;
import io.tern.engine.broker.BrokerConfigLoader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's tour runs against a broker with default settings and ships the order. */
@Tag("slow") // a broker with default settings, end to end: docs/testing.md
class TourTest {
  @TempDir Path dir;

  @Test
  void theTourDeploysCreatesAndFinishesAnOrder() throws Exception {
    Map<String, String> settings =
        Map.of(
            "TERN_DATA_DIRECTORY", dir.resolve("data").toString(),
            "TERN_NETWORK_HOST", "127.0.0.1",
            "TERN_NETWORK_COMMANDPORT", "0",
            "TERN_NETWORK_INTERNALPORT", "0",
            "TERN_GATEWAY_PORT", "0",
            "TERN_GATEWAY_REST_PORT", "0",
            "TERN_MANAGEMENT_PORT", "0");
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (Broker broker = Broker.start(BrokerConfigLoader.load(null, settings), registry);
        CamundaClient client =
            CamundaClient.newClientBuilder()
                .grpcAddress(URI.create("http://127.0.0.1:" + broker.gatewayPort()))
                // The client's defaults, as the tour's: commands over REST, jobs streamed by gRPC.
                .restAddress(URI.create("http://127.0.0.1:" + broker.restPort()))
                // A cold broker's first deployment starts the FEEL engine: on a loaded machine that
                // can outlast the client's default 10 s.
                .defaultRequestTimeout(Duration.ofSeconds(30))
                .build()) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      ByteArrayOutputStream printed = new ByteArrayOutputStream();

      Map<String, Object> order =
          Tour.run(client, new PrintStream(printed, true, StandardCharsets.UTF_8));

      assertThat(order)
          .containsEntry("orderId", "A-1")
          .containsEntry("inStock", true)
          .containsKey("trackingId");
      assertThat(printed.toString(StandardCharsets.UTF_8))
          .contains("Deployed order.bpmn")
          .contains("check-stock: teapot is in stock")
          .contains("ship: parcel handed to the carrier")
          .contains("finished with");
      // The client's defaults sent the deployment and the order over REST, not gRPC.
      assertThat(registry.find("tern.gateway.rest.request.latency").tag("status", "200").timers())
          .extracting(timer -> timer.getId().getTag("route"))
          .contains("POST /v2/deployments", "POST /v2/process-instances");
    }
  }
}

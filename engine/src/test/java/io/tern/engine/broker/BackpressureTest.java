package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ClientStatusException;
import io.camunda.client.api.response.PublishMessageResponse;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An overloaded partition answers RESOURCE_EXHAUSTED at once instead of queueing. */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class BackpressureTest {
  @TempDir Path dir;

  @Test
  void commandsOverThePartitionsLimitAreRefusedWithResourceExhausted() throws Exception {
    BrokerConfig config =
        TestBrokers.config(
            dir,
            Map.of("TERN_BACKPRESSURE_ALGORITHM", "fixed", "TERN_BACKPRESSURE_FIXED_LIMIT", "1"));
    try (Broker broker = Broker.start(config);
        CamundaClient client = TestBrokers.client(broker)) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      List<CompletableFuture<PublishMessageResponse>> sent = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        sent.add(
            client
                .newPublishMessageCommand()
                .messageName("m")
                .correlationKey("k-" + i)
                .send()
                .toCompletableFuture());
      }
      int accepted = 0;
      int refused = 0;
      for (CompletableFuture<PublishMessageResponse> each : sent) {
        try {
          each.join();
          accepted++;
        } catch (ClientStatusException e) {
          assertThat(e.getStatusCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
          assertThat(e).hasMessageContaining("limit");
          refused++;
        }
      }
      assertThat(accepted).as("at least the first goes through").isPositive();
      assertThat(refused).as("fifty at once over a limit of one").isPositive();
    }
  }
}

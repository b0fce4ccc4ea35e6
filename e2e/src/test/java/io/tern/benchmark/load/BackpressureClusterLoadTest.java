package io.tern.benchmark.load;

import io.camunda.client.CamundaClient;
import io.tern.benchmark.common.Progress;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link BackpressureLoadTest}'s steady loads on three brokers (a class of its own so that it runs
 * beside the one-broker cases in another test JVM): never refused, with or without results, with
 * one task or ten, 16 or 64 in flight.
 */
@Tag("slow") // fixed-duration loads on three broker processes: docs/testing.md
class BackpressureClusterLoadTest {
  @TempDir Path dir;

  @Test
  void steadyLoadsOnThreeBrokersAreNeverRefused() throws Exception {
    try (LocalCluster cluster =
            LocalCluster.start(
                3, 3, 3, "sync", Map.of("TERN_GATEWAY_REST_PORT", "0"), dir, new Progress());
        CamundaClient client = BackpressureLoadTest.client(cluster.gateway())) {
      BackpressureLoadTest.assertNoRefusals(client, cluster.managementAddresses(), "3 brokers");
    }
  }
}

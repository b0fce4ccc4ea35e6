package io.tern.benchmark.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.tern.engine.broker.Broker;
import io.tern.engine.broker.BrokerConfigLoader;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backpressure at default settings, driven by the official client as an application would: steady
 * closed-loop loads the engine has capacity for are never refused, on one broker and on three,
 * whether the client awaits each instance's result or not; an overload is refused at once rather
 * than left to time out. (How fast, and how the limit moves, is the load benchmark's to report.)
 * Three brokers: {@link BackpressureClusterLoadTest}.
 */
@Tag("slow") // fixed-duration loads on one broker and on three: docs/testing.md
class BackpressureLoadTest {
  private static final Duration RUN = Duration.ofSeconds(4);
  private static final Duration DRAIN = Duration.ofSeconds(40);

  @TempDir Path dir;

  @Test
  void steadyLoadsOnOneBrokerAreNeverRefused() throws Exception {
    try (Broker broker = Broker.start(BrokerConfigLoader.load(null, localBroker()));
        CamundaClient client = client("127.0.0.1:" + broker.gatewayPort())) {
      assertThat(broker.awaitReady(Duration.ofMinutes(1))).isTrue();
      assertNoRefusals(client, List.of("127.0.0.1:" + broker.managementPort()), "1 broker");
    }
  }

  @Test
  void anOverloadIsRefusedAtOnceAndNothingTimesOut() throws Exception {
    try (Broker broker = Broker.start(BrokerConfigLoader.load(null, localBroker()));
        CamundaClient client = client("127.0.0.1:" + broker.gatewayPort())) {
      assertThat(broker.awaitReady(Duration.ofMinutes(1))).isTrue();
      LoadStats.Interval outcome =
          run(client, List.of("127.0.0.1:" + broker.managementPort()), 2_000, 1, true);
      assertThat(outcome.refused)
          .as("2,000 instances at once, far over the partition's limit")
          .isPositive();
      assertThat(outcome.failed).as("every create was answered: a result or a refusal").isZero();
      assertThat(outcome.ended).as("the work admitted goes through").isPositive();
    }
  }

  static void assertNoRefusals(CamundaClient client, List<String> management, String where)
      throws Exception {
    LimiterGauges gauges = new LimiterGauges(management);
    for (boolean withResult : new boolean[] {true, false}) {
      for (int tasks : new int[] {1, 10}) {
        for (int inFlight : new int[] {16, 64}) {
          LoadStats.Interval outcome = run(client, management, inFlight, tasks, withResult);
          String load =
              String.format(
                  "%s, %d in flight, %d task(s), %s; limits now %s",
                  where, inFlight, tasks, withResult ? "with result" : "without", gauges.read());
          assertThat(outcome.ended).as("instances ended: " + load).isPositive();
          assertThat(outcome.refused).as("refused: " + load).isZero();
          assertThat(outcome.failed).as("failed: " + load).isZero();
        }
      }
    }
  }

  /** A closed loop of {@code inFlight} instances for {@link #RUN}, until all have ended. */
  private static LoadStats.Interval run(
      CamundaClient client, List<String> management, int inFlight, int tasks, boolean withResult)
      throws Exception {
    LoadStats stats = new LoadStats();
    List<String> errors = new CopyOnWriteArrayList<>();
    LoadDriver.Workload workload =
        new LoadDriver.Workload(
            tasks, 100, withResult, true, 256, Duration.ZERO, Duration.ofSeconds(30));
    try (LoadDriver driver = new LoadDriver(client, workload, stats, errors::add)) {
      driver.start();
      driver.closedLoop(inFlight, System.nanoTime() + RUN.toNanos(), Duration.ofMillis(200));
      boolean drained = driver.awaitOutstanding(DRAIN);
      assertThat(drained)
          .as(
              "%d instance(s) still in flight %d s after the run (%d in flight, %d task(s), %s);"
                  + " errors: %s; where they are: %s",
              driver.outstanding(),
              DRAIN.toSeconds(),
              inFlight,
              tasks,
              withResult ? "with result" : "without",
              errors,
              whereTheyAre(driver.runningInstances(), management))
          .isTrue();
    }
    assertThat(errors).as("errors").isEmpty();
    return stats.interval();
  }

  private Map<String, String> localBroker() {
    return Map.of(
        "TERN_DATA_DIRECTORY", dir.resolve("broker").toString(),
        "TERN_NETWORK_HOST", "127.0.0.1",
        "TERN_NETWORK_COMMANDPORT", "0",
        "TERN_NETWORK_INTERNALPORT", "0",
        "TERN_GATEWAY_PORT", "0",
        "TERN_GATEWAY_REST_PORT", "0",
        "TERN_MANAGEMENT_PORT", "0");
  }

  static CamundaClient client(String gateway) {
    return CamundaClient.newClientBuilder()
        .grpcAddress(URI.create("http://" + gateway))
        .preferRestOverGrpc(false)
        .defaultRequestTimeout(Duration.ofSeconds(30))
        .numJobWorkerExecutionThreads(1)
        .build();
  }

  /** What the brokers say of each instance (GET /actuator/instances/{key}), for a failure. */
  private static String whereTheyAre(List<Long> keys, List<String> management) {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    StringBuilder where = new StringBuilder();
    for (long key : keys.subList(0, Math.min(3, keys.size()))) {
      for (String address : management) {
        try {
          java.net.http.HttpResponse<String> answer =
              http.send(
                  java.net.http.HttpRequest.newBuilder(
                          java.net.URI.create("http://" + address + "/actuator/instances/" + key))
                      .timeout(Duration.ofSeconds(5))
                      .build(),
                  java.net.http.HttpResponse.BodyHandlers.ofString());
          where.append('\n').append(key).append(" at ").append(address).append(": ");
          where.append(answer.statusCode()).append(' ').append(answer.body());
        } catch (java.io.IOException | InterruptedException e) {
          where.append('\n').append(key).append(": ").append(e);
        }
      }
    }
    return keys.isEmpty() ? "(instances created with result: keys unknown)" : where.toString();
  }
}

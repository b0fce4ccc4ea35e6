package io.tern.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * docker/compose.yaml describes three brokers that name each other, a gateway, a starter, a worker,
 * Prometheus scraping every management port and Grafana provisioned with dashboards/tern.json; and
 * its three brokers form a cluster when podman-compose brings them up with the image from
 * docker/Dockerfile, and its starter's instances go through its gateway to its worker (skipped,
 * loudly, where podman or podman-compose is not installed).
 */
@Tag("slow") // containers (podman compose): docs/testing.md
@ResourceLock(Podman.CONTAINERS)
class ComposeTest {
  private static final Path COMPOSE = Podman.ROOT.resolve("docker/compose.yaml");
  private static final List<String> BROKERS = List.of("broker-0", "broker-1", "broker-2");

  /** What compose runs on the Tern image; Prometheus and Grafana need a registry to pull from. */
  private static final List<String> CLIENTS = List.of("gateway", "starter", "worker");

  private static final Pattern ENDED =
      Pattern.compile("instances ended by their last task ([0-9][0-9,.]*)/s");

  @SuppressWarnings("unchecked")
  private static Map<String, Object> load(Path file) throws Exception {
    return (Map<String, Object>)
        merged(new Load(LoadSettings.builder().build()).loadFromString(Files.readString(file)));
  }

  /** YAML 1.1 merge keys ({@code <<: *anchor}), which compose honours and YAML 1.2 leaves be. */
  @SuppressWarnings("unchecked")
  private static Object merged(Object node) {
    if (node instanceof Map<?, ?> map) {
      Map<String, Object> result = new java.util.LinkedHashMap<>();
      Object base = map.get("<<");
      if (base != null) {
        result.putAll((Map<String, Object>) merged(base));
      }
      map.forEach(
          (k, v) -> {
            if (!"<<".equals(k)) {
              result.put(k.toString(), merged(v));
            }
          });
      return result;
    }
    if (node instanceof List<?> list) {
      return list.stream().map(ComposeTest::merged).toList();
    }
    return node;
  }

  @Test
  @SuppressWarnings("unchecked")
  void theComposeFileWiresBrokersGatewayClientsPrometheusAndGrafana() throws Exception {
    Map<String, Object> services = (Map<String, Object>) load(COMPOSE).get("services");
    assertThat(services.keySet())
        .containsExactlyInAnyOrder(
            "broker-0",
            "broker-1",
            "broker-2",
            "gateway",
            "starter",
            "worker",
            "prometheus",
            "grafana");
    for (int n = 0; n < BROKERS.size(); n++) {
      Map<String, Object> broker = (Map<String, Object>) services.get(BROKERS.get(n));
      Map<String, Object> env = (Map<String, Object>) broker.get("environment");
      assertThat(env)
          .containsEntry("TERN_CLUSTER_NODEID", Integer.toString(n))
          .containsEntry("TERN_NETWORK_ADVERTISEDHOST", BROKERS.get(n))
          .containsEntry(
              "TERN_CLUSTER_CONTACTPOINTS", "broker-0:26501,broker-1:26501,broker-2:26501")
          .containsEntry("TERN_CLUSTER_CLUSTERSIZE", "3")
          // operations off unless the one running compose gives a token
          .containsEntry("TERN_MANAGEMENT_SECURITY_TOKEN", "${TERN_MANAGEMENT_TOKEN:-}");
      assertThat(broker.get("command").toString()).isEqualTo("[broker]");
    }
    assertThat(services.get("gateway").toString()).contains("command=[gateway]");
    assertThat(((Map<String, Object>) services.get("starter")).get("command").toString())
        .startsWith("[tern-benchmark, starter, --gateway, gateway:26500");
    assertThat(((Map<String, Object>) services.get("worker")).get("command").toString())
        .startsWith("[tern-benchmark, worker, --gateway, gateway:26500");

    Map<String, Object> prometheus = load(Podman.ROOT.resolve("docker/prometheus.yml"));
    String scrape = prometheus.get("scrape_configs").toString();
    assertThat(scrape).contains("metrics_path=/actuator/prometheus");
    for (String service : List.of("broker-0", "broker-1", "broker-2", "gateway")) {
      assertThat(scrape).contains(service + ":9600");
    }
    List<String> grafanaVolumes =
        (List<String>) ((Map<String, Object>) services.get("grafana")).get("volumes");
    assertThat(grafanaVolumes)
        .contains("../dashboards:/var/lib/grafana/dashboards:ro")
        .contains("./grafana/provisioning:/etc/grafana/provisioning:ro");
    assertThat(
            Files.readString(
                Podman.ROOT.resolve("docker/grafana/provisioning/dashboards/tern.yaml")))
        .contains("path: /var/lib/grafana/dashboards");
    assertThat(Podman.ROOT.resolve("dashboards/tern.json")).exists();
  }

  @Test
  void composesThreeBrokersFormACluster() throws Exception {
    Podman.assumeInstalled();
    boolean compose;
    try {
      compose = Podman.run(Duration.ofSeconds(30), "podman-compose", "version").code() == 0;
    } catch (java.io.IOException e) {
      compose = false;
    }
    if (!compose) {
      String message = "podman-compose is not installed: compose's brokers are not started";
      System.err.println("\n*** SKIPPED: " + message + " ***\n");
      assumeTrue(false, message);
    }
    Podman.buildImage();
    String project = "tern-compose-" + ProcessHandle.current().pid();
    List<String> up =
        new ArrayList<>(
            List.of(
                "env",
                "TERN_IMAGE=" + Podman.IMAGE,
                // tern-rebalance in broker-0 reads it from the broker's environment.
                "TERN_MANAGEMENT_TOKEN=compose-test-management-token-01",
                // Free host ports, not 26500 and 8080: other modules' brokers may hold those.
                "TERN_GATEWAY_PORT=" + ImageTest.freePort(),
                "TERN_REST_PORT=" + ImageTest.freePort(),
                "podman-compose"));
    up.addAll(List.of("-p", project, "-f", COMPOSE.toString(), "up", "-d", "--no-build"));
    up.addAll(BROKERS);
    up.addAll(CLIENTS);
    try {
      Podman.Result started = Podman.run(Duration.ofMinutes(3), up.toArray(String[]::new));
      assertThat(started.code()).as("%s:\n%s", up, started.output()).isZero();
      List<String> rebalance =
          new ArrayList<>(
              List.of("podman", "exec", project + "_broker-0_1", "tern-rebalance", "--wait-ready"));
      BROKERS.forEach(b -> rebalance.add(b + ":9600"));
      Podman.Result rebalanced =
          Podman.run(Duration.ofMinutes(4), rebalance.toArray(String[]::new));
      assertThat(rebalanced.code()).as("%s:\n%s", rebalance, rebalanced.output()).isZero();
      assertThat(rebalanced.output())
          .as("every broker ready by its compose name, and the leaders of the 3 partitions known")
          .contains("broker-2:9600 is ready")
          .contains("\"1\":")
          .contains("\"2\":")
          .contains("\"3\":");
      // Readiness may dip while the rebalance moves leaders; the image's check allows 3 misses
      // in a row (HEALTHCHECK --retries=3), so one miss here is no failure either.
      await("the image's health check in compose passes")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> Podman.podman("healthcheck", "run", project + "_broker-1_1").code() == 0);
      // The starter deploys and starts instances through the gateway; the worker completes them.
      await("compose's worker ends the starter's instances")
          .atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofSeconds(2))
          .until(() -> instancesEnded(project + "_worker_1"), rate -> rate > 0);
    } finally {
      Podman.run(
          Duration.ofMinutes(2),
          "env",
          "TERN_IMAGE=" + Podman.IMAGE,
          "podman-compose",
          "-p",
          project,
          "-f",
          COMPOSE.toString(),
          "down",
          "-v");
      Podman.podman("network", "rm", "-f", project + "_default");
    }
  }

  /** The highest rate of ended instances a worker container's progress lines report so far. */
  private static double instancesEnded(String container) throws Exception {
    Matcher matcher = ENDED.matcher(Podman.podman("logs", container).output());
    double highest = 0;
    while (matcher.find()) {
      highest = Math.max(highest, Double.parseDouble(matcher.group(1).replace(",", "")));
    }
    return highest;
  }
}

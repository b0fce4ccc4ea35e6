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
  private static final String TOKEN = "compose-test-management-token-01";
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
          .containsEntry("TERN_MANAGEMENT_SECURITY_TOKEN", "${TERN_MANAGEMENT_TOKEN}");
      assertThat(broker.get("command").toString()).isEqualTo("[broker]");
    }
    assertThat(services.get("gateway").toString()).contains("command=[gateway]");
    // Management ports published on the loopback only, one host port per service.
    List<String> managementPorts = new ArrayList<>();
    for (String service : List.of("broker-0", "broker-1", "broker-2", "gateway")) {
      List<String> ports =
          (List<String>) ((Map<String, Object>) services.get(service)).get("ports");
      String management = ports.stream().filter(p -> p.endsWith(":9600")).findFirst().orElseThrow();
      assertThat(management).startsWith("127.0.0.1:");
      managementPorts.add(management);
    }
    assertThat(managementPorts).doesNotHaveDuplicates();
    for (String client : List.of("starter", "worker")) {
      // The image's health check asks a management port the benchmark commands do not serve.
      assertThat(((Map<String, Object>) services.get(client)).get("healthcheck").toString())
          .isEqualTo("{test=[NONE]}");
    }
    // Every service on the Tern image mounts a named volume where the image declares its VOLUME:
    // down -v removes named volumes, and podman-compose would leave an anonymous one behind.
    Map<String, Object> volumes = (Map<String, Object>) load(COMPOSE).get("volumes");
    for (String service :
        List.of("broker-0", "broker-1", "broker-2", "gateway", "starter", "worker")) {
      List<String> mounts =
          (List<String>) ((Map<String, Object>) services.get(service)).get("volumes");
      String data =
          mounts.stream()
              .filter(m -> m.endsWith(":/usr/local/tern/data"))
              .findFirst()
              .orElseThrow();
      assertThat(volumes).containsKey(data.substring(0, data.indexOf(':')));
    }
    // podman-compose 1.0.3 ignores name: every command in the docs names the project itself.
    String deploy = Files.readString(Podman.ROOT.resolve("docs/deploy.md"));
    List<String> composeCommands =
        deploy
            .lines()
            .filter(l -> l.matches(".*(docker compose|podman-compose) .*-f docker/compose.yaml.*"))
            .toList();
    assertThat(composeCommands).isNotEmpty();
    assertThat(composeCommands)
        .allMatch(l -> l.contains("compose -p tern") || l.contains("podman-compose -p tern"));
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
    int[] managementPorts = new int[4];
    for (int i = 0; i < managementPorts.length; i++) {
      managementPorts[i] = ImageTest.freePort();
    }
    List<String> volumes = new ArrayList<>();
    List<String> up =
        new ArrayList<>(
            List.of(
                "env",
                "TERN_IMAGE=" + Podman.IMAGE,
                // tern-rebalance in broker-0 reads it from the broker's environment.
                "TERN_MANAGEMENT_TOKEN=" + TOKEN,
                "TERN_JAVA_OPTS=" + Podman.TEST_JAVA_OPTS,
                // Free host ports, not 26500 and 8080: other modules' brokers may hold those.
                "TERN_GATEWAY_PORT=" + ImageTest.freePort(),
                "TERN_REST_PORT=" + ImageTest.freePort(),
                "TERN_BROKER_0_MANAGEMENT_PORT=" + managementPorts[0],
                "TERN_BROKER_1_MANAGEMENT_PORT=" + managementPorts[1],
                "TERN_BROKER_2_MANAGEMENT_PORT=" + managementPorts[2],
                "TERN_GATEWAY_MANAGEMENT_PORT=" + managementPorts[3],
                "podman-compose"));
    up.addAll(List.of("-p", project, "-f", COMPOSE.toString(), "up", "-d", "--no-build"));
    up.addAll(BROKERS);
    up.addAll(CLIENTS);
    try {
      Podman.Result started = Podman.run(Duration.ofMinutes(3), up.toArray(String[]::new));
      assertThat(started.code()).as("%s:\n%s", up, started.output()).isZero();
      // What the brokers got from the host's variables: podman-compose 1.0.3 passed ${VAR:-} on
      // unexpanded, and the brokers took the variable's name as their token.
      assertThat(Podman.podman("exec", project + "_broker-0_1", "printenv").output())
          .contains("TERN_MANAGEMENT_SECURITY_TOKEN=" + TOKEN + "\n")
          .contains("TERN_JAVA_OPTS=" + Podman.TEST_JAVA_OPTS + "\n");
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
      // Each broker's and the gateway's management port is published on the loopback.
      java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
      for (int port : managementPorts) {
        java.net.URI uri = java.net.URI.create("http://127.0.0.1:" + port + "/actuator/prometheus");
        await("the management port published on " + port)
            .atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofSeconds(1))
            .ignoreExceptions()
            .until(
                () ->
                    http.send(
                            java.net.http.HttpRequest.newBuilder(uri).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString())
                        .body()
                        .contains("jvm_threads_live_threads"));
      }
      // The benchmark commands carry no health check (the image's would report them unhealthy).
      for (String client : List.of("starter", "worker")) {
        assertThat(
                Podman.podman(
                        "inspect",
                        "--format",
                        "{{.Config.Healthcheck}}",
                        project + "_" + client + "_1")
                    .output()
                    .strip())
            .as("%s's health check", client)
            .matches("<nil>|\\{\\[NONE\\].*|");
      }
      for (String service :
          List.of("broker-0", "broker-1", "broker-2", "gateway", "starter", "worker")) {
        String names =
            Podman.podman(
                    "inspect",
                    "--format",
                    "{{range .Mounts}}{{.Name}} {{end}}",
                    project + "_" + service + "_1")
                .output()
                .strip();
        assertThat(names).as("%s's volumes", service).startsWith(project + "_");
        volumes.addAll(List.of(names.split(" +")));
      }
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
    // down -v left no volume behind, named or anonymous.
    for (String volume : volumes) {
      assertThat(Podman.podman("volume", "exists", volume).code())
          .as("volume %s", volume)
          .isNotZero();
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

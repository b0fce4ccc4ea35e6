package io.tern.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.worker.JobWorker;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.tern.engine.broker.Broker;
import io.tern.engine.broker.BrokerConfigLoader;
import io.tern.engine.broker.BrokerProcess;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * dashboards/tern.json is a Grafana dashboard (the fields Grafana needs, a panel layout, the data
 * source and broker/partition variables), and every metric it queries exists in what live brokers
 * export at /actuator/prometheus: a three-broker cluster (so that followers have a replication lag
 * and the injected-latency experiment is on) that has run an instance with a job.
 */
@Tag("slow") // a three-broker cluster's metrics: docs/testing.md
class DashboardTest {
  private static final Path DASHBOARD = Podman.ROOT.resolve("dashboards/tern.json");
  private static final Pattern METRIC =
      Pattern.compile("\\b((?:tern|jvm|process|system)_[a-z0-9_]+)\\b");
  private static final JsonMapper JSON = JsonMapper.builder().build();
  @TempDir Path dir;

  @Test
  void theDashboardIsAGrafanaDashboard() throws Exception {
    JsonNode dashboard = JSON.readTree(Files.readString(DASHBOARD));
    assertThat(dashboard.path("title").asString()).isEqualTo("Tern");
    assertThat(dashboard.path("uid").asString()).matches("[a-z0-9-]{1,40}");
    assertThat(dashboard.path("schemaVersion").asInt()).isGreaterThanOrEqualTo(36);
    List<String> variables = new ArrayList<>();
    dashboard
        .path("templating")
        .path("list")
        .forEach(v -> variables.add(v.path("name").asString()));
    assertThat(variables).containsExactly("datasource", "node_id", "partition");
    Set<Integer> ids = new HashSet<>();
    List<String> titles = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      assertThat(ids.add(panel.path("id").asInt())).as("panel ids are unique").isTrue();
      JsonNode grid = panel.path("gridPos");
      assertThat(grid.path("w").asInt()).isBetween(1, 24);
      assertThat(grid.path("x").asInt() + grid.path("w").asInt()).isLessThanOrEqualTo(24);
      assertThat(grid.path("h").asInt()).isPositive();
      titles.add(panel.path("title").asString());
      if (!panel.path("type").asString().equals("row")) {
        assertThat(panel.path("targets").isEmpty()).as(panel.path("title").asString()).isFalse();
        assertThat(panel.path("datasource").path("uid").asString()).isEqualTo("${datasource}");
      }
    }
    assertThat(String.join("\n", titles))
        .contains("Process instance execution time")
        .contains("Processing latency")
        .contains("Commit latency")
        .contains("Journal append and flush latency")
        .contains("Raft role")
        .contains("Replication lag")
        .contains("Backpressure")
        .contains("Job activation")
        .contains("RocksDB")
        .contains("JVM heap")
        .contains("Gateway requests per second")
        .contains("Gateway request latency p99")
        .contains("Gateway errors");
    // The broker a series is from is its node_id tag: Prometheus' instance label is the pod's
    // address, a new one on each restart.
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        assertThat(target.path("expr").asString())
            .as(panel.path("title").asString())
            .doesNotContainPattern("\\binstance\\b");
      }
    }
  }

  @Test
  void everyMetricTheDashboardQueriesExistsInALiveBroker() throws Exception {
    Set<String> queried = new TreeSet<>();
    for (JsonNode panel : JSON.readTree(Files.readString(DASHBOARD)).path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        Matcher matcher = METRIC.matcher(target.path("expr").asString());
        while (matcher.find()) {
          queried.add(matcher.group(1));
        }
      }
    }
    assertThat(queried).hasSizeGreaterThan(20);

    int brokers = 3;
    int[][] ports = new int[brokers][];
    List<String> contactPoints = new ArrayList<>();
    for (int n = 0; n < brokers; n++) {
      // Below the ephemeral range, where another process's outgoing connection cannot take one
      // between the choice and the broker's bind (that happened once, to the management port).
      ports[n] = BrokerProcess.freePorts(4);
      contactPoints.add("127.0.0.1:" + ports[n][0]);
    }
    List<Broker> started = new ArrayList<>();
    Set<String> exported = new HashSet<>();
    try {
      for (int n = 0; n < brokers; n++) {
        Map<String, String> settings =
            Map.ofEntries(
                Map.entry("TERN_CLUSTER_NODEID", Integer.toString(n)),
                Map.entry("TERN_CLUSTER_CLUSTERSIZE", Integer.toString(brokers)),
                Map.entry("TERN_CLUSTER_PARTITIONSCOUNT", "1"),
                Map.entry("TERN_CLUSTER_REPLICATIONFACTOR", "3"),
                Map.entry("TERN_CLUSTER_CONTACTPOINTS", String.join(",", contactPoints)),
                Map.entry("TERN_DATA_DIRECTORY", dir.resolve("broker-" + n).toString()),
                Map.entry("TERN_DATA_DISK_MINFREEBYTES", "0"),
                Map.entry("TERN_NETWORK_HOST", "127.0.0.1"),
                Map.entry("TERN_NETWORK_ADVERTISEDHOST", "127.0.0.1"),
                Map.entry("TERN_NETWORK_COMMANDPORT", Integer.toString(ports[n][0])),
                Map.entry("TERN_NETWORK_INTERNALPORT", Integer.toString(ports[n][1])),
                Map.entry("TERN_GATEWAY_PORT", Integer.toString(ports[n][2])),
                Map.entry("TERN_GATEWAY_REST_PORT", "0"),
                Map.entry("TERN_MANAGEMENT_PORT", Integer.toString(ports[n][3])),
                Map.entry("TERN_STATE_ROCKSDB_MEMORYLIMITMB", "64"),
                Map.entry("TERN_EXPERIMENTAL_NETWORK_LATENCY", "1ms"),
                Map.entry("TERN_EXPERIMENTAL_NETWORK_LATENCYBETWEEN", "0-1"));
        started.add(Broker.start(BrokerConfigLoader.load(null, settings)));
      }
      for (Broker broker : started) {
        assertThat(broker.awaitReady(Duration.ofMinutes(2))).isTrue();
      }
      try (CamundaClient client =
          CamundaClient.newClientBuilder()
              .grpcAddress(URI.create("http://127.0.0.1:" + started.get(0).gatewayPort()))
              .preferRestOverGrpc(false)
              .build()) {
        client
            .newDeployResourceCommand()
            .addProcessModel(
                Bpmn.createExecutableProcess("dashboard")
                    .startEvent()
                    .serviceTask("task", t -> t.zeebeJobType("dashboard"))
                    .endEvent()
                    .done(),
                "dashboard.bpmn")
            .send()
            .join();
        try (JobWorker worker =
            client
                .newWorker()
                .jobType("dashboard")
                .handler((jobClient, job) -> jobClient.newCompleteCommand(job).send().join())
                .open()) {
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("dashboard")
              .latestVersion()
              .withResult()
              .requestTimeout(Duration.ofSeconds(30))
              .send()
              .join();
        }
      }
      HttpClient http = HttpClient.newHttpClient();
      for (Broker broker : started) {
        String scrape =
            http.send(
                    HttpRequest.newBuilder(
                            URI.create(
                                "http://127.0.0.1:"
                                    + broker.managementPort()
                                    + "/actuator/prometheus"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .body();
        for (String line : scrape.split("\n")) {
          if (!line.startsWith("#") && !line.isBlank()) {
            exported.add(line.split("[{ ]", 2)[0]);
            // Every series names its broker, as the dashboard's broker variable filters by it.
            assertThat(line).contains("node_id=\"");
          }
        }
      }
    } finally {
      for (Broker broker : started) {
        broker.close();
      }
    }
    assertThat(exported).isNotEmpty();
    List<String> missing = new ArrayList<>();
    for (String metric : queried) {
      boolean found =
          exported.contains(metric)
              || exported.contains(metric + "_bucket")
              || exported.contains(metric + "_count");
      if (!found) {
        missing.add(metric);
      }
    }
    assertThat(missing).as("metrics the dashboard queries that no broker exports").isEmpty();
  }
}

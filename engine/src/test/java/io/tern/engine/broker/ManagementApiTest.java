package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.worker.JobWorker;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The management HTTP endpoints of a running broker. */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class ManagementApiTest {
  @TempDir static Path dir;
  private static Broker broker;
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void startBroker() throws InterruptedException {
    broker = Broker.start(TestBrokers.config(dir, Map.of()));
    assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
  }

  @AfterAll
  static void stopBroker() {
    if (broker != null) {
      broker.close();
    }
  }

  /** A call with the broker's management token. */
  private static HttpResponse<String> call(String method, String path)
      throws IOException, InterruptedException {
    return call(method, path, TestBrokers.BEARER);
  }

  /** {@code authorization}: the Authorization header, or null for none. */
  static HttpResponse<String> call(String method, String path, String authorization)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + broker.managementPort() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(30));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void operationsNeedTheTokenAndReadingDoesNot() throws Exception {
    for (String operation :
        new String[] {
          "/actuator/partitions/pauseProcessing",
          "/actuator/partitions/resumeProcessing",
          "/actuator/partitions/takeSnapshot",
          "/actuator/rebalance",
          "/actuator/faults/heal",
          "/actuator/some/later/operation"
        }) {
      HttpResponse<String> missing = call("POST", operation, null);
      assertThat(missing.statusCode()).as(operation).isEqualTo(401);
      assertThat(missing.body()).contains("Authorization: Bearer <token>");
      HttpResponse<String> wrong = call("POST", operation, "Bearer not-the-token-0123456789");
      assertThat(wrong.statusCode()).as(operation).isEqualTo(401);
      assertThat(wrong.body()).contains("wrong management token").doesNotContain("0123456789");
      assertThat(call("POST", operation, TestBrokers.MANAGEMENT_TOKEN).statusCode())
          .as("the token without 'Bearer '")
          .isEqualTo(401);
    }
    assertThat(call("GET", "/actuator/partitions", null).body())
        .as("nothing was paused")
        .contains("\"processorPhase\":\"PROCESSING\"");
    for (String reading :
        new String[] {
          "/actuator/health",
          "/actuator/health/readiness",
          "/actuator/prometheus",
          "/actuator/partitions",
          "/actuator/flags",
          "/actuator/incidents",
          "/actuator/jobstreams"
        }) {
      assertThat(call("GET", reading, null).statusCode()).as(reading).isEqualTo(200);
    }
  }

  @Test
  void healthProbesAreUpOnceThePartitionProcesses() throws Exception {
    for (String probe : new String[] {"", "/liveness", "/readiness", "/startup"}) {
      HttpResponse<String> health = call("GET", "/actuator/health" + probe);
      assertThat(health.statusCode()).as(probe).isEqualTo(200);
      assertThat(health.body()).isEqualTo("{\"status\":\"UP\"}");
    }
  }

  @Test
  void flagsSayWhatTheBrokerRuns() throws Exception {
    HttpResponse<String> flags = call("GET", "/actuator/flags");
    assertThat(flags.statusCode()).isEqualTo(200);
    assertThat(flags.body())
        .contains("\"raft.flush.mode\":\"sync\"")
        .contains("\"processing.maxCommandsInBatch\":\"100\"")
        .contains("\"state.rocksdb.disableWal\":\"true\"")
        .contains("\"experimental.network.latency\":\"none\"");
  }

  @Test
  void jobStreamsShowEachWaitingWorkerUntilItCloses() throws Exception {
    try (CamundaClient client = TestBrokers.client(broker)) {
      JobWorker streaming =
          client
              .newWorker()
              .jobType("streamed")
              .handler((jobs, job) -> {})
              .streamEnabled(true)
              .open();
      JobWorker polling =
          client
              .newWorker()
              .jobType("polled")
              .handler((jobs, job) -> {})
              .streamEnabled(false)
              .requestTimeout(Duration.ofSeconds(20))
              .open();
      Awaitility.await()
          .atMost(Duration.ofSeconds(20))
          .untilAsserted(
              () ->
                  assertThat(call("GET", "/actuator/jobstreams").body())
                      .isEqualTo(
                          "{\"gateway\":{\"streams\":{\"streamed\":1},"
                              + "\"parkedRequests\":{\"polled\":1}},\"remoteStreams\":{}}"));
      streaming.close();
      polling.close();
      // A closed worker's stream must go at once: jobs pushed to it would wait for their timeout.
      Awaitility.await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(
              () ->
                  assertThat(call("GET", "/actuator/jobstreams").body())
                      .startsWith("{\"gateway\":{\"streams\":{},"));
    }
  }

  @Test
  void partitionsShowRoleTermAndPositionsAndPauseAndResumeWork() throws Exception {
    HttpResponse<String> partitions = call("GET", "/actuator/partitions");
    assertThat(partitions.statusCode()).isEqualTo(200);
    assertThat(partitions.headers().firstValue("content-type")).hasValue("application/json");
    assertThat(partitions.body())
        .contains("\"1\":{\"role\":\"LEADER\"")
        .contains("\"leaderNodeId\":0")
        .contains("\"processorPhase\":\"PROCESSING\"")
        .contains("\"replaying\":false")
        .contains("\"backpressure\":{\"enabled\":true,\"limit\":100,\"inFlight\":0,\"refused\":0}");

    assertThat(call("POST", "/actuator/partitions/pauseProcessing").body())
        .contains("\"processorPhase\":\"PAUSED\"");
    assertThat(call("GET", "/actuator/health/readiness").statusCode())
        .as("a paused leader is still ready: pausing is an operator's choice")
        .isEqualTo(200);
    assertThat(call("POST", "/actuator/partitions/resumeProcessing").body())
        .contains("\"processorPhase\":\"PROCESSING\"");
  }

  @Test
  void aSnapshotCanBeTakenOnDemand() throws Exception {
    try (CamundaClient client = TestBrokers.client(broker)) {
      // Something to snapshot: a processed command.
      client.newPublishMessageCommand().messageName("m").correlationKey("k").send().join();
    }
    HttpResponse<String> taken = call("POST", "/actuator/partitions/takeSnapshot");
    assertThat(taken.statusCode()).isEqualTo(200);
    assertThat(taken.body()).startsWith("{\"1\":\"snapshot at index ");
    assertThat(call("GET", "/actuator/partitions").body()).doesNotContain("\"snapshotId\":null");
  }

  @Test
  void rebalanceSaysWhatItDidAndCanBeCalledAgain() throws Exception {
    for (int i = 0; i < 2; i++) {
      HttpResponse<String> rebalanced = call("POST", "/actuator/rebalance");
      assertThat(rebalanced.statusCode()).isEqualTo(200);
      assertThat(rebalanced.body()).isEqualTo("{\"1\":\"already led by its primary, node 0\"}");
    }
  }

  @Test
  void prometheusServesTheEnginesMetrics() throws Exception {
    HttpResponse<String> metrics = call("GET", "/actuator/prometheus");
    assertThat(metrics.statusCode()).isEqualTo(200);
    assertThat(metrics.body())
        .contains("tern_processor_last_processed_position")
        .contains("tern_backpressure_limit")
        .containsPattern("tern_state_rocksdb_keys\\{node_id=\"0\",partition=\"1\"\\} [0-9.E]+\\n")
        .contains("tern_state_rocksdb_memtable_bytes");
  }

  @Test
  void unknownPathsAndWrongMethodsGetJsonErrorsListingTheEndpoints() throws Exception {
    HttpResponse<String> unknown = call("GET", "/actuator/nothing");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.body())
        .contains("no such endpoint: GET /actuator/nothing")
        .contains("POST /actuator/rebalance");
    HttpResponse<String> wrongMethod = call("GET", "/actuator/rebalance");
    assertThat(wrongMethod.statusCode()).isEqualTo(405);
  }

  @Test
  void workflowLatenciesAreExported() throws Exception {
    try (CamundaClient client = TestBrokers.client(broker)) {
      client
          .newDeployResourceCommand()
          .addResourceBytes(
              io.camunda.zeebe.model.bpmn.Bpmn.convertToString(
                      io.camunda.zeebe.model.bpmn.Bpmn.createExecutableProcess("measured")
                          .startEvent()
                          .serviceTask("t", t -> t.zeebeJobType("measured-work"))
                          .endEvent()
                          .done())
                  .getBytes(java.nio.charset.StandardCharsets.UTF_8),
              "measured.bpmn")
          .send()
          .join();
      client.newCreateInstanceCommand().bpmnProcessId("measured").latestVersion().send().join();
      var job =
          client
              .newActivateJobsCommand()
              .jobType("measured-work")
              .maxJobsToActivate(1)
              .requestTimeout(Duration.ofSeconds(5))
              .send()
              .join()
              .getJobs()
              .get(0);
      client
          .newCreateInstanceCommand()
          .bpmnProcessId("measured")
          .latestVersion()
          .send()
          .join(); // a second one, left waiting
      client.newCompleteCommand(job.getKey()).send().join();
    }
    String metrics =
        Awaitility.await("the instance's execution time recorded")
            .atMost(Duration.ofSeconds(5))
            .pollDelay(Duration.ZERO)
            .pollInterval(Duration.ofMillis(100))
            .until(
                () -> call("GET", "/actuator/prometheus").body(),
                body ->
                    body.contains(
                        "tern_workflow_process_instance_execution_seconds_count{node_id=\"0\",partition=\"1\"}"
                            + " 1"));
    assertThat(metrics)
        .contains(
            "tern_workflow_process_instance_execution_seconds_count{node_id=\"0\",partition=\"1\"} 1")
        .contains("tern_workflow_job_activation_seconds_count{node_id=\"0\",partition=\"1\"} 1")
        .contains("tern_workflow_job_lifetime_seconds_count{node_id=\"0\",partition=\"1\"} 1");
  }
}

package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.camunda.client.CamundaClient;
import io.camunda.zeebe.model.bpmn.Bpmn;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The history store as a new user meets it: on with no setup on a single broker, in an H2 file
 * under the data directory, holding what ran; a restart exports again from the stored position and
 * adds nothing twice.
 */
@Tag("slow") // a broker end to end, twice: docs/testing.md
class HistoryStoreTest {
  @TempDir Path dir;

  @Test
  void aSingleBrokerKeepsItsHistoryInH2AndARestartCountsNothingTwice() throws Exception {
    Map<String, String> defaults = Map.of("TERN_EXPORTING_HISTORY_ENABLED", "true");
    String url = HistoryDefaults.h2Url(dir.resolve("data").resolve("history").resolve("history"));
    long first;
    List<String> historyBefore;
    try (Broker broker = Broker.start(TestBrokers.config(dir, defaults));
        CamundaClient client = TestBrokers.client(broker)) {
      assertThat(broker.awaitReady(Duration.ofMinutes(1))).isTrue();
      client
          .newDeployResourceCommand()
          .addProcessModel(
              Bpmn.createExecutableProcess("order")
                  .startEvent()
                  .serviceTask("pay", t -> t.zeebeJobType("pay"))
                  .endEvent()
                  .done(),
              "order.bpmn")
          .send()
          .join();
      first = runOne(client, "a-1");
      await("the instance completed in the history store")
          .atMost(Duration.ofSeconds(30))
          // The store's tables exist once the exporter opened and migrated it.
          .ignoreExceptionsInstanceOf(IllegalStateException.class)
          .until(
              () ->
                  TestBrokers.sqlRows(url, "SELECT state FROM process_instance")
                      .contains("COMPLETED"));
      assertThat(
              TestBrokers.sqlRows(
                  url,
                  "SELECT name || '=' || value_json FROM variable WHERE process_instance_key = "
                      + first
                      + " ORDER BY name"))
          .containsExactly("orderId=\"a-1\"", "paid=true");
      assertThat(TestBrokers.sqlRows(url, "SELECT type || ':' || state FROM job"))
          .containsExactly("pay:COMPLETED");
      assertThat(TestBrokers.sqlRows(url, "SELECT bpmn_process_id FROM process_definition"))
          .containsExactly("order");
      historyBefore =
          TestBrokers.sqlRows(
              url, "SELECT name || '@' || position FROM variable_history ORDER BY 1");
    }

    // A restart replays the log and the exporter starts again from the position it stored.
    try (Broker broker = Broker.start(TestBrokers.config(dir, defaults));
        CamundaClient client = TestBrokers.client(broker)) {
      assertThat(broker.awaitReady(Duration.ofMinutes(1))).isTrue();
      long second = runOne(client, "b-2");
      await("the second instance in the history store")
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptionsInstanceOf(IllegalStateException.class)
          .until(
              () ->
                  TestBrokers.sqlRows(
                          url,
                          "SELECT state FROM process_instance WHERE process_instance_key = "
                              + second)
                      .contains("COMPLETED"));
      assertThat(
              TestBrokers.sqlRows(
                  url, "SELECT process_instance_key FROM process_instance ORDER BY 1"))
          .containsExactly(Long.toString(first), Long.toString(second));
      assertThat(
              TestBrokers.sqlRows(
                  url,
                  "SELECT name || '@' || position FROM variable_history"
                      + " WHERE process_instance_key = "
                      + first
                      + " ORDER BY 1"))
          .as("the first instance's variable history, not written again")
          .containsExactlyElementsOf(historyBefore);
    }
  }

  private static long runOne(CamundaClient client, String orderId) {
    try (var worker =
        client
            .newWorker()
            .jobType("pay")
            .handler(
                (jobClient, job) ->
                    jobClient.newCompleteCommand(job).variables(Map.of("paid", true)).send().join())
            .open()) {
      return client
          .newCreateInstanceCommand()
          .bpmnProcessId("order")
          .latestVersion()
          .variables(Map.of("orderId", orderId))
          .withResult()
          .requestTimeout(Duration.ofSeconds(30))
          .send()
          .join()
          .getProcessInstanceKey();
    }
  }
}

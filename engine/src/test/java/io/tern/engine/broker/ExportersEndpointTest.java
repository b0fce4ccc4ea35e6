package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.camunda.client.CamundaClient;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.exporter.RecordingExporter;
import io.tern.engine.exporter.TestRecordMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker exports through its partitions' directors with the mapper it is started with, and shows
 * its exporters in metrics and at {@code GET /actuator/exporters}.
 */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class ExportersEndpointTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dir;

  @Test
  void aBrokerExportsAndShowsItsExporters() throws Exception {
    String journalName = "broker-" + UUID.randomUUID();
    RecordingExporter.Journal journal = RecordingExporter.journal(journalName);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    BrokerConfig config =
        TestBrokers.config(
            dir,
            Map.of(
                "TERN_EXPORTERS_REC_CLASSNAME",
                RecordingExporter.class.getName(),
                "TERN_EXPORTERS_REC_ARGS_JOURNAL",
                journalName,
                "TERN_EXPORTERS_REC_ARGS_FAILURES",
                "1"));
    try (Broker broker = Broker.start(config, registry, partition -> new TestRecordMapper());
        CamundaClient client = TestBrokers.client(broker)) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      client
          .newDeployResourceCommand()
          .addProcessModel(
              Bpmn.createExecutableProcess("exported").startEvent().endEvent().done(),
              "exported.bpmn")
          .send()
          .join();
      client.newCreateInstanceCommand().bpmnProcessId("exported").latestVersion().send().join();
      Awaitility.await("records exported")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(10))
          .until(() -> journal.exported.size() >= 10);
      assertThat(journal.exported).isSorted().doesNotHaveDuplicates();
      assertThat(journal.failed).hasSize(1);
      assertThat(journal.failed.get(0)).isEqualTo(journal.exported.get(0));

      long last = journal.lastExported();
      assertThat(
              registry
                  .get("tern.exporter.position")
                  .tags("partition", "1", "exporter", "rec")
                  .gauge()
                  .value())
          .isGreaterThanOrEqualTo(last);
      assertThat(registry.get("tern.exporter.export").tag("exporter", "rec").timer().count())
          .isGreaterThanOrEqualTo(journal.exported.size() + 1L);
      assertThat(registry.get("tern.exporter.failures").tag("exporter", "rec").counter().count())
          .isEqualTo(1);
      registry.get("tern.exporter.lag.records").tag("exporter", "rec").gauge();
      registry.get("tern.exporter.lag.seconds").tag("exporter", "rec").gauge();

      JsonNode open = json(get(broker, null));
      JsonNode rec = open.path("1").path("exporters").path("rec");
      assertThat(open.path("1").path("leader").asBoolean()).isTrue();
      assertThat(rec.path("state").asText()).isEqualTo("running");
      assertThat(rec.path("position").asLong()).isGreaterThanOrEqualTo(last);
      assertThat(rec.path("lagRecords").isNumber()).isTrue();
      assertThat(rec.path("lagSeconds").isNumber()).isTrue();
      assertThat(rec.path("lastError").asText()).isEqualTo(ExportersEndpoint.REDACTED);
      Awaitility.await("the position stored")
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(50))
          .until(
              () ->
                  json(get(broker, null))
                          .path("1")
                          .path("exporters")
                          .path("rec")
                          .path("storedPosition")
                          .asLong()
                      >= last);

      JsonNode withToken = json(get(broker, TestBrokers.BEARER));
      assertThat(withToken.path("1").path("exporters").path("rec").path("lastError").asText())
          .contains("failing on purpose");
    }
    assertThat(journal.closed).hasValue(1);
  }

  private static JsonNode json(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).isEqualTo(200);
    return new ObjectMapper().readTree(response.body());
  }

  private static HttpResponse<String> get(Broker broker, String authorization) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + broker.managementPort() + "/actuator/exporters"))
            .timeout(Duration.ofSeconds(30));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}

package io.tern.exporters.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.broker.Broker;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built-in exporter end to end: a Tern broker exports a process run (a job failed into an
 * incident and resolved, a timer, a message) into a real OpenSearch 2.19 node, where the indices,
 * templates, aliases and documents are those Zeebe 8.6's Elasticsearch exporter writes; a restart
 * with a second exporter that exports the whole log again adds no document.
 */
@Tag("slow") // a broker end to end and an OpenSearch node in a JVM of its own: docs/testing.md
class OpenSearchExporterTest {
  private static final DateTimeFormatter DAY =
      DateTimeFormatter.ofPattern("yyyy-MM-dd").withZone(ZoneOffset.UTC);
  private static final String ALL = "zeebe-record_*";
  private static final long SEQUENCE_BASE = 1L << 51; // partition 1

  /** The root fields of every document: Zeebe 8.6's (no authorizations; its sequence). */
  private static final Set<String> RECORD_FIELDS =
      Set.of(
          "partitionId",
          "value",
          "key",
          "position",
          "sourceRecordPosition",
          "timestamp",
          "recordType",
          "valueType",
          "intent",
          "rejectionType",
          "rejectionReason",
          "brokerVersion",
          "recordVersion",
          "operationReference",
          "sequence");

  @TempDir static Path nodeDir;
  private static OpenSearchNode node;

  @TempDir Path dir;

  @BeforeAll
  static void startOpenSearch() throws Exception {
    node = OpenSearchNode.start(nodeDir);
  }

  @AfterAll
  static void stopOpenSearch() throws Exception {
    if (node != null) {
      node.close();
    }
  }

  private Map<String, String> exporter(String id) {
    String prefix = "TERN_EXPORTERS_" + id.toUpperCase() + "_";
    Map<String, String> settings = new HashMap<>();
    // No jarPath: the exporter is on the broker's class path.
    settings.put(prefix + "CLASSNAME", "io.tern.exporter.opensearch.OpenSearchExporter");
    settings.put(prefix + "ARGS_URL", node.url());
    settings.put(prefix + "ARGS_BULK_DELAY", "1");
    settings.put(prefix + "ARGS_INDEX_NUMBEROFSHARDS", "1");
    return settings;
  }

  private static BpmnModelInstance orderProcess() {
    return Bpmn.createExecutableProcess("order")
        .startEvent("placed")
        .serviceTask("pay", task -> task.zeebeJobType("pay"))
        .intermediateCatchEvent("cool-off", event -> event.timerWithDuration("PT1S"))
        .intermediateCatchEvent(
            "paid",
            event -> event.message(m -> m.name("paid").zeebeCorrelationKeyExpression("orderId")))
        .endEvent("done")
        .done();
  }

  @Test
  void aProcessRunLandsInZeebesIndicesAndAReExportAddsNothing() throws Exception {
    long started = System.currentTimeMillis();
    long instanceKey;
    long jobKey;
    long incidentKey;
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    Map<String, String> withRecorder = new HashMap<>(exporter("opensearch"));
    withRecorder.put("TERN_EXPORTERS_RECORDER_CLASSNAME", JsonRecorder.class.getName());
    JsonRecorder.RECORDS.clear();
    try (Broker broker = Brokers.start(dir, withRecorder, meters);
        CamundaClient client = Brokers.client(broker)) {
      client.newDeployResourceCommand().addProcessModel(orderProcess(), "order.bpmn").send().join();
      instanceKey =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("order")
              .latestVersion()
              .variables(Map.of("orderId", "o-1"))
              .send()
              .join()
              .getProcessInstanceKey();

      ActivatedJob job = activate(client, "pay");
      jobKey = job.getKey();
      client.newFailCommand(jobKey).retries(0).errorMessage("no money").send().join();
      // The incident's key, read where a Zeebe user reads it: the exported records.
      JsonNode incident =
          awaitOne(
              "zeebe-record-incident",
              "{\"bool\":{\"filter\":[{\"term\":{\"intent\":\"CREATED\"}},"
                  + "{\"term\":{\"value.jobKey\":"
                  + jobKey
                  + "}}]}}");
      incidentKey = incident.at("/_source/key").asLong();
      client.newUpdateRetriesCommand(jobKey).retries(1).send().join();
      client.newResolveIncidentCommand(incidentKey).send().join();
      client.newCompleteCommand(activate(client, "pay").getKey()).send().join();
      client
          .newPublishMessageCommand()
          .messageName("paid")
          .correlationKey("o-1")
          .timeToLive(Duration.ofMinutes(1))
          .send()
          .join();

      awaitOne(
          "zeebe-record-process-instance",
          "{\"bool\":{\"filter\":[{\"term\":{\"intent\":\"ELEMENT_COMPLETED\"}},"
              + "{\"term\":{\"value.bpmnElementType\":\"PROCESS\"}},"
              + "{\"term\":{\"key\":"
              + instanceKey
              + "}}]}}");
      // The exporter's meters, on the broker's registry (Context.getMeterRegistry, by reflection).
      assertThat(
              meters
                  .get("tern.exporter.opensearch.flush")
                  .tags("exporter", "opensearch", "partition", "1")
                  .timer()
                  .count())
          .isPositive();
      assertThat(meters.get("tern.exporter.opensearch.failures").counter().count()).isZero();
    }
    long ended = System.currentTimeMillis();

    theIndicesAndTemplatesAreZeebes();
    List<JsonNode> all = node.search(ALL, "{\"match_all\":{}}");
    everyDocumentIsAZeebeRecord(all, started, ended);
    everyDocumentIsItsRecordsJson(all);
    sequencesCountEachValueType(all);
    theRecordsOfTheRunAreThere(instanceKey, jobKey, incidentKey);

    // Again: the same exporter resumes, and a new one ("replay") exports the whole log into the
    // same indices. Every document is written a second time (its _version goes to 2), none is
    // added.
    Map<String, JsonNode> before = byId(all);
    Map<String, String> settings = new HashMap<>(exporter("opensearch"));
    settings.putAll(exporter("replay"));
    try (Broker broker = Brokers.start(dir, settings)) {
      await("the replaying exporter wrote every document again")
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(250))
          .until(
              () ->
                  node.search(ALL, "{\"match_all\":{}}").stream()
                      .allMatch(hit -> hit.get("_version").asLong() >= 2));
    }
    Map<String, JsonNode> after = byId(node.search(ALL, "{\"match_all\":{}}"));
    assertThat(after.keySet()).as("the same ids, none added").isEqualTo(before.keySet());
    before.forEach(
        (id, hit) -> {
          JsonNode again = after.get(id);
          assertThat(again.get("_index")).as(id).isEqualTo(hit.get("_index"));
          assertThat(again.get("_source")).as(id).isEqualTo(hit.get("_source"));
        });
  }

  private void theIndicesAndTemplatesAreZeebes() {
    assertThat(node.status("_component_template/zeebe-record-8.6.0")).isEqualTo(200);
    JsonNode indices = node.get("_cat/indices/zeebe-record*?format=json");
    Set<String> names = new TreeSet<>();
    indices.forEach(index -> names.add(index.get("index").asText()));
    for (String valueType :
        List.of(
            "job",
            "timer",
            "message",
            "incident",
            "process-instance",
            "variable",
            "deployment",
            "process-message-subscription",
            "message-subscription")) {
      String template = "zeebe-record_" + valueType + "_8.6.0";
      assertThat(node.status("_index_template/" + template)).as(template).isEqualTo(200);
      assertThat(names)
          .as("indices")
          // The date of each document's index is checked with the documents (a run may span
          // midnight UTC).
          .anyMatch(name -> name.matches(template + "_\\d{4}-\\d{2}-\\d{2}"));
      String alias = "zeebe-record-" + valueType;
      JsonNode mapping = node.get(alias + "/_mapping");
      assertThat(mapping.size()).as(alias).isPositive();
      JsonNode properties = mapping.elements().next().at("/mappings/properties");
      assertThat(properties.at("/value/dynamic").asText()).as(alias).isEqualTo("strict");
      assertThat(properties.at("/timestamp/type").asText()).isEqualTo("date");
      assertThat(properties.at("/sequence/type").asText()).isEqualTo("long");
    }
    JsonNode jobValue =
        node.get("zeebe-record-job/_mapping").elements().next().at("/mappings/properties/value");
    assertThat(jobValue.at("/properties/retries/type").asText()).isEqualTo("integer");
    assertThat(jobValue.at("/properties/customHeaders/enabled").asBoolean(true)).isFalse();
    // Off by default, as in Zeebe 8.6: job batches, process events.
    assertThat(names).noneMatch(name -> name.contains("_job-batch_"));
    assertThat(names).noneMatch(name -> name.contains("_process-event_"));
    JsonNode settings =
        node.get("zeebe-record-job/_settings").elements().next().at("/settings/index");
    assertThat(settings.get("number_of_shards").asText()).isEqualTo("1");
    assertThat(settings.get("number_of_replicas").asText()).isEqualTo("0");
  }

  private static void everyDocumentIsAZeebeRecord(List<JsonNode> all, long started, long ended) {
    assertThat(all).hasSizeGreaterThan(30);
    for (JsonNode hit : all) {
      JsonNode source = hit.get("_source");
      Set<String> fields = new HashSet<>();
      source.fieldNames().forEachRemaining(fields::add);
      assertThat(fields).as("%s", source).isEqualTo(RECORD_FIELDS);
      long position = source.get("position").asLong();
      long timestamp = source.get("timestamp").asLong();
      String valueType = source.get("valueType").asText();
      assertThat(hit.get("_id").asText()).isEqualTo("1-" + position);
      assertThat(hit.get("_routing").asText()).isEqualTo("1");
      assertThat(hit.get("_index").asText())
          .isEqualTo(
              "zeebe-record_"
                  + valueType.toLowerCase().replace('_', '-')
                  + "_8.6.0_"
                  + DAY.format(Instant.ofEpochMilli(timestamp)));
      assertThat(source.get("partitionId").asInt()).isEqualTo(1);
      assertThat(source.get("recordType").asText())
          .as("events only, by default")
          .isEqualTo("EVENT");
      assertThat(source.get("rejectionType").asText()).isEqualTo("NULL_VAL");
      assertThat(source.get("rejectionReason").asText()).isEmpty();
      assertThat(source.get("brokerVersion").asText()).isEqualTo("8.6.0");
      assertThat(source.get("recordVersion").asInt()).isEqualTo(1);
      assertThat(source.get("operationReference").asLong()).isEqualTo(-1);
      assertThat(timestamp).isBetween(started - 1000, ended + 1000);
      assertThat(source.get("sourceRecordPosition").asLong()).isLessThan(position);
      assertThat(source.get("value").get("tenantId").asText()).isEqualTo("<default>");
    }
  }

  /**
   * The exporter writes documents itself, not through {@code toJson()}: each holds what the
   * record's {@code toJson()} holds (as another exporter of the same broker got it), without {@code
   * authorizations}, with {@code sequence}.
   */
  private static void everyDocumentIsItsRecordsJson(List<JsonNode> all) throws Exception {
    ObjectMapper json = new ObjectMapper();
    for (JsonNode hit : all) {
      JsonNode source = hit.get("_source");
      long position = source.get("position").asLong();
      String recorded = JsonRecorder.RECORDS.get(position);
      assertThat(recorded).as("the record at %d", position).isNotNull();
      ObjectNode expected = (ObjectNode) json.readTree(recorded);
      expected.remove("authorizations");
      expected.set("sequence", source.get("sequence"));
      assertThat(source).as("the document of the record at %d", position).isEqualTo(expected);
    }
  }

  private static void sequencesCountEachValueType(List<JsonNode> all) {
    Map<String, List<Long>> sequences = new LinkedHashMap<>();
    for (JsonNode hit : all) { // sorted by position
      JsonNode source = hit.get("_source");
      sequences
          .computeIfAbsent(source.get("valueType").asText(), type -> new ArrayList<>())
          .add(source.get("sequence").asLong() - SEQUENCE_BASE);
    }
    sequences.forEach(
        (valueType, counters) -> {
          List<Long> expected = new ArrayList<>();
          for (long i = 1; i <= counters.size(); i++) {
            expected.add(i);
          }
          assertThat(counters).as(valueType).isEqualTo(expected);
        });
  }

  private void theRecordsOfTheRunAreThere(long instanceKey, long jobKey, long incidentKey) {
    JsonNode deployed = one("zeebe-record-deployment", "{\"term\":{\"intent\":\"CREATED\"}}");
    assertThat(deployed.at("/value/processesMetadata/0/bpmnProcessId").asText()).isEqualTo("order");
    assertThat(deployed.at("/value/processesMetadata/0/version").asInt()).isEqualTo(1);
    assertThat(deployed.at("/value/resources/0/resourceName").asText()).isEqualTo("order.bpmn");

    JsonNode created = byIntent("zeebe-record-job", "CREATED", "key", jobKey);
    assertThat(created.at("/value/type").asText()).isEqualTo("pay");
    assertThat(created.at("/value/bpmnProcessId").asText()).isEqualTo("order");
    assertThat(created.at("/value/elementId").asText()).isEqualTo("pay");
    assertThat(created.at("/value/processInstanceKey").asLong()).isEqualTo(instanceKey);
    assertThat(created.at("/value/retries").asInt()).isEqualTo(3);
    assertThat(created.at("/value/jobKind").asText()).isEqualTo("BPMN_ELEMENT");
    JsonNode failed = byIntent("zeebe-record-job", "FAILED", "key", jobKey);
    assertThat(failed.at("/value/retries").asInt()).isZero();
    assertThat(failed.at("/value/errorMessage").asText()).isEqualTo("no money");
    byIntent("zeebe-record-job", "RETRIES_UPDATED", "key", jobKey);
    byIntent("zeebe-record-job", "COMPLETED", "key", jobKey);

    JsonNode incident = byIntent("zeebe-record-incident", "CREATED", "key", incidentKey);
    assertThat(incident.at("/value/errorType").asText()).isEqualTo("JOB_NO_RETRIES");
    assertThat(incident.at("/value/errorMessage").asText()).isEqualTo("no money");
    assertThat(incident.at("/value/jobKey").asLong()).isEqualTo(jobKey);
    assertThat(incident.at("/value/processInstanceKey").asLong()).isEqualTo(instanceKey);
    byIntent("zeebe-record-incident", "RESOLVED", "key", incidentKey);

    JsonNode timer =
        byIntent("zeebe-record-timer", "TRIGGERED", "value.processInstanceKey", instanceKey);
    assertThat(timer.at("/value/targetElementId").asText()).isEqualTo("cool-off");
    assertThat(timer.at("/value/dueDate").asLong()).isPositive();
    assertThat(timer.at("/value/repetitions").asInt()).isEqualTo(1);
    byIntent("zeebe-record-timer", "CREATED", "value.processInstanceKey", instanceKey);

    JsonNode message = one("zeebe-record-message", "{\"term\":{\"intent\":\"PUBLISHED\"}}");
    assertThat(message.at("/value/name").asText()).isEqualTo("paid");
    assertThat(message.at("/value/correlationKey").asText()).isEqualTo("o-1");
    assertThat(message.at("/value/timeToLive").asLong()).isEqualTo(60_000);

    JsonNode variable =
        byIntent("zeebe-record-variable", "CREATED", "value.processInstanceKey", instanceKey);
    assertThat(variable.at("/value/name").asText()).isEqualTo("orderId");
    assertThat(variable.at("/value/value").asText()).isEqualTo("\"o-1\"");
    assertThat(variable.at("/value/scopeKey").asLong()).isEqualTo(instanceKey);

    JsonNode completed =
        byIntent("zeebe-record-process-instance", "ELEMENT_COMPLETED", "key", instanceKey);
    assertThat(completed.at("/value/bpmnElementType").asText()).isEqualTo("PROCESS");
    assertThat(completed.at("/value/bpmnProcessId").asText()).isEqualTo("order");
    assertThat(completed.at("/value/processInstanceKey").asLong()).isEqualTo(instanceKey);
    assertThat(completed.at("/value/parentProcessInstanceKey").asLong()).isEqualTo(-1);
    byIntent("zeebe-record-process-instance", "ELEMENT_COMPLETED", "value.elementId", "paid");
  }

  private JsonNode byIntent(String alias, String intent, String field, Object value) {
    String term = value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
    return one(
        alias,
        "{\"bool\":{\"filter\":[{\"term\":{\"intent\":\""
            + intent
            + "\"}},{\"term\":{\""
            + field
            + "\":"
            + term
            + "}}]}}");
  }

  /** The one document of {@code alias} matching the query (its source). */
  private JsonNode one(String alias, String query) {
    List<JsonNode> hits = node.search(alias, query);
    assertThat(hits).as("%s %s", alias, query).hasSize(1);
    return hits.get(0).get("_source");
  }

  private JsonNode awaitOne(String alias, String query) {
    List<JsonNode> hits = new ArrayList<>();
    await(alias + " " + query)
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(
            () -> {
              hits.clear();
              hits.addAll(node.search(alias, query));
              return !hits.isEmpty();
            });
    return hits.get(0);
  }

  private static ActivatedJob activate(CamundaClient client, String type) {
    List<ActivatedJob> jobs = new ArrayList<>();
    await("a job of type " + type)
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              jobs.addAll(
                  client
                      .newActivateJobsCommand()
                      .jobType(type)
                      .maxJobsToActivate(1)
                      .requestTimeout(Duration.ofSeconds(2))
                      .send()
                      .join()
                      .getJobs());
              return !jobs.isEmpty();
            });
    return jobs.get(0);
  }

  private static Map<String, JsonNode> byId(List<JsonNode> hits) {
    Map<String, JsonNode> byId = new LinkedHashMap<>();
    for (JsonNode hit : hits) {
      assertThat(byId.put(hit.get("_id").asText(), hit)).as("one document per id").isNull();
    }
    return byId;
  }
}

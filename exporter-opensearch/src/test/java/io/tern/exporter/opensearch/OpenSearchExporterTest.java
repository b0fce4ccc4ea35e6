package io.tern.exporter.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.ValueType;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exporter against a fake node on loopback that records every request. */
class OpenSearchExporterTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  // One node for the class: the JDK's HTTP server takes a second to stop.
  private static FakeNode node;

  @TempDir Path dir;
  private final List<OpenSearchExporter> opened = new ArrayList<>();

  @BeforeAll
  static void startNode() throws Exception {
    node = new FakeNode();
  }

  @AfterAll
  static void stopNode() {
    node.close();
  }

  @BeforeEach
  void resetNode() {
    node.reset();
  }

  @AfterEach
  void closeExporters() {
    opened.forEach(OpenSearchExporter::close);
  }

  private Map<String, Object> args(int bulkSize) {
    Map<String, Object> args = new HashMap<>();
    args.put("url", node.url());
    args.put("bulk", Map.of("size", bulkSize));
    args.put("requestTimeoutMs", 5000);
    return args;
  }

  private OpenSearchExporter open(TestContext context) {
    OpenSearchExporter exporter = new OpenSearchExporter();
    exporter.configure(context);
    exporter.open(context);
    opened.add(exporter);
    return exporter;
  }

  private static long day(int offset) {
    return TestRecords.DAY_2026_12_07 + offset;
  }

  @Test
  void templatesArePutOnceBeforeTheFirstDocument() {
    TestContext context = new TestContext(args(2));
    OpenSearchExporter exporter = open(context);

    exporter.export(TestRecords.job(1, day(0)));
    exporter.export(TestRecords.job(2, day(1)));
    exporter.export(TestRecords.job(3, day(2)));

    List<FakeNode.Request> templates = node.templates();
    assertThat(templates.get(0).path()).isEqualTo("/_component_template/zeebe-record-8.6.0");
    assertThat(templates)
        .extracting(FakeNode.Request::path)
        .contains(
            "/_index_template/zeebe-record_job_8.6.0",
            "/_index_template/zeebe-record_process-instance_8.6.0",
            "/_index_template/zeebe-record_variable_8.6.0")
        .doesNotContain(
            "/_index_template/zeebe-record_job-batch_8.6.0",
            "/_index_template/zeebe-record_user_8.6.0")
        .doesNotHaveDuplicates();
    assertThat(node.requests.indexOf(templates.get(templates.size() - 1)))
        .isLessThan(node.requests.indexOf(node.bulks().get(0)));
  }

  @Test
  void noTemplatesWhenCreateTemplateIsOff() {
    Map<String, Object> args = args(1);
    args.put("index", Map.of("createTemplate", false));
    OpenSearchExporter exporter = open(new TestContext(args));

    exporter.export(TestRecords.job(1, day(0)));

    assertThat(node.templates()).isEmpty();
    assertThat(node.bulks()).hasSize(1);
  }

  @Test
  void aFullBufferIsSentAsOneBulkAndItsLastPositionAcknowledged() throws Exception {
    TestContext context = new TestContext(args(3));
    OpenSearchExporter exporter = open(context);

    exporter.export(TestRecords.job(10, day(0)));
    exporter.export(TestRecords.job(11, day(0)));
    assertThat(node.bulks()).isEmpty();
    assertThat(context.position).isEqualTo(-1);

    exporter.export(TestRecords.job(12, day(0)));

    assertThat(node.bulks()).hasSize(1);
    FakeNode.Request bulk = node.bulks().get(0);
    assertThat(bulk.method()).isEqualTo("POST");
    assertThat(bulk.contentType()).isEqualTo("application/x-ndjson");
    List<String> lines = bulk.lines();
    assertThat(lines).hasSize(6);
    JsonNode action = JSON.readTree(lines.get(0)).get("index");
    assertThat(action.get("_index").asText()).isEqualTo("zeebe-record_job_8.6.0_2026-12-07");
    assertThat(action.get("_id").asText()).isEqualTo("1-10");
    assertThat(action.get("routing").asText()).isEqualTo("1");
    JsonNode document = JSON.readTree(lines.get(1));
    assertThat(document.get("position").asLong()).isEqualTo(10);
    assertThat(document.get("sequence").asLong()).isEqualTo((1L << 51) + 1);
    assertThat(JSON.readTree(lines.get(5)).get("sequence").asLong()).isEqualTo((1L << 51) + 3);
    assertThat(context.position).isEqualTo(12);
    assertThat(new String(context.metadata, StandardCharsets.UTF_8))
        .isEqualTo("{\"recordCountersByValueType\":{\"JOB\":3}}");
    assertThat(context.meters.get("tern.exporter.opensearch.flush").timer().count()).isEqualTo(1);
    assertThat(
            context.meters.get("tern.exporter.opensearch.bulk.documents").summary().totalAmount())
        .isEqualTo(3);
  }

  @Test
  void theMemoryLimitFlushesBeforeTheSize() {
    Map<String, Object> args = args(1000);
    args.put("bulk", Map.of("size", 1000, "memoryLimit", 1500));
    TestContext context = new TestContext(args);
    OpenSearchExporter exporter = open(context);

    exporter.export(TestRecords.job(1, day(0))); // about 900 bytes with its action line
    assertThat(node.bulks()).isEmpty();
    exporter.export(TestRecords.job(2, day(0)));

    assertThat(node.bulks()).hasSize(1);
    assertThat(node.bulks().get(0).lines()).hasSize(4);
    assertThat(context.position).isEqualTo(2);
  }

  @Test
  void theDelayFlushesWhatIsBufferedAndIsScheduledAgain() {
    Map<String, Object> args = args(1000);
    args.put("bulk", Map.of("delay", 2));
    TestContext context = new TestContext(args);
    OpenSearchExporter exporter = open(context);
    assertThat(context.delays).containsExactly(Duration.ofSeconds(2));

    exporter.export(TestRecords.job(1, day(0)));
    context.runScheduled();

    assertThat(node.bulks()).hasSize(1);
    assertThat(context.position).isEqualTo(1);
    assertThat(context.scheduled).as("scheduled again").hasSize(1);

    context.runScheduled(); // nothing buffered: no request
    assertThat(node.bulks()).hasSize(1);
  }

  @Test
  void aFailedFlushThrowsAndTheRetryOfTheSameRecordAddsNothingTwice() throws Exception {
    TestContext context = new TestContext(args(2));
    OpenSearchExporter exporter = open(context);
    node.answer =
        request ->
            request.path().equals("/_bulk")
                ? new FakeNode.Answer(503, "{\"error\":\"unavailable\"}")
                : FakeNode.OK;

    exporter.export(TestRecords.job(1, day(0)));
    Record<?> second = TestRecords.job(2, day(0));
    assertThatThrownBy(() -> exporter.export(second)).hasMessageContaining("503");
    // The director retries the same record after its backoff, as often as it takes.
    assertThatThrownBy(() -> exporter.export(second)).hasMessageContaining("503");
    assertThat(context.position).isEqualTo(-1);

    node.answer = request -> FakeNode.OK;
    exporter.export(second);

    List<FakeNode.Request> bulks = node.bulks();
    assertThat(bulks).hasSize(3);
    assertThat(bulks.get(2).body()).isEqualTo(bulks.get(0).body());
    assertThat(ids(bulks.get(2))).containsExactly("1-1", "1-2");
    assertThat(context.position).isEqualTo(2);
    assertThat(context.meters.get("tern.exporter.opensearch.failures").counter().count())
        .isEqualTo(2);

    exporter.export(TestRecords.job(3, day(0)));
    exporter.export(TestRecords.job(4, day(0)));
    assertThat(ids(node.bulks().get(3))).containsExactly("1-3", "1-4");
  }

  @Test
  void aRetriedRecordThatATimedFlushSentMeanwhileIsNotSentTwice() throws Exception {
    TestContext context = new TestContext(args(2));
    OpenSearchExporter exporter = open(context);
    node.answer =
        request -> request.path().equals("/_bulk") ? new FakeNode.Answer(503, "{}") : FakeNode.OK;
    exporter.export(TestRecords.job(1, day(0)));
    Record<?> second = TestRecords.job(2, day(0));
    assertThatThrownBy(() -> exporter.export(second)).hasMessageContaining("503");

    // Before the director's retry, the timed flush runs and gets through.
    node.answer = request -> FakeNode.OK;
    context.runScheduled();
    assertThat(context.position).isEqualTo(2);
    exporter.export(second);
    exporter.export(TestRecords.job(3, day(0)));
    exporter.export(TestRecords.job(4, day(0)));

    List<FakeNode.Request> bulks = node.bulks();
    assertThat(ids(bulks.get(bulks.size() - 1))).containsExactly("1-3", "1-4");
    JsonNode third = JSON.readTree(bulks.get(bulks.size() - 1).lines().get(1));
    assertThat(third.get("sequence").asLong()).as("no number skipped").isEqualTo((1L << 51) + 3);
  }

  @Test
  void aTimedFlushThatFailsKeepsTheDocumentsForTheNextTry() throws Exception {
    TestContext context = new TestContext(args(1000));
    OpenSearchExporter exporter = open(context);
    node.answer =
        request ->
            request.path().equals("/_bulk")
                ? new FakeNode.Answer(500, "{\"error\":\"boom\"}")
                : FakeNode.OK;
    exporter.export(TestRecords.job(1, day(0)));

    context.runScheduled();
    assertThat(context.position).isEqualTo(-1);

    node.answer = request -> FakeNode.OK;
    exporter.export(TestRecords.job(2, day(0)));
    context.runScheduled();

    assertThat(ids(node.bulks().get(1))).containsExactly("1-1", "1-2");
    assertThat(context.position).isEqualTo(2);
  }

  @Test
  void anItemErrorFailsTheFlush() {
    TestContext context = new TestContext(args(1));
    OpenSearchExporter exporter = open(context);
    node.answer =
        request ->
            request.path().equals("/_bulk")
                ? new FakeNode.Answer(
                    200,
                    "{\"errors\":true,\"items\":[{\"index\":{\"_index\":\"zeebe-record_job_8.6.0_2026-12-07\","
                        + "\"_id\":\"1-1\",\"status\":400,\"error\":{\"type\":\"strict_dynamic_mapping_exception\","
                        + "\"reason\":\"mapping set to strict\"}}}]}")
                : FakeNode.OK;

    assertThatThrownBy(() -> exporter.export(TestRecords.job(1, day(0))))
        .hasMessageContaining("1 of 1 documents were not indexed")
        .hasMessageContaining("1-1")
        .hasMessageContaining("strict_dynamic_mapping_exception");
    assertThat(context.position).isEqualTo(-1);
  }

  @Test
  void aTemplateThatCannotBePutFailsTheExportAndIsTriedAgain() {
    TestContext context = new TestContext(args(1));
    OpenSearchExporter exporter = open(context);
    node.answer = request -> new FakeNode.Answer(401, "{\"error\":\"unauthorized\"}");

    assertThatThrownBy(() -> exporter.export(TestRecords.job(1, day(0))))
        .hasMessageContaining("_component_template")
        .hasMessageContaining("401");
    assertThat(node.bulks()).isEmpty();

    node.answer = request -> FakeNode.OK;
    exporter.export(TestRecords.job(1, day(0)));
    assertThat(node.bulks()).hasSize(1);
  }

  @Test
  void exportingAgainAfterARestartGivesTheSameIdsAndSequences() throws Exception {
    TestContext first = new TestContext(args(2));
    OpenSearchExporter exporter = open(first);
    exporter.export(TestRecords.job(1, day(0)));
    exporter.export(TestRecords.job(2, day(0)));
    exporter.export(TestRecords.job(3, day(0))); // buffered, never acknowledged
    opened.remove(exporter);
    node.answer = request -> new FakeNode.Answer(503, "{}"); // close cannot flush it
    exporter.close();
    node.answer = request -> FakeNode.OK;

    // A new leader: the stored position (2) and its metadata; record 3 comes again.
    TestContext second = new TestContext(args(2));
    second.metadata = first.metadata;
    OpenSearchExporter again = open(second);
    again.export(TestRecords.job(3, day(0)));
    again.export(TestRecords.job(4, day(0)));

    FakeNode.Request bulk = node.bulks().get(node.bulks().size() - 1);
    assertThat(ids(bulk)).containsExactly("1-3", "1-4");
    assertThat(JSON.readTree(bulk.lines().get(1)).get("sequence").asLong())
        .isEqualTo((1L << 51) + 3);
  }

  @Test
  void closeFlushesWhatIsBuffered() {
    TestContext context = new TestContext(args(1000));
    OpenSearchExporter exporter = open(context);
    exporter.export(TestRecords.job(1, day(0)));
    opened.remove(exporter);

    exporter.close();

    assertThat(node.bulks()).hasSize(1);
    assertThat(context.position).isEqualTo(1);
    assertThat(context.scheduled).as("the timed flush cancelled").isEmpty();
  }

  @Test
  void basicAuthenticationIsSentOnEveryRequestWithThePasswordFromAFile() throws Exception {
    Path secret = dir.resolve("password");
    Files.writeString(secret, "from-a-file\n");
    Map<String, Object> args = args(1);
    args.put("authentication", Map.of("username", "admin", "passwordFile", secret.toString()));
    OpenSearchExporter exporter = open(new TestContext(args));

    exporter.export(TestRecords.job(1, day(0)));

    String expected =
        "Basic "
            + Base64.getEncoder()
                .encodeToString("admin:from-a-file".getBytes(StandardCharsets.UTF_8));
    assertThat(node.requests)
        .isNotEmpty()
        .allSatisfy(r -> assertThat(r.authorization()).isEqualTo(expected));
  }

  @Test
  void withoutAuthenticationNoHeaderIsSent() {
    OpenSearchExporter exporter = open(new TestContext(args(1)));
    exporter.export(TestRecords.job(1, day(0)));
    assertThat(node.requests).allSatisfy(r -> assertThat(r.authorization()).isNull());
  }

  @Test
  void anUnreachableUrlIsSkippedForTheNext() throws Exception {
    int closedPort;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closedPort = socket.getLocalPort();
    }
    Map<String, Object> args = args(1);
    args.put("url", "http://127.0.0.1:" + closedPort + "," + node.url());
    TestContext context = new TestContext(args);
    OpenSearchExporter exporter = open(context);

    exporter.export(TestRecords.job(1, day(0)));

    assertThat(node.bulks()).hasSize(1);
    assertThat(context.position).isEqualTo(1);
  }

  @Test
  void recordsOfOtherValueTypesGoToTheirOwnIndices() throws Exception {
    OpenSearchExporter exporter = open(new TestContext(args(2)));
    exporter.export(TestRecords.job(1, day(0)));
    exporter.export(
        TestRecords.record(
            1,
            2,
            day(0),
            io.camunda.zeebe.protocol.record.RecordType.EVENT,
            ValueType.VARIABLE,
            io.camunda.zeebe.protocol.record.intent.VariableIntent.CREATED,
            io.camunda.zeebe.protocol.record.value.ImmutableVariableRecordValue.builder()
                .withName("amount")
                .withValue("12")
                .withTenantId("<default>")
                .build()));

    List<String> lines = node.bulks().get(0).lines();
    assertThat(JSON.readTree(lines.get(2)).at("/index/_index").asText())
        .isEqualTo("zeebe-record_variable_8.6.0_2026-12-07");
    // Each value type counts on its own.
    assertThat(JSON.readTree(lines.get(3)).get("sequence").asLong()).isEqualTo((1L << 51) + 1);
  }

  private static List<String> ids(FakeNode.Request bulk) throws Exception {
    List<String> ids = new ArrayList<>();
    List<String> lines = bulk.lines();
    for (int i = 0; i < lines.size(); i += 2) {
      ids.add(JSON.readTree(lines.get(i)).at("/index/_id").asText());
    }
    return ids;
  }
}

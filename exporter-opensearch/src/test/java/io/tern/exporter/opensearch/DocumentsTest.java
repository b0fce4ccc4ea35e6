package io.tern.exporter.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.camunda.zeebe.protocol.record.ImmutableRecord;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.intent.IncidentIntent;
import io.camunda.zeebe.protocol.record.intent.Intent;
import io.camunda.zeebe.protocol.record.intent.JobIntent;
import io.camunda.zeebe.protocol.record.intent.ProcessInstanceCreationIntent;
import io.camunda.zeebe.protocol.record.intent.ProcessInstanceIntent;
import io.camunda.zeebe.protocol.record.intent.TimerIntent;
import io.camunda.zeebe.protocol.record.intent.VariableIntent;
import io.camunda.zeebe.protocol.record.value.BpmnElementType;
import io.camunda.zeebe.protocol.record.value.BpmnEventType;
import io.camunda.zeebe.protocol.record.value.ErrorType;
import io.camunda.zeebe.protocol.record.value.ImmutableIncidentRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableJobRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceCreationRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceCreationStartInstructionValue;
import io.camunda.zeebe.protocol.record.value.ImmutableProcessInstanceRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableTimerRecordValue;
import io.camunda.zeebe.protocol.record.value.ImmutableVariableRecordValue;
import io.camunda.zeebe.protocol.record.value.JobKind;
import io.camunda.zeebe.protocol.record.value.JobListenerEventType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DocumentsTest {
  private final ObjectMapper json = new ObjectMapper();
  private final Documents documents = new Documents();

  @Test
  void aDocumentIsTheRecordsJsonWithoutAuthorizationsAndWithItsSequence() throws Exception {
    Record<?> record = TestRecords.job(2, 77, TestRecords.DAY_2026_12_07);

    JsonNode document = json.readTree(document(record, (2L << 51) + 5));

    List<String> fields = new ArrayList<>();
    document.fieldNames().forEachRemaining(fields::add);
    assertThat(fields)
        .containsExactlyInAnyOrder(
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
    assertThat(document.get("sequence").asLong()).isEqualTo((2L << 51) + 5);
    assertThat(document.get("position").asLong()).isEqualTo(77);
    assertThat(document.get("valueType").asText()).isEqualTo("JOB");
    assertThat(document.at("/value/type").asText()).isEqualTo("pay");
    assertThat(document.at("/value/customHeaders/region").asText()).isEqualTo("eu");
    assertThat(document.at("/value/variables/amount").asInt()).isEqualTo(12);
  }

  /**
   * The documents are what the exporter wrote before it wrote them itself: the record's {@code
   * toJson()} parsed, without {@code authorizations}, with {@code sequence}. Same fields, names and
   * values (numbers of the same kind), for the values written field by field and for those Jackson
   * writes.
   */
  @Test
  void everyDocumentHasTheContentOfTheRecordsJson() throws Exception {
    for (Record<?> record : variedRecords()) {
      long sequence = ((long) record.getPartitionId() << 51) + record.getPosition();

      JsonNode written = json.readTree(document(record, sequence));
      JsonNode roundTrip = json.readTree(roundTripDocument(record, sequence));

      assertThat(written)
          .as("%s %s", record.getValueType(), record.getIntent())
          .isEqualTo(roundTrip);
      assertThat(fieldNames(written.get("value")))
          .as("%s: the value's fields", record.getValueType())
          .containsExactlyInAnyOrderElementsOf(fieldNames(roundTrip.get("value")));
    }
  }

  @Test
  void aDocumentThatCannotBeWrittenLeavesNothingInTheBuffer() throws Exception {
    BulkBuffer buffer = new BulkBuffer(json.getFactory(), documents);
    Record<?> good = TestRecords.job(1, TestRecords.DAY_2026_12_07);
    assertThat(buffer.add("i", "1-1", "1", good, 1)).isTrue();
    int before = buffer.memoryUsage();
    // Fails after its value is written: half a document is in the generator by then.
    @SuppressWarnings("unchecked")
    Record<RecordValue> second =
        (Record<RecordValue>) TestRecords.job(2, TestRecords.DAY_2026_12_07);
    Record<?> broken =
        new TestRecords.JsonRecord<RecordValue>(
            ImmutableRecord.<RecordValue>builder().from(second).build()) {
          @Override
          public long getOperationReference() {
            throw new IllegalStateException("broken record");
          }
        };

    assertThatThrownBy(() -> buffer.add("i", "1-2", "1", broken, 2))
        .hasMessageContaining("broken record");
    assertThat(buffer.memoryUsage()).isEqualTo(before);
    assertThat(buffer.size()).isEqualTo(1);

    assertThat(buffer.add("i", "1-3", "1", TestRecords.job(3, TestRecords.DAY_2026_12_07), 3))
        .isTrue();
    String body = new String(buffer.bytes(), 0, buffer.memoryUsage(), StandardCharsets.UTF_8);
    String[] lines = body.split("\n", -1);
    assertThat(lines).hasSize(5).endsWith("");
    assertThat(json.readTree(lines[0]).at("/index/_id").asText()).isEqualTo("1-1");
    assertThat(json.readTree(lines[2]).at("/index/_id").asText()).isEqualTo("1-3");
    assertThat(json.readTree(lines[3]).get("position").asLong()).isEqualTo(3);
  }

  @Test
  void sequencesCountPerValueTypeAndSurviveInTheMetadata() {
    RecordCounters counters = new RecordCounters();
    assertThat(counters.nextSequence(1, ValueType.JOB)).isEqualTo((1L << 51) + 1);
    counters.count(ValueType.JOB);
    counters.count(ValueType.JOB);
    counters.count(ValueType.VARIABLE);
    assertThat(counters.nextSequence(1, ValueType.JOB)).isEqualTo((1L << 51) + 3);

    RecordCounters restored =
        RecordCounters.fromMetadata(Optional.of(counters.toMetadata(json)), json);
    assertThat(restored.counter(ValueType.JOB)).isEqualTo(2);
    assertThat(restored.counter(ValueType.VARIABLE)).isEqualTo(1);
    assertThat(
            RecordCounters.fromMetadata(Optional.of("not json".getBytes()), json)
                .counter(ValueType.JOB))
        .isZero();
  }

  private byte[] document(Record<?> record, long sequence) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JsonGenerator out = json.getFactory().createGenerator(bytes)) {
      documents.write(record, sequence, out);
    }
    return bytes.toByteArray();
  }

  /** How the exporter made a document before: a JSON round trip of the record's toJson(). */
  private byte[] roundTripDocument(Record<?> record, long sequence) throws IOException {
    JsonFactory factory = json.getFactory();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JsonParser in = factory.createParser(record.toJson());
        JsonGenerator out = factory.createGenerator(bytes)) {
      assertThat(in.nextToken()).isEqualTo(JsonToken.START_OBJECT);
      out.writeStartObject();
      while (in.nextToken() == JsonToken.FIELD_NAME) {
        String name = in.currentName();
        in.nextToken();
        if (name.equals("authorizations") || name.equals("sequence")) {
          in.skipChildren();
          continue;
        }
        out.writeFieldName(name);
        out.copyCurrentStructure(in);
      }
      out.writeNumberField("sequence", sequence);
      out.writeEndObject();
    }
    return bytes.toByteArray();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** Records of the types written field by field, with every kind of content, and a few others. */
  private static List<Record<?>> variedRecords() {
    Map<String, Object> variables = new LinkedHashMap<>();
    variables.put("amount", 12);
    variables.put("big", 1L << 40);
    variables.put("price", 12.75);
    variables.put("tiny", 1e-7);
    variables.put("ok", true);
    variables.put("nothing", null);
    variables.put("text", "\"quoted\" \\ ünïcødé \u2028 \ud83d\ude00");
    variables.put("list", List.of(1, "two", Map.of("three", 3)));
    variables.put("nested", Map.of("a", Map.of("b", List.of())));
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("region", "eu");
    headers.put("quote\"d", "line\nbreak");
    List<Record<?>> records = new ArrayList<>();
    long position = 100;
    records.add(
        record(
            ++position,
            ValueType.JOB,
            JobIntent.CREATED,
            ImmutableJobRecordValue.builder()
                .withType("pay")
                .withWorker("worker-1")
                .withRetries(3)
                .withRetryBackoff(1000)
                .withRecurringTime(TestRecords.DAY_2026_12_07 + 5)
                .withDeadline(TestRecords.DAY_2026_12_07 + 300_000)
                .withTimeout(300_000)
                .withErrorMessage("it \"failed\"")
                .withErrorCode("E1")
                .withElementId("task")
                .withElementInstanceKey(2251799813685260L)
                .withBpmnProcessId("order")
                .withProcessDefinitionVersion(4)
                .withProcessDefinitionKey(2251799813685248L)
                .withProcessInstanceKey(2251799813685249L)
                .withCustomHeaders(headers)
                .withVariables(variables)
                .withJobKind(JobKind.EXECUTION_LISTENER)
                .withJobListenerEventType(JobListenerEventType.START)
                .withChangedAttributes(Set.of("retries", "deadline"))
                .withTenantId("tenant-a")
                .build()));
    records.add(
        record(
            ++position,
            ValueType.JOB,
            JobIntent.COMPLETED,
            ImmutableJobRecordValue.builder().withType("empty").build()));
    for (BpmnElementType type :
        List.of(BpmnElementType.PROCESS, BpmnElementType.SERVICE_TASK, BpmnElementType.END_EVENT)) {
      records.add(
          record(
              ++position,
              ValueType.PROCESS_INSTANCE,
              ProcessInstanceIntent.ELEMENT_ACTIVATED,
              ImmutableProcessInstanceRecordValue.builder()
                  .withBpmnProcessId("order")
                  .withVersion(2)
                  .withProcessDefinitionKey(2251799813685248L)
                  .withProcessInstanceKey(2251799813685249L)
                  .withElementId("el-" + type)
                  .withFlowScopeKey(2251799813685249L)
                  .withBpmnElementType(type)
                  .withBpmnEventType(BpmnEventType.MESSAGE)
                  .withParentProcessInstanceKey(7)
                  .withParentElementInstanceKey(8)
                  .withTenantId("<default>")
                  .build()));
    }
    records.add(
        record(
            ++position,
            ValueType.PROCESS_INSTANCE,
            ProcessInstanceIntent.ELEMENT_COMPLETED,
            ImmutableProcessInstanceRecordValue.builder().build()));
    records.add(
        record(
            ++position,
            ValueType.VARIABLE,
            VariableIntent.UPDATED,
            ImmutableVariableRecordValue.builder()
                .withName("näme")
                .withValue("{\"a\":[1,2,\"x\"],\"b\":null}")
                .withScopeKey(2251799813685260L)
                .withProcessInstanceKey(2251799813685249L)
                .withProcessDefinitionKey(2251799813685248L)
                .withBpmnProcessId("order")
                .withTenantId("<default>")
                .build()));
    records.add(
        record(
            ++position,
            ValueType.PROCESS_INSTANCE_CREATION,
            ProcessInstanceCreationIntent.CREATED,
            ImmutableProcessInstanceCreationRecordValue.builder()
                .withBpmnProcessId("order")
                .withVersion(1)
                .withProcessDefinitionKey(2251799813685248L)
                .withProcessInstanceKey(2251799813685249L)
                .withVariables(variables)
                .withStartInstructions(
                    List.of(
                        ImmutableProcessInstanceCreationStartInstructionValue.builder()
                            .withElementId("start")
                            .build()))
                .withTenantId("<default>")
                .build()));
    records.add(
        record(
            ++position,
            ValueType.INCIDENT,
            IncidentIntent.CREATED,
            ImmutableIncidentRecordValue.builder()
                .withErrorType(ErrorType.JOB_NO_RETRIES)
                .withErrorMessage("no retries left")
                .withBpmnProcessId("order")
                .withElementId("task")
                .withJobKey(2251799813685270L)
                .build()));
    records.add(
        record(
            ++position,
            ValueType.TIMER,
            TimerIntent.CREATED,
            ImmutableTimerRecordValue.builder()
                .withDueDate(TestRecords.DAY_2026_12_07 + 60_000)
                .withRepetitions(-1)
                .withTargetElementId("timer")
                .build()));
    return records;
  }

  private static Record<?> record(long position, ValueType type, Intent intent, RecordValue value) {
    return TestRecords.record(
        3, position, TestRecords.DAY_2026_12_07 + position, RecordType.EVENT, type, intent, value);
  }
}

package io.tern.exporter.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.ValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DocumentsTest {
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void aDocumentIsTheRecordsJsonWithoutAuthorizationsAndWithItsSequence() throws Exception {
    Record<?> record = TestRecords.job(2, 77, TestRecords.DAY_2026_12_07);

    JsonNode document =
        json.readTree(new Documents(json.getFactory()).document(record, (2L << 51) + 5));

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
}

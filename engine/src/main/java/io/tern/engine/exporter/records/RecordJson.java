package io.tern.engine.exporter.records;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.ValueTypeMapping;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.Map;

/**
 * A record as the JSON Zeebe writes for it ({@code Record.toJson()}, the documents of its
 * Elasticsearch exporter, the "json" format of community exporters): the record's fields, and its
 * value as the properties of the value type's protocol interface ({@code JobRecordValue} for a job
 * record, and so on), named as their getters ({@code getBpmnProcessId} is {@code bpmnProcessId},
 * {@code isInterrupting} is {@code interrupting}), enums by name, bytes in Base64.
 *
 * <p>A value is written through its interface, not its class, so that a value class with more
 * methods than the protocol (an {@code Immutable...} class, or an exporter's own) writes what the
 * protocol defines and nothing else. Zeebe's {@code zeebe-protocol-jackson} module is not used: it
 * is not under the Apache License.
 */
public final class RecordJson {
  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          // Nested values (a job batch's jobs, a deployment's resources) through their declared
          // protocol interfaces too.
          .enable(MapperFeature.USE_STATIC_TYPING)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .build();

  private static final Map<ValueType, ObjectWriter> VALUE_WRITERS = valueWriters();

  private RecordJson() {}

  /** The record as Zeebe's JSON. */
  public static String toJson(Record<?> record) {
    StringWriter text = new StringWriter(512);
    try (JsonGenerator json = MAPPER.createGenerator(text)) {
      write(record, json);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write record " + record.getPosition() + " as JSON", e);
    }
    return text.toString();
  }

  /** Writes the record as one JSON object to {@code json}. */
  public static void write(Record<?> record, JsonGenerator json) throws IOException {
    json.writeStartObject();
    json.writeNumberField("partitionId", record.getPartitionId());
    json.writeFieldName("value");
    writeValue(record.getValueType(), record.getValue(), json);
    json.writeNumberField("key", record.getKey());
    json.writeNumberField("position", record.getPosition());
    json.writeNumberField("sourceRecordPosition", record.getSourceRecordPosition());
    json.writeNumberField("timestamp", record.getTimestamp());
    json.writeStringField("recordType", name(record.getRecordType()));
    json.writeStringField("valueType", name(record.getValueType()));
    json.writeStringField("intent", record.getIntent() == null ? null : record.getIntent().name());
    json.writeStringField("rejectionType", name(record.getRejectionType()));
    json.writeStringField("rejectionReason", record.getRejectionReason());
    json.writeStringField("brokerVersion", record.getBrokerVersion());
    json.writeNumberField("recordVersion", record.getRecordVersion());
    json.writeNumberField("operationReference", record.getOperationReference());
    json.writeFieldName("authorizations");
    MAPPER.writeValue(
        json, record.getAuthorizations() == null ? Map.of() : record.getAuthorizations());
    json.writeEndObject();
  }

  private static void writeValue(ValueType valueType, RecordValue value, JsonGenerator json)
      throws IOException {
    if (value == null) {
      json.writeNull();
      return;
    }
    ObjectWriter writer = valueType == null ? null : VALUE_WRITERS.get(valueType);
    if (writer == null) {
      // A value type the protocol maps to no value interface: its class's properties.
      MAPPER.writeValue(json, value);
    } else {
      writer.writeValue(json, value);
    }
  }

  private static String name(Enum<?> constant) {
    return constant == null ? null : constant.name();
  }

  private static Map<ValueType, ObjectWriter> valueWriters() {
    Map<ValueType, ObjectWriter> writers = new EnumMap<>(ValueType.class);
    for (ValueType valueType : ValueTypeMapping.getAcceptedValueTypes()) {
      writers.put(valueType, MAPPER.writerFor(ValueTypeMapping.get(valueType).getValueClass()));
    }
    return writers;
  }
}

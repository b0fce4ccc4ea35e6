package io.tern.exporter.opensearch;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.camunda.zeebe.protocol.record.ImmutableRecord;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.RejectionType;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.ValueTypeMapping;
import io.camunda.zeebe.protocol.record.intent.Intent;
import io.camunda.zeebe.protocol.record.intent.JobIntent;
import io.camunda.zeebe.protocol.record.value.ImmutableJobRecordValue;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.Map;

/**
 * Records for tests: the protocol's immutable records, whose {@code toJson()} throws, wrapped so
 * that it answers JSON written with Jackson through the value type's protocol interface (as the
 * engine's records write it).
 */
final class TestRecords {
  private static final JsonMapper JSON =
      JsonMapper.builder()
          .enable(MapperFeature.USE_STATIC_TYPING)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
          .build();

  /** One writer per value type, as the engine's {@code RecordJson} keeps them. */
  private static final Map<ValueType, ObjectWriter> WRITERS = new EnumMap<>(ValueType.class);

  static {
    for (ValueType valueType : ValueTypeMapping.getAcceptedValueTypes()) {
      WRITERS.put(valueType, JSON.writerFor(ValueTypeMapping.get(valueType).getValueClass()));
    }
  }

  private TestRecords() {}

  static final long DAY_2026_12_07 = 1_796_601_600_000L; // 2026-12-07T00:00:00Z

  /** A JOB CREATED event at this position and time on partition 1. */
  static Record<?> job(long position, long timestamp) {
    return job(1, position, timestamp);
  }

  static Record<?> job(int partition, long position, long timestamp) {
    return record(
        partition,
        position,
        timestamp,
        RecordType.EVENT,
        ValueType.JOB,
        JobIntent.CREATED,
        ImmutableJobRecordValue.builder()
            .withType("pay")
            .withRetries(3)
            .withElementId("task")
            .withBpmnProcessId("order")
            .withProcessInstanceKey(2251799813685249L)
            .withCustomHeaders(Map.of("region", "eu"))
            .withVariables(Map.of("amount", 12))
            .withTenantId("<default>")
            .build());
  }

  static Record<?> record(
      int partition,
      long position,
      long timestamp,
      RecordType recordType,
      ValueType valueType,
      Intent intent,
      RecordValue value) {
    return record(
        partition,
        position,
        2251799813685250L + position,
        timestamp,
        recordType,
        valueType,
        intent,
        value);
  }

  static Record<?> record(
      int partition,
      long position,
      long key,
      long timestamp,
      RecordType recordType,
      ValueType valueType,
      Intent intent,
      RecordValue value) {
    return new JsonRecord<>(
        ImmutableRecord.builder()
            .withPartitionId(partition)
            .withPosition(position)
            .withSourceRecordPosition(position - 1)
            .withKey(key)
            .withTimestamp(timestamp)
            .withRecordType(recordType)
            .withValueType(valueType)
            .withIntent(intent)
            .withRejectionType(RejectionType.NULL_VAL)
            .withRejectionReason("")
            .withBrokerVersion("8.6.0")
            .withRecordVersion(1)
            .withOperationReference(-1)
            .withAuthorizations(Map.of("authorized_tenants", java.util.List.of("<default>")))
            .withValue(value)
            .build());
  }

  /** The same record from a broker of another version. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  static Record<?> withBrokerVersion(Record<?> record, String brokerVersion) {
    return new JsonRecord<>(
        ImmutableRecord.builder().from((Record) record).withBrokerVersion(brokerVersion).build());
  }

  /** An immutable record whose toJson() works. */
  static class JsonRecord<T extends RecordValue> implements Record<T> {
    private final ImmutableRecord<T> record;

    JsonRecord(ImmutableRecord<T> record) {
      this.record = record;
    }

    @Override
    public long getPosition() {
      return record.getPosition();
    }

    @Override
    public long getSourceRecordPosition() {
      return record.getSourceRecordPosition();
    }

    @Override
    public long getKey() {
      return record.getKey();
    }

    @Override
    public long getTimestamp() {
      return record.getTimestamp();
    }

    @Override
    public Intent getIntent() {
      return record.getIntent();
    }

    @Override
    public int getPartitionId() {
      return record.getPartitionId();
    }

    @Override
    public RecordType getRecordType() {
      return record.getRecordType();
    }

    @Override
    public RejectionType getRejectionType() {
      return record.getRejectionType();
    }

    @Override
    public String getRejectionReason() {
      return record.getRejectionReason();
    }

    @Override
    public String getBrokerVersion() {
      return record.getBrokerVersion();
    }

    @Override
    public Map<String, Object> getAuthorizations() {
      return record.getAuthorizations();
    }

    @Override
    public int getRecordVersion() {
      return record.getRecordVersion();
    }

    @Override
    public ValueType getValueType() {
      return record.getValueType();
    }

    @Override
    public T getValue() {
      return record.getValue();
    }

    @Override
    public long getOperationReference() {
      return record.getOperationReference();
    }

    @Override
    public String toJson() {
      StringWriter text = new StringWriter();
      try (JsonGenerator json = JSON.createGenerator(text)) {
        json.writeStartObject();
        json.writeNumberField("partitionId", getPartitionId());
        json.writeFieldName("value");
        WRITERS.get(getValueType()).writeValue(json, getValue());
        json.writeNumberField("key", getKey());
        json.writeNumberField("position", getPosition());
        json.writeNumberField("sourceRecordPosition", getSourceRecordPosition());
        json.writeNumberField("timestamp", getTimestamp());
        json.writeStringField("recordType", getRecordType().name());
        json.writeStringField("valueType", getValueType().name());
        json.writeStringField("intent", getIntent().name());
        json.writeStringField("rejectionType", getRejectionType().name());
        json.writeStringField("rejectionReason", getRejectionReason());
        json.writeStringField("brokerVersion", getBrokerVersion());
        json.writeNumberField("recordVersion", getRecordVersion());
        json.writeNumberField("operationReference", getOperationReference());
        json.writeFieldName("authorizations");
        JSON.writeValue(json, getAuthorizations());
        json.writeEndObject();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return text.toString();
    }
  }
}

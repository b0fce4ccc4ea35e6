package io.tern.engine.exporter.records;

import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.RejectionType;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.intent.Intent;
import java.util.Map;
import java.util.Objects;

/**
 * A record handed to exporters: an immutable record whose {@link #toJson()} answers Zeebe's JSON
 * ({@link RecordJson}). The protocol's {@code ImmutableRecord} throws there, and exporters such as
 * the Kafka exporter, or the Hazelcast exporter in its "json" format, call it for every record.
 */
public final class JsonRecord<T extends RecordValue> implements Record<T> {
  private final Record<T> record;

  private JsonRecord(Record<T> record) {
    this.record = record;
  }

  /** {@code record}, which must not change afterwards, with Zeebe's JSON. */
  public static <T extends RecordValue> JsonRecord<T> of(Record<T> record) {
    Objects.requireNonNull(record, "record");
    return record instanceof JsonRecord<T> json ? json : new JsonRecord<>(record);
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

  /** This record: it is immutable already, and a copy must keep its JSON. */
  @Override
  public Record<T> copyOf() {
    return this;
  }

  @Override
  public String toJson() {
    return RecordJson.toJson(this);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof JsonRecord<?> json && record.equals(json.record);
  }

  @Override
  public int hashCode() {
    return record.hashCode();
  }

  @Override
  public String toString() {
    return toJson();
  }
}

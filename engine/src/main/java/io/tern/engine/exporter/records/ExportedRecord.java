package io.tern.engine.exporter.records;

import io.camunda.zeebe.protocol.record.ImmutableRecord;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.RecordValue;
import io.camunda.zeebe.protocol.record.RejectionType;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.intent.Intent;
import java.util.Map;

/**
 * An {@link ImmutableRecord} with the two methods the protocol's classes leave to Zeebe's own
 * records: {@link #copyOf()} (Zeebe's director hands out records that exporters must copy to keep;
 * this one is immutable, so it is its own copy) and {@link #toJson()}, which exporters use to ship
 * records as text (the Hazelcast exporter's JSON format, Kafka exporters). The protocol's default
 * of both throws.
 *
 * <p>The JSON is Zeebe's ({@link RecordJson}): the record's fields, and its value as the properties
 * of its value type's protocol interface ({@code value.bpmnProcessId}, ...), enums by name, byte
 * arrays (resources, checksums) in base64.
 *
 * <p>Public, as the protocol's classes are: an exporter that serializes records with its own
 * Jackson (by their getters) reaches them through the record's class.
 */
public final class ExportedRecord<T extends RecordValue> implements Record<T> {
  private final ImmutableRecord<T> record;

  ExportedRecord(ImmutableRecord<T> record) {
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
  public Record<T> copyOf() {
    return this;
  }

  @Override
  public String toJson() {
    return RecordJson.toJson(this);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof ExportedRecord<?> exported && record.equals(exported.record);
  }

  @Override
  public int hashCode() {
    return record.hashCode();
  }

  @Override
  public String toString() {
    return record.toString();
  }
}

package io.tern.engine.exporter;

import io.camunda.zeebe.protocol.record.ImmutableRecord;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.ValueType;
import io.camunda.zeebe.protocol.record.intent.Intent;
import io.tern.engine.record.LoggedRecord;

/**
 * A stand-in for the real mapper in the director's tests: key, position, value type, intent and
 * record type only; value types without a Zeebe namesake are not mapped.
 */
public final class TestRecordMapper implements ExportRecordMapper {
  @Override
  public Record<?> map(LoggedRecord record) {
    if (record.valueType() == null) {
      return null;
    }
    ValueType valueType;
    try {
      valueType = ValueType.valueOf(record.valueType().name());
    } catch (IllegalArgumentException e) {
      return null;
    }
    Intent intent;
    try {
      intent = Intent.fromProtocolValue(valueType, record.intent().name());
    } catch (RuntimeException e) {
      intent = Intent.UNKNOWN;
    }
    return ImmutableRecord.builder()
        .withKey(record.key())
        .withPosition(record.position())
        .withTimestamp(record.timestamp())
        .withPartitionId(record.partitionId())
        .withValueType(valueType)
        .withIntent(intent)
        .withRecordType(RecordType.valueOf(record.recordType().name()))
        .build();
  }
}

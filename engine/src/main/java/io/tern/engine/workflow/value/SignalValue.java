package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.SignalValueDecoder;
import io.tern.engine.record.sbe.SignalValueEncoder;

/**
 * A signal: its name and variables (a JSON object). The partition it was broadcast on sends a copy
 * with the same key to every other partition, which acknowledges it.
 */
public final class SignalValue extends MappedValue<SignalValue> {
  private static final ValueFields<SignalValue> FIELDS =
      ValueFields.of(SignalValue.class, SignalValueEncoder.class, SignalValueDecoder.class)
          .int32("originPartitionId", v -> v.originPartitionId, (v, x) -> v.originPartitionId = x)
          .int32("partitionId", v -> v.partitionId, (v, x) -> v.partitionId = x)
          .string("signalName", v -> v.signalName, (v, x) -> v.signalName = x)
          .bytes("variables", v -> v.variables, (v, x) -> v.variables = x)
          .build();

  /** The partition it was broadcast on; -1 until that partition takes it. */
  public int originPartitionId = -1;

  /** ACKNOWLEDGE: the partition that took the copy; else -1. */
  public int partitionId = -1;

  public String signalName = "";
  public byte[] variables = new byte[0];

  public SignalValue() {
    super(FIELDS);
  }
}

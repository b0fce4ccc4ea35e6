package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.SignalValueDecoder;
import io.tern.engine.record.sbe.SignalValueEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A signal: its name and variables (a JSON object). The partition it was broadcast on sends a copy
 * with the same key to every other partition, which acknowledges it.
 */
public final class SignalValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final SignalValueEncoder encoder = new SignalValueEncoder();
  private final SignalValueDecoder decoder = new SignalValueDecoder();

  /** The partition it was broadcast on; -1 until that partition takes it. */
  public int originPartitionId = -1;

  /** ACKNOWLEDGE: the partition that took the copy; else -1. */
  public int partitionId = -1;

  public String signalName = "";
  public byte[] variables = new byte[0];

  public SignalValue copyFrom(SignalValue other) {
    originPartitionId = other.originPartitionId;
    partitionId = other.partitionId;
    signalName = other.signalName;
    variables = other.variables;
    return this;
  }

  @Override
  protected int templateId() {
    return SignalValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .originPartitionId(originPartitionId)
        .partitionId(partitionId)
        .signalName(signalName)
        .putVariables(variables, 0, variables.length);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    originPartitionId = decoder.originPartitionId();
    partitionId = decoder.partitionId();
    signalName = decoder.signalName();
    variables = new byte[decoder.variablesLength()];
    decoder.getVariables(variables, 0, variables.length);
  }
}

package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.VariableValueDecoder;
import io.tern.engine.record.sbe.VariableValueEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** One variable: its scope (an element instance), name and JSON value. */
public final class VariableValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final VariableValueEncoder encoder = new VariableValueEncoder();
  private final VariableValueDecoder decoder = new VariableValueDecoder();

  public long scopeKey = -1;
  public long processInstanceKey = -1;
  public long processDefinitionKey = -1;
  public String name = "";
  public byte[] value = new byte[0];

  @Override
  protected int templateId() {
    return VariableValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .scopeKey(scopeKey)
        .processInstanceKey(processInstanceKey)
        .processDefinitionKey(processDefinitionKey)
        .name(name)
        .putValue(value, 0, value.length);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    scopeKey = decoder.scopeKey();
    processInstanceKey = decoder.processInstanceKey();
    processDefinitionKey = decoder.processDefinitionKey();
    name = decoder.name();
    value = new byte[decoder.valueLength()];
    decoder.getValue(value, 0, value.length);
  }
}

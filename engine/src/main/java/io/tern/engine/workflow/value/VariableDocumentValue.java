package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.BooleanType;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.VariableDocumentValueDecoder;
import io.tern.engine.record.sbe.VariableDocumentValueEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** Variables set on an element instance from outside (the gateway's SetVariables). */
public final class VariableDocumentValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final VariableDocumentValueEncoder encoder = new VariableDocumentValueEncoder();
  private final VariableDocumentValueDecoder decoder = new VariableDocumentValueDecoder();

  public long scopeKey = -1;

  /** True: set in the scope itself; false: each goes where a job completion's would. */
  public boolean local;

  public byte[] variables = new byte[0];

  @Override
  protected int templateId() {
    return VariableDocumentValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .scopeKey(scopeKey)
        .local(local ? BooleanType.TRUE : BooleanType.FALSE)
        .putVariables(variables, 0, variables.length);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    scopeKey = decoder.scopeKey();
    local = decoder.local() == BooleanType.TRUE;
    variables = new byte[decoder.variablesLength()];
    decoder.getVariables(variables, 0, variables.length);
  }
}

package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.BooleanType;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.ProcessEventValueDecoder;
import io.tern.engine.record.sbe.ProcessEventValueEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A boundary event triggered on an activity instance (by a timer, an error, ...), with the
 * variables the trigger brings.
 */
public final class ProcessEventValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final ProcessEventValueEncoder encoder = new ProcessEventValueEncoder();
  private final ProcessEventValueDecoder decoder = new ProcessEventValueDecoder();

  /** The activity instance the boundary event is attached to. */
  public long scopeKey = -1;

  public long processInstanceKey = -1;
  public long processDefinitionKey = -1;
  public boolean interrupting;
  public String targetElementId = "";
  public String bpmnProcessId = "";
  public byte[] variables = new byte[0];

  @Override
  protected int templateId() {
    return ProcessEventValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .scopeKey(scopeKey)
        .processInstanceKey(processInstanceKey)
        .processDefinitionKey(processDefinitionKey)
        .interrupting(interrupting ? BooleanType.TRUE : BooleanType.FALSE)
        .targetElementId(targetElementId)
        .bpmnProcessId(bpmnProcessId)
        .putVariables(variables, 0, variables.length);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    scopeKey = decoder.scopeKey();
    processInstanceKey = decoder.processInstanceKey();
    processDefinitionKey = decoder.processDefinitionKey();
    interrupting = decoder.interrupting() == BooleanType.TRUE;
    targetElementId = decoder.targetElementId();
    bpmnProcessId = decoder.bpmnProcessId();
    variables = new byte[decoder.variablesLength()];
    decoder.getVariables(variables, 0, variables.length);
  }
}

package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.ProcessInstanceValueDecoder;
import io.tern.engine.record.sbe.ProcessInstanceValueEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** One element instance of a process instance (the process itself included). */
public final class ProcessInstanceValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final ProcessInstanceValueEncoder encoder = new ProcessInstanceValueEncoder();
  private final ProcessInstanceValueDecoder decoder = new ProcessInstanceValueDecoder();

  public long processInstanceKey = -1;
  public long processDefinitionKey = -1;
  public long flowScopeKey = -1;
  public int version;
  public BpmnElementType elementType = BpmnElementType.PROCESS;
  public String bpmnProcessId = "";
  public String elementId = "";

  public ProcessInstanceValue copyFrom(ProcessInstanceValue other) {
    processInstanceKey = other.processInstanceKey;
    processDefinitionKey = other.processDefinitionKey;
    flowScopeKey = other.flowScopeKey;
    version = other.version;
    elementType = other.elementType;
    bpmnProcessId = other.bpmnProcessId;
    elementId = other.elementId;
    return this;
  }

  @Override
  protected int templateId() {
    return ProcessInstanceValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .processInstanceKey(processInstanceKey)
        .processDefinitionKey(processDefinitionKey)
        .flowScopeKey(flowScopeKey)
        .version(version)
        .bpmnElementType((short) elementType.ordinal())
        .bpmnProcessId(bpmnProcessId)
        .elementId(elementId);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    processInstanceKey = decoder.processInstanceKey();
    processDefinitionKey = decoder.processDefinitionKey();
    flowScopeKey = decoder.flowScopeKey();
    this.version = decoder.version();
    elementType = BpmnElementType.of(decoder.bpmnElementType());
    bpmnProcessId = decoder.bpmnProcessId();
    elementId = decoder.elementId();
  }

  @Override
  public String toString() {
    return elementType + " " + elementId + " of " + bpmnProcessId + " #" + processInstanceKey;
  }
}

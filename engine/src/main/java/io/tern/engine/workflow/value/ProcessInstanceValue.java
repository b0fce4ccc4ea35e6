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

  /** For a process called by a call activity: that call activity's instance; else -1. */
  public long parentElementInstanceKey = -1;

  public int version;
  public BpmnElementType elementType = BpmnElementType.PROCESS;
  public String bpmnProcessId = "";
  public String elementId = "";

  public ProcessInstanceValue copyFrom(ProcessInstanceValue other) {
    processInstanceKey = other.processInstanceKey;
    processDefinitionKey = other.processDefinitionKey;
    flowScopeKey = other.flowScopeKey;
    parentElementInstanceKey = other.parentElementInstanceKey;
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
        .parentElementInstanceKey(parentElementInstanceKey)
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
    long parent = decoder.parentElementInstanceKey();
    // Written before version 2: the field is absent, and was -1 in meaning.
    parentElementInstanceKey =
        parent == ProcessInstanceValueDecoder.parentElementInstanceKeyNullValue() ? -1 : parent;
    bpmnProcessId = decoder.bpmnProcessId();
    elementId = decoder.elementId();
  }

  @Override
  public String toString() {
    return elementType + " " + elementId + " of " + bpmnProcessId + " #" + processInstanceKey;
  }
}

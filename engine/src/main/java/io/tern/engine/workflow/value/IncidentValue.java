package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.IncidentValueDecoder;
import io.tern.engine.record.sbe.IncidentValueEncoder;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** An incident: what went wrong, where, and (for job incidents) which job. */
public final class IncidentValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final IncidentValueEncoder encoder = new IncidentValueEncoder();
  private final IncidentValueDecoder decoder = new IncidentValueDecoder();

  public ErrorType errorType = ErrorType.UNKNOWN;
  public long processInstanceKey = -1;
  public long elementInstanceKey = -1;
  public long processDefinitionKey = -1;
  public long jobKey = -1;
  public String bpmnProcessId = "";
  public String elementId = "";
  public String errorMessage = "";

  @Override
  protected int templateId() {
    return IncidentValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .errorType((short) errorType.ordinal())
        .processInstanceKey(processInstanceKey)
        .elementInstanceKey(elementInstanceKey)
        .processDefinitionKey(processDefinitionKey)
        .jobKey(jobKey)
        .bpmnProcessId(bpmnProcessId)
        .elementId(elementId)
        .errorMessage(errorMessage);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    errorType = ErrorType.of(decoder.errorType());
    processInstanceKey = decoder.processInstanceKey();
    elementInstanceKey = decoder.elementInstanceKey();
    processDefinitionKey = decoder.processDefinitionKey();
    jobKey = decoder.jobKey();
    bpmnProcessId = decoder.bpmnProcessId();
    elementId = decoder.elementId();
    errorMessage = decoder.errorMessage();
  }
}

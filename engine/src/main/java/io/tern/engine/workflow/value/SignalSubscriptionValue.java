package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.SignalSubscriptionValueDecoder;
import io.tern.engine.record.sbe.SignalSubscriptionValueEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What waits for a signal: an element instance (a catch event, the activity of a boundary event,
 * the scope of an event subprocess) or, with element instance key -1, a process's signal start
 * event.
 */
public final class SignalSubscriptionValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final SignalSubscriptionValueEncoder encoder = new SignalSubscriptionValueEncoder();
  private final SignalSubscriptionValueDecoder decoder = new SignalSubscriptionValueDecoder();

  public long elementInstanceKey = -1;
  public long processInstanceKey = -1;
  public long processDefinitionKey = -1;
  public String signalName = "";
  public String bpmnProcessId = "";

  /** The event the signal triggers. */
  public String elementId = "";

  public SignalSubscriptionValue copyFrom(SignalSubscriptionValue other) {
    elementInstanceKey = other.elementInstanceKey;
    processInstanceKey = other.processInstanceKey;
    processDefinitionKey = other.processDefinitionKey;
    signalName = other.signalName;
    bpmnProcessId = other.bpmnProcessId;
    elementId = other.elementId;
    return this;
  }

  @Override
  protected int templateId() {
    return SignalSubscriptionValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .elementInstanceKey(elementInstanceKey)
        .processInstanceKey(processInstanceKey)
        .processDefinitionKey(processDefinitionKey)
        .signalName(signalName)
        .bpmnProcessId(bpmnProcessId)
        .elementId(elementId);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    elementInstanceKey = decoder.elementInstanceKey();
    processInstanceKey = decoder.processInstanceKey();
    processDefinitionKey = decoder.processDefinitionKey();
    signalName = decoder.signalName();
    bpmnProcessId = decoder.bpmnProcessId();
    elementId = decoder.elementId();
  }
}

package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.BooleanType;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import io.tern.engine.record.sbe.MessageSubscriptionValueDecoder;
import io.tern.engine.record.sbe.MessageSubscriptionValueEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * An element instance waiting for a message: kept on the process instance's partition and on the
 * message's (the correlation key's) partition, which talk through commands on each other's logs.
 */
public final class MessageSubscriptionValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final MessageSubscriptionValueEncoder encoder = new MessageSubscriptionValueEncoder();
  private final MessageSubscriptionValueDecoder decoder = new MessageSubscriptionValueDecoder();

  public long processInstanceKey = -1;

  /** The catch event or receive task, or the activity a message boundary event is attached to. */
  public long elementInstanceKey = -1;

  public long processDefinitionKey = -1;

  /** The message being correlated, or -1. */
  public long messageKey = -1;

  /** False for a non-interrupting boundary event, which may correlate message after message. */
  public boolean interrupting = true;

  public String bpmnProcessId = "";
  public String messageName = "";
  public String correlationKey = "";

  /** The event the message triggers. */
  public String elementId = "";

  /** The correlated message's variables (JSON object), or empty. */
  public byte[] variables = new byte[0];

  public MessageSubscriptionValue copyFrom(MessageSubscriptionValue other) {
    processInstanceKey = other.processInstanceKey;
    elementInstanceKey = other.elementInstanceKey;
    processDefinitionKey = other.processDefinitionKey;
    messageKey = other.messageKey;
    interrupting = other.interrupting;
    bpmnProcessId = other.bpmnProcessId;
    messageName = other.messageName;
    correlationKey = other.correlationKey;
    elementId = other.elementId;
    variables = other.variables;
    return this;
  }

  @Override
  protected int templateId() {
    return MessageSubscriptionValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .processInstanceKey(processInstanceKey)
        .elementInstanceKey(elementInstanceKey)
        .processDefinitionKey(processDefinitionKey)
        .messageKey(messageKey)
        .interrupting(interrupting ? BooleanType.TRUE : BooleanType.FALSE)
        .bpmnProcessId(bpmnProcessId)
        .messageName(messageName)
        .correlationKey(correlationKey)
        .elementId(elementId)
        .putVariables(variables, 0, variables.length);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    processInstanceKey = decoder.processInstanceKey();
    elementInstanceKey = decoder.elementInstanceKey();
    processDefinitionKey = decoder.processDefinitionKey();
    messageKey = decoder.messageKey();
    interrupting = decoder.interrupting() == BooleanType.TRUE;
    bpmnProcessId = decoder.bpmnProcessId();
    messageName = decoder.messageName();
    correlationKey = decoder.correlationKey();
    elementId = decoder.elementId();
    variables = new byte[decoder.variablesLength()];
    decoder.getVariables(variables, 0, variables.length);
  }
}

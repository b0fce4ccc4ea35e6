package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageSubscriptionValueDecoder;
import io.tern.engine.record.sbe.MessageSubscriptionValueEncoder;

/**
 * An element instance waiting for a message: kept on the process instance's partition and on the
 * message's (the correlation key's) partition, which talk through commands on each other's logs.
 */
public final class MessageSubscriptionValue extends MappedValue<MessageSubscriptionValue> {
  private static final ValueFields<MessageSubscriptionValue> FIELDS =
      ValueFields.of(
              MessageSubscriptionValue.class,
              MessageSubscriptionValueEncoder.class,
              MessageSubscriptionValueDecoder.class)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .int64(
              "elementInstanceKey", v -> v.elementInstanceKey, (v, x) -> v.elementInstanceKey = x)
          .int64(
              "processDefinitionKey",
              v -> v.processDefinitionKey,
              (v, x) -> v.processDefinitionKey = x)
          .int64("messageKey", v -> v.messageKey, (v, x) -> v.messageKey = x)
          .bool("interrupting", v -> v.interrupting, (v, x) -> v.interrupting = x)
          .string("bpmnProcessId", v -> v.bpmnProcessId, (v, x) -> v.bpmnProcessId = x)
          .string("messageName", v -> v.messageName, (v, x) -> v.messageName = x)
          .string("correlationKey", v -> v.correlationKey, (v, x) -> v.correlationKey = x)
          .string("elementId", v -> v.elementId, (v, x) -> v.elementId = x)
          .bytes("variables", v -> v.variables, (v, x) -> v.variables = x)
          .build();

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

  public MessageSubscriptionValue() {
    super(FIELDS);
  }
}

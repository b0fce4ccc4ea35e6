package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageValueDecoder;
import io.tern.engine.record.sbe.MessageValueEncoder;

/** A published message: name, correlation key, time to live, id and variables. */
public final class MessageValue extends MappedValue<MessageValue> {
  private static final ValueFields<MessageValue> FIELDS =
      ValueFields.of(MessageValue.class, MessageValueEncoder.class, MessageValueDecoder.class)
          .int64("timeToLiveMs", v -> v.timeToLiveMs, (v, x) -> v.timeToLiveMs = x)
          .int64("deadline", v -> v.deadlineMs, (v, x) -> v.deadlineMs = x)
          .string("name", v -> v.name, (v, x) -> v.name = x)
          .string("correlationKey", v -> v.correlationKey, (v, x) -> v.correlationKey = x)
          .string("messageId", v -> v.messageId, (v, x) -> v.messageId = x)
          .bytes("variables", v -> v.variables, (v, x) -> v.variables = x)
          .build();

  public long timeToLiveMs;
  public long deadlineMs = -1;
  public String name = "";
  public String correlationKey = "";
  public String messageId = "";
  public byte[] variables = new byte[0];

  public MessageValue() {
    super(FIELDS);
  }
}

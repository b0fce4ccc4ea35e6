package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.MessageCorrelationValueDecoder;
import io.tern.engine.record.sbe.MessageCorrelationValueEncoder;

/**
 * A message published to be taken now or never (CorrelateMessage): its name, correlation key and
 * variables; once published its key, while its offers await answers the request it answers and how
 * many offers are pending, and once taken the process instance that took it.
 */
public final class MessageCorrelationValue extends MappedValue<MessageCorrelationValue> {
  private static final ValueFields<MessageCorrelationValue> FIELDS =
      ValueFields.of(
              MessageCorrelationValue.class,
              MessageCorrelationValueEncoder.class,
              MessageCorrelationValueDecoder.class)
          .int64("messageKey", v -> v.messageKey, (v, x) -> v.messageKey = x)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .int64("requestId", v -> v.requestId, (v, x) -> v.requestId = x)
          .int32("requestStreamId", v -> v.requestStreamId, (v, x) -> v.requestStreamId = x)
          .int32("pendingOffers", v -> v.pendingOffers, (v, x) -> v.pendingOffers = x)
          .string("name", v -> v.name, (v, x) -> v.name = x)
          .string("correlationKey", v -> v.correlationKey, (v, x) -> v.correlationKey = x)
          .bytes("variables", v -> v.variables, (v, x) -> v.variables = x)
          .build();

  public long messageKey = -1;
  public long processInstanceKey = -1;
  public long requestId = -1;
  public int requestStreamId = -1;
  public int pendingOffers;
  public String name = "";
  public String correlationKey = "";
  public byte[] variables = new byte[0];

  public MessageCorrelationValue() {
    super(FIELDS);
  }
}

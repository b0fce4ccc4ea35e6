package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.CompensationSubscriptionValueDecoder;
import io.tern.engine.record.sbe.CompensationSubscriptionValueEncoder;
import io.tern.engine.record.sbe.MessageHeaderEncoder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * An activity instance that completed and can be compensated: its compensation handler, or, for a
 * subprocess (or multi-instance body) without one, the compensable activities that completed in it
 * (their {@code scopeKey} is its {@code activityInstanceKey}). A throw event fills in itself and
 * the handler instance it started.
 */
public final class CompensationSubscriptionValue extends WorkflowValue {
  private final MessageHeaderEncoder header = new MessageHeaderEncoder();
  private final CompensationSubscriptionValueEncoder encoder =
      new CompensationSubscriptionValueEncoder();
  private final CompensationSubscriptionValueDecoder decoder =
      new CompensationSubscriptionValueDecoder();

  public long processInstanceKey = -1;
  public long processDefinitionKey = -1;
  public long activityInstanceKey = -1;
  public long scopeKey = -1;
  public long throwEventInstanceKey = -1;
  public long handlerInstanceKey = -1;
  public long handlerScopeKey = -1;
  public String activityId = "";

  /** Empty for a subprocess that only holds compensable activities. */
  public String handlerId = "";

  public String throwEventId = "";

  public CompensationSubscriptionValue copyFrom(CompensationSubscriptionValue other) {
    processInstanceKey = other.processInstanceKey;
    processDefinitionKey = other.processDefinitionKey;
    activityInstanceKey = other.activityInstanceKey;
    scopeKey = other.scopeKey;
    throwEventInstanceKey = other.throwEventInstanceKey;
    handlerInstanceKey = other.handlerInstanceKey;
    handlerScopeKey = other.handlerScopeKey;
    activityId = other.activityId;
    handlerId = other.handlerId;
    throwEventId = other.throwEventId;
    return this;
  }

  public boolean hasHandler() {
    return !handlerId.isEmpty();
  }

  public boolean isTriggered() {
    return throwEventInstanceKey >= 0;
  }

  @Override
  protected int templateId() {
    return CompensationSubscriptionValueEncoder.TEMPLATE_ID;
  }

  @Override
  protected int encode(MutableDirectBuffer buffer, int offset) {
    encoder
        .wrapAndApplyHeader(buffer, offset, header)
        .processInstanceKey(processInstanceKey)
        .processDefinitionKey(processDefinitionKey)
        .activityInstanceKey(activityInstanceKey)
        .scopeKey(scopeKey)
        .throwEventInstanceKey(throwEventInstanceKey)
        .handlerInstanceKey(handlerInstanceKey)
        .handlerScopeKey(handlerScopeKey)
        .activityId(activityId)
        .handlerId(handlerId)
        .throwEventId(throwEventId);
    return MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
  }

  @Override
  protected void decode(DirectBuffer buffer, int offset, int blockLength, int version, int length) {
    decoder.wrap(buffer, offset, blockLength, version);
    processInstanceKey = decoder.processInstanceKey();
    processDefinitionKey = decoder.processDefinitionKey();
    activityInstanceKey = decoder.activityInstanceKey();
    scopeKey = decoder.scopeKey();
    throwEventInstanceKey = decoder.throwEventInstanceKey();
    handlerInstanceKey = decoder.handlerInstanceKey();
    handlerScopeKey = decoder.handlerScopeKey();
    activityId = decoder.activityId();
    handlerId = decoder.handlerId();
    throwEventId = decoder.throwEventId();
  }
}

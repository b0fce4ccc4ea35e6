package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.CompensationSubscriptionValueDecoder;
import io.tern.engine.record.sbe.CompensationSubscriptionValueEncoder;

/**
 * An activity instance that completed and can be compensated: its compensation handler, or, for a
 * subprocess (or multi-instance body) without one, the compensable activities that completed in it
 * (their {@code scopeKey} is its {@code activityInstanceKey}). A throw event fills in itself and
 * the handler instance it started.
 */
public final class CompensationSubscriptionValue
    extends MappedValue<CompensationSubscriptionValue> {
  private static final ValueFields<CompensationSubscriptionValue> FIELDS =
      ValueFields.of(
              CompensationSubscriptionValue.class,
              CompensationSubscriptionValueEncoder.class,
              CompensationSubscriptionValueDecoder.class)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .int64(
              "processDefinitionKey",
              v -> v.processDefinitionKey,
              (v, x) -> v.processDefinitionKey = x)
          .int64(
              "activityInstanceKey",
              v -> v.activityInstanceKey,
              (v, x) -> v.activityInstanceKey = x)
          .int64("scopeKey", v -> v.scopeKey, (v, x) -> v.scopeKey = x)
          .int64(
              "throwEventInstanceKey",
              v -> v.throwEventInstanceKey,
              (v, x) -> v.throwEventInstanceKey = x)
          .int64(
              "handlerInstanceKey", v -> v.handlerInstanceKey, (v, x) -> v.handlerInstanceKey = x)
          .int64("handlerScopeKey", v -> v.handlerScopeKey, (v, x) -> v.handlerScopeKey = x)
          .string("activityId", v -> v.activityId, (v, x) -> v.activityId = x)
          .string("handlerId", v -> v.handlerId, (v, x) -> v.handlerId = x)
          .string("throwEventId", v -> v.throwEventId, (v, x) -> v.throwEventId = x)
          .build();

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

  public CompensationSubscriptionValue() {
    super(FIELDS);
  }

  public boolean hasHandler() {
    return !handlerId.isEmpty();
  }

  public boolean isTriggered() {
    return throwEventInstanceKey >= 0;
  }
}

package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.SignalSubscriptionValueDecoder;
import io.tern.engine.record.sbe.SignalSubscriptionValueEncoder;

/**
 * What waits for a signal: an element instance (a catch event, the activity of a boundary event,
 * the scope of an event subprocess) or, with element instance key -1, a process's signal start
 * event.
 */
public final class SignalSubscriptionValue extends MappedValue<SignalSubscriptionValue> {
  private static final ValueFields<SignalSubscriptionValue> FIELDS =
      ValueFields.of(
              SignalSubscriptionValue.class,
              SignalSubscriptionValueEncoder.class,
              SignalSubscriptionValueDecoder.class)
          .int64(
              "elementInstanceKey", v -> v.elementInstanceKey, (v, x) -> v.elementInstanceKey = x)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .int64(
              "processDefinitionKey",
              v -> v.processDefinitionKey,
              (v, x) -> v.processDefinitionKey = x)
          .string("signalName", v -> v.signalName, (v, x) -> v.signalName = x)
          .string("bpmnProcessId", v -> v.bpmnProcessId, (v, x) -> v.bpmnProcessId = x)
          .string("elementId", v -> v.elementId, (v, x) -> v.elementId = x)
          .build();

  public long elementInstanceKey = -1;
  public long processInstanceKey = -1;
  public long processDefinitionKey = -1;
  public String signalName = "";
  public String bpmnProcessId = "";

  /** The event the signal triggers. */
  public String elementId = "";

  public SignalSubscriptionValue() {
    super(FIELDS);
  }
}

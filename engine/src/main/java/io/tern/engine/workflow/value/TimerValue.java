package io.tern.engine.workflow.value;

import io.tern.engine.record.sbe.TimerValueDecoder;
import io.tern.engine.record.sbe.TimerValueEncoder;

/** A timer: when it is due, and which event of which element instance it triggers. */
public final class TimerValue extends MappedValue<TimerValue> {
  private static final ValueFields<TimerValue> FIELDS =
      ValueFields.of(TimerValue.class, TimerValueEncoder.class, TimerValueDecoder.class)
          .int64(
              "elementInstanceKey", v -> v.elementInstanceKey, (v, x) -> v.elementInstanceKey = x)
          .int64(
              "processInstanceKey", v -> v.processInstanceKey, (v, x) -> v.processInstanceKey = x)
          .int64(
              "processDefinitionKey",
              v -> v.processDefinitionKey,
              (v, x) -> v.processDefinitionKey = x)
          .int64("dueDate", v -> v.dueDateMs, (v, x) -> v.dueDateMs = x)
          .int32("repetitions", v -> v.repetitions, (v, x) -> v.repetitions = x)
          .int64("intervalMs", v -> v.intervalMs, (v, x) -> v.intervalMs = x)
          .string("targetElementId", v -> v.targetElementId, (v, x) -> v.targetElementId = x)
          .string("bpmnProcessId", v -> v.bpmnProcessId, (v, x) -> v.bpmnProcessId = x)
          .build();

  /** {@link #repetitions} of a cycle without end. */
  public static final int UNBOUNDED = -1;

  /** The catch event waiting, or the activity a boundary event is attached to. */
  public long elementInstanceKey = -1;

  public long processInstanceKey = -1;
  public long processDefinitionKey = -1;
  public long dueDateMs;

  /** Firings left, this one included, or {@link #UNBOUNDED}. */
  public int repetitions = 1;

  /** Between firings of a cycle; -1 for a timer that fires once. */
  public long intervalMs = -1;

  public String targetElementId = "";
  public String bpmnProcessId = "";

  public TimerValue() {
    super(FIELDS);
  }
}

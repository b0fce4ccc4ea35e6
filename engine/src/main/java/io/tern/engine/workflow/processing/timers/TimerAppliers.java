package io.tern.engine.workflow.processing.timers;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.value.TimerValue;

/** The appliers of timer events. */
public final class TimerAppliers {
  private final WorkflowState state;
  private final TimerValue timer = new TimerValue();

  private TimerAppliers(WorkflowState state) {
    this.state = state;
  }

  public static void register(RecordProcessors on, WorkflowState state) {
    new TimerAppliers(state).registerAll(on);
  }

  private void registerAll(RecordProcessors on) {
    on.onEvent(
            TimerIntent.CREATED,
            event -> state.timers().put(event.key(), timer.readFrom(event.value())))
        .onEvent(
            TimerIntent.TRIGGERED,
            event -> {
              removeTimer(event);
              timer.readFrom(event.value());
              if (timer.elementInstanceKey < 0 && timer.processInstanceKey >= 0) {
                // A timer start event starts this instance at it.
                state.startEvents().put(timer.processInstanceKey, timer.targetElementId);
              }
            })
        .onEvent(TimerIntent.CANCELED, this::removeTimer)
        // Same due date and element instance: the stored value is replaced, the indexes stay.
        .onEvent(
            TimerIntent.MIGRATED,
            event -> state.timers().put(event.key(), timer.readFrom(event.value())));
  }

  private void removeTimer(LoggedRecord event) {
    if (state.timers().get(event.key(), timer)) {
      state.timers().remove(event.key(), timer);
    }
  }
}

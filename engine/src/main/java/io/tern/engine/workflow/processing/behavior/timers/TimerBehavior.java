package io.tern.engine.workflow.processing.behavior.timers;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.DueDateChecker;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.timer.TimerSchedule;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.TimerValue;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Timers of timer catch events, timer boundary events and timer start events of event subprocesses:
 * created when their element is entered ({@code CatchEventBehavior}), canceled when the element is
 * left first. When due (found through the due-date index, at the next due time), the {@code
 * TimerProcessor} triggers them.
 */
public final class TimerBehavior {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final VariableBehavior variables;
  private final TimerSchedule schedules = new TimerSchedule();
  private final TimerValue timer = new TimerValue();
  private final DueDateChecker dueTimers;

  public TimerBehavior(ProcessingContext context, WorkflowState state, VariableBehavior variables) {
    this.context = context;
    this.state = state;
    this.variables = variables;
    this.dueTimers =
        new DueDateChecker(
            context, state.timers()::forEachDue, TimerIntent.TRIGGER, new TimerValue());
  }

  /** This member starts processing: the due-date index is looked at afresh. */
  public void onProcessingStarted() {
    dueTimers.onProcessingStarted();
  }

  /**
   * When {@code definition}'s timer fires, for element instance {@code key} entered now.
   *
   * @throws TimerSchedule.TimerException if it cannot be evaluated
   */
  public TimerSchedule.Schedule schedule(EventDefinition.Timer definition, long key) {
    return schedule(definition, () -> variables.visible(key, List.of()));
  }

  /**
   * When {@code definition}'s timer fires, entered now with {@code visible} variables.
   *
   * @throws TimerSchedule.TimerException if it cannot be evaluated
   */
  public TimerSchedule.Schedule schedule(
      EventDefinition.Timer definition, Supplier<Map<String, byte[]>> visible) {
    return schedules.evaluate(definition.kind(), definition.expression(), visible, context.nowMs());
  }

  /** Creates the timer of element instance {@code key} that triggers {@code target}. */
  public void create(
      ProcessingResult result,
      long key,
      ProcessInstanceValue element,
      ExecutableElement target,
      TimerSchedule.Schedule schedule) {
    timer.elementInstanceKey = key;
    timer.processInstanceKey = element.processInstanceKey;
    timer.processDefinitionKey = element.processDefinitionKey;
    timer.dueDateMs = schedule.dueDateMs();
    timer.repetitions = schedule.repetitions();
    timer.intervalMs = schedule.intervalMs();
    timer.targetElementId = target.id();
    timer.bpmnProcessId = element.bpmnProcessId;
    create(result, timer);
  }

  /** Creates {@code created}, due at its due date (a cycle's next repetition, say). */
  public void create(ProcessingResult result, TimerValue created) {
    result.appendEvent(context.nextKey(), TimerIntent.CREATED, created);
    long dueDateMs = created.dueDateMs;
    result.localSideEffect(() -> dueTimers.scheduleAt(dueDateMs));
  }

  /** Cancels every timer of element instance {@code key}, which is left. */
  public void cancelAll(ProcessingResult result, long key) {
    cancelAll(result, key, target -> true);
  }

  /** Cancels the timers of element instance {@code key} for the targets {@code targets} accepts. */
  public void cancelAll(ProcessingResult result, long key, Predicate<String> targets) {
    for (long timerKey : state.timers().ofElement(key)) {
      if (state.timers().get(timerKey, timer) && targets.test(timer.targetElementId)) {
        result.appendEvent(timerKey, TimerIntent.CANCELED, timer);
      }
    }
  }
}

package io.tern.engine.workflow.processing;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.ProcessInstanceIntent;
import io.tern.engine.workflow.ValueTypes.TimerIntent;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.timer.TimerSchedule;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.TimerValue;
import java.util.List;

/**
 * Timers of timer catch events and timer boundary events: created when their element is entered
 * ({@link CatchEventBehavior}), triggered when due (found through the due-date index, at the next
 * due time), canceled when the element is left first. A non-interrupting cycle is created again
 * after each firing until its repetitions are used up.
 */
final class TimerBehavior {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final VariableBehavior variables;
  private final TimerSchedule schedules = new TimerSchedule();
  private final TimerValue timer = new TimerValue();
  private final TimerValue next = new TimerValue();
  private final ElementInstance instance = new ElementInstance();
  private final ProcessInstanceValue completion = new ProcessInstanceValue();
  private BoundaryBehavior boundaries;
  private EventSubprocessBehavior eventSubprocesses;
  final DueDateChecker dueTimers;

  TimerBehavior(ProcessingContext context, WorkflowState state, VariableBehavior variables) {
    this.context = context;
    this.state = state;
    this.variables = variables;
    this.dueTimers =
        new DueDateChecker(
            context,
            state.timers()::forEachDue,
            ValueTypes.TIMER,
            TimerIntent.TRIGGER,
            new TimerValue());
  }

  void setEventSubprocesses(EventSubprocessBehavior eventSubprocesses) {
    this.eventSubprocesses = eventSubprocesses;
  }

  void setBoundaries(BoundaryBehavior boundaries) {
    this.boundaries = boundaries;
  }

  /**
   * When {@code definition}'s timer fires, for element instance {@code key} entered now.
   *
   * @throws TimerSchedule.TimerException if it cannot be evaluated
   */
  TimerSchedule.Schedule schedule(EventDefinition.Timer definition, long key) {
    return schedules.evaluate(
        definition.kind(),
        definition.expression(),
        () -> variables.visible(key, List.of()),
        context.nowMs());
  }

  /** Creates the timer of element instance {@code key} that triggers {@code target}. */
  void create(
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

  private void create(ProcessingResult result, TimerValue created) {
    result.appendEvent(context.nextKey(), ValueTypes.TIMER, TimerIntent.CREATED, created);
    long dueDateMs = created.dueDateMs;
    result.sideEffect(() -> dueTimers.scheduleAt(dueDateMs));
  }

  /** Cancels every timer of element instance {@code key}, which is left. */
  void cancelAll(ProcessingResult result, long key) {
    cancelAll(result, key, target -> true);
  }

  /** Cancels the timers of element instance {@code key} for the targets {@code targets} accepts. */
  void cancelAll(ProcessingResult result, long key, java.util.function.Predicate<String> targets) {
    for (long timerKey : state.timers().ofElement(key)) {
      if (state.timers().get(timerKey, timer) && targets.test(timer.targetElementId)) {
        result.appendEvent(timerKey, ValueTypes.TIMER, TimerIntent.CANCELED, timer);
      }
    }
  }

  /** TRIGGER, written by the due-date checker; a timer canceled meanwhile is left alone. */
  void trigger(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    long nowMs = context.nowMs();
    if (!state.timers().get(key, timer) || timer.dueDateMs > nowMs) {
      return;
    }
    result.appendEvent(key, ValueTypes.TIMER, TimerIntent.TRIGGERED, timer);
    long elementKey = timer.elementInstanceKey;
    if (!state.instances().get(elementKey, instance)
        || instance.state != ProcessInstanceIntent.ELEMENT_ACTIVATED) {
      return;
    }
    ExecutableProcess process = state.process(timer.processDefinitionKey);
    ExecutableElement target = process.element(timer.targetElementId);
    if (target.type() == BpmnElementType.START_EVENT) {
      boolean started =
          eventSubprocesses.trigger(result, elementKey, instance, target, new byte[0]);
      repeat(result, started, target, nowMs);
      return;
    }
    if (target.type() != BpmnElementType.BOUNDARY_EVENT) {
      // A timer catch event: it is done waiting.
      completion.copyFrom(instance.value);
      result.appendCommand(
          elementKey,
          ValueTypes.PROCESS_INSTANCE,
          ProcessInstanceIntent.COMPLETE_ELEMENT,
          completion);
      return;
    }
    boolean triggered = boundaries.trigger(result, elementKey, instance, target, new byte[0]);
    repeat(result, triggered, target, nowMs);
  }

  /** A non-interrupting cycle that fired schedules its next repetition. */
  private void repeat(
      ProcessingResult result, boolean triggered, ExecutableElement target, long nowMs) {
    if (triggered
        && !target.interrupting()
        && (timer.repetitions == TimerValue.UNBOUNDED || timer.repetitions > 1)) {
      next.copyFrom(timer);
      next.dueDateMs = nowMs + timer.intervalMs;
      if (timer.repetitions != TimerValue.UNBOUNDED) {
        next.repetitions = timer.repetitions - 1;
      }
      create(result, next);
    }
  }
}

package io.tern.engine.workflow.processing.timers;

import io.tern.engine.processor.CommandProcessor;
import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.ProcessInstanceIntent;
import io.tern.engine.workflow.ValueTypes.TimerIntent;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.timers.TimerBehavior;
import io.tern.engine.workflow.processing.behavior.timers.TimerStartBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.BoundaryBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.EventBasedGatewayBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.EventSubprocessBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.timer.TimerSchedule;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.TimerValue;

/**
 * TRIGGER, written by the due-date checker of {@link TimerBehavior}: a due timer fires for what it
 * was created for. A process's timer start event starts an instance ({@link TimerStartBehavior}); a
 * timer catch event completes; a boundary event or an event subprocess's start event is triggered
 * on its activity or scope. A non-interrupting cycle that fired is created again until its
 * repetitions are used up.
 */
public final class TimerProcessor implements CommandProcessor {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final TimerBehavior timers;
  private final BoundaryBehavior boundaries;
  private final EventSubprocessBehavior eventSubprocesses;
  private final TimerStartBehavior timerStarts;
  private final EventBasedGatewayBehavior eventGateways;
  private final TimerValue timer = new TimerValue();
  private final TimerValue next = new TimerValue();
  private final ElementInstance instance = new ElementInstance();
  private final ProcessInstanceValue completion = new ProcessInstanceValue();

  public TimerProcessor(
      ProcessingContext context,
      WorkflowState state,
      Behaviors behaviors,
      TimerStartBehavior timerStarts) {
    this.timerStarts = timerStarts;
    this.context = context;
    this.state = state;
    this.timers = behaviors.timers();
    this.boundaries = behaviors.boundaries();
    this.eventSubprocesses = behaviors.eventSubprocesses();
    this.eventGateways = behaviors.eventGateways();
  }

  /** A timer canceled meanwhile, or not due yet, is left alone. */
  @Override
  public void process(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    long nowMs = context.nowMs();
    if (!state.timers().get(key, timer) || timer.dueDateMs > nowMs) {
      return;
    }
    if (timer.elementInstanceKey < 0) {
      timerStarts.fire(result, key, timer, nowMs); // a process's timer start event
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
    if (instance.value.elementType == BpmnElementType.EVENT_BASED_GATEWAY) {
      eventGateways.trigger(result, elementKey, instance, target, new byte[0]);
      return;
    }
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
      next.dueDateMs =
          TimerSchedule.nextDue(
              ((EventDefinition.Timer) target.event()).expression(), timer.intervalMs, nowMs);
      if (timer.repetitions != TimerValue.UNBOUNDED) {
        next.repetitions = timer.repetitions - 1;
      }
      timers.create(result, next);
    }
  }
}

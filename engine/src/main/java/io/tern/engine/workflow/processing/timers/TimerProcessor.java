package io.tern.engine.workflow.processing.timers;

import io.tern.engine.processor.CommandProcessor;
import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.timers.TimerBehavior;
import io.tern.engine.workflow.processing.behavior.timers.TimerStartBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.CaughtEvents;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.timer.TimerSchedule;
import io.tern.engine.workflow.value.TimerValue;

/**
 * TRIGGER, written by the due-date checker of {@link TimerBehavior}: a due timer fires for what it
 * was created for. A process's timer start event starts an instance ({@link TimerStartBehavior});
 * any other timer is an element instance's event, which {@link CaughtEvents} triggers as it does a
 * message's or a signal's (a catch event completes; a boundary event or an event subprocess's start
 * event is triggered on its activity or scope). A non-interrupting cycle that fired is created
 * again until its repetitions are used up.
 */
public final class TimerProcessor implements CommandProcessor {
  private static final byte[] NO_VARIABLES = new byte[0];

  private final ProcessingContext context;
  private final WorkflowState state;
  private final TimerBehavior timers;
  private final CaughtEvents caughtEvents;
  private final TimerStartBehavior timerStarts;
  private final TimerValue timer = new TimerValue();
  private final TimerValue next = new TimerValue();
  private final ElementInstance instance = new ElementInstance();

  public TimerProcessor(
      ProcessingContext context,
      WorkflowState state,
      Behaviors behaviors,
      TimerStartBehavior timerStarts) {
    this.timerStarts = timerStarts;
    this.context = context;
    this.state = state;
    this.timers = behaviors.timers();
    this.caughtEvents = behaviors.caughtEvents();
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
    result.appendEvent(key, TimerIntent.TRIGGERED, timer);
    long elementKey = timer.elementInstanceKey;
    if (!state.instances().get(elementKey, instance)
        || instance.state != ProcessInstanceIntent.ELEMENT_ACTIVATED) {
      return;
    }
    ExecutableProcess process = state.process(timer.processDefinitionKey);
    ExecutableElement target = process.element(timer.targetElementId);
    // Decided before the trigger, which may move the instance on.
    boolean once = caughtEvents.triggersOnce(instance, target);
    boolean triggered = caughtEvents.trigger(result, elementKey, instance, target, NO_VARIABLES);
    if (triggered && !once) {
      repeat(result, target, nowMs);
    }
  }

  /** A non-interrupting cycle that fired schedules its next repetition. */
  private void repeat(ProcessingResult result, ExecutableElement target, long nowMs) {
    if (timer.repetitions == TimerValue.UNBOUNDED || timer.repetitions > 1) {
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

package io.tern.engine.workflow.processing.behavior.timers;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.behavior.instances.ProcessActivation;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.timer.TimerSchedule;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.TimerValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Timer start events of processes. Their timers belong to no element instance (element instance key
 * -1) and live on the deployment partition: the latest version of a process has them, so a new
 * version cancels the previous version's (whether or not it has timer start events itself), as
 * Zeebe does. A due one starts an instance at its start event; a cycle is created again until its
 * repetitions are used up.
 */
public final class TimerStartBehavior {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final TimerBehavior timers;
  private final TimerSchedule schedules = new TimerSchedule();
  private final TimerValue timer = new TimerValue();
  private final TimerValue next = new TimerValue();
  private final ProcessInstanceValue instance = new ProcessInstanceValue();

  /** The first firing of one timer start event, evaluated when its process is deployed. */
  public record Scheduled(String startEventId, TimerSchedule.Schedule schedule) {}

  public TimerStartBehavior(ProcessingContext context, WorkflowState state, TimerBehavior timers) {
    this.context = context;
    this.state = state;
    this.timers = timers;
  }

  /**
   * The timers of {@code process}'s timer start events, evaluated now (a FEEL expression sees no
   * variables).
   *
   * @throws TimerSchedule.TimerException naming the start event if one cannot be evaluated
   */
  public List<Scheduled> schedule(ExecutableProcess process) {
    List<Scheduled> scheduled = new ArrayList<>();
    for (ExecutableElement start : process.timerStartEvents()) {
      EventDefinition.Timer definition = (EventDefinition.Timer) start.event();
      try {
        scheduled.add(
            new Scheduled(
                start.id(),
                schedules.evaluate(
                    definition.kind(), definition.expression(), Map::of, context.nowMs())));
      } catch (TimerSchedule.TimerException e) {
        throw new TimerSchedule.TimerException(
            "the timer of start event '" + start.id() + "' cannot be evaluated: " + e.getMessage());
      }
    }
    return scheduled;
  }

  /**
   * Version {@code deployed} of a process is now its latest: the start timers of its other versions
   * are canceled, and {@code scheduled} (its own) are created.
   */
  public void replace(
      ProcessingResult result, ProcessState.Deployed deployed, List<Scheduled> scheduled) {
    for (long timerKey : state.timers().ofElement(-1)) {
      if (state.timers().get(timerKey, timer)
          && timer.bpmnProcessId.equals(deployed.bpmnProcessId())
          && timer.processDefinitionKey != deployed.key()) {
        result.appendEvent(timerKey, TimerIntent.CANCELED, timer);
      }
    }
    for (Scheduled each : scheduled) {
      timer.elementInstanceKey = -1;
      timer.processInstanceKey = -1;
      timer.processDefinitionKey = deployed.key();
      timer.dueDateMs = each.schedule().dueDateMs();
      timer.repetitions = each.schedule().repetitions();
      timer.intervalMs = each.schedule().intervalMs();
      timer.targetElementId = each.startEventId();
      timer.bpmnProcessId = deployed.bpmnProcessId();
      timers.create(result, timer);
    }
  }

  /**
   * Start timer {@code timerKey}, {@code due} now, fires: it starts an instance at its start event
   * (TRIGGERED names the new instance, whose start event its applier records), and a cycle is
   * created again.
   */
  public void fire(ProcessingResult result, long timerKey, TimerValue due, long nowMs) {
    ProcessState.Deployed deployed = state.processes().byKey(due.processDefinitionKey);
    long processInstanceKey = context.nextKey();
    due.processInstanceKey = processInstanceKey;
    result.appendEvent(timerKey, TimerIntent.TRIGGERED, due);
    ProcessActivation.append(result, processInstanceKey, deployed, instance);
    if (due.repetitions == TimerValue.UNBOUNDED || due.repetitions > 1) {
      next.copyFrom(due);
      next.processInstanceKey = -1;
      EventDefinition.Timer definition =
          (EventDefinition.Timer) deployed.process().element(due.targetElementId).event();
      next.dueDateMs =
          TimerSchedule.nextDue(
              definition.expression(), due.intervalMs, Math.max(nowMs, due.dueDateMs));
      if (due.repetitions != TimerValue.UNBOUNDED) {
        next.repetitions = due.repetitions - 1;
      }
      timers.create(result, next);
    }
  }
}

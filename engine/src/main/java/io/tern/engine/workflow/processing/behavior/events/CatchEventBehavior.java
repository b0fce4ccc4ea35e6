package io.tern.engine.workflow.processing.behavior.events;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.workflow.feel.FeelStrings;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.behavior.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.behavior.messages.ProcessMessageSubscriptions;
import io.tern.engine.workflow.processing.behavior.signals.SignalBehavior;
import io.tern.engine.workflow.processing.behavior.timers.TimerBehavior;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.timer.TimerSchedule;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What an element waits for while it is active: its own timer or message (a catch event, a receive
 * task) and those of its boundary events. All are evaluated when the element is entered, before any
 * is created, so an expression that fails creates none (an incident holds the element, which is
 * entered again once it is resolved); all are canceled when it is left.
 */
public final class CatchEventBehavior {
  private final TimerBehavior timers;
  private final ProcessMessageSubscriptions messages;
  private final SignalBehavior signals;
  private final IncidentBehavior incidents;
  private final VariableBehavior variables;
  private final FeelStrings strings = new FeelStrings();

  public CatchEventBehavior(
      TimerBehavior timers,
      ProcessMessageSubscriptions messages,
      SignalBehavior signals,
      IncidentBehavior incidents,
      VariableBehavior variables) {
    this.timers = timers;
    this.messages = messages;
    this.signals = signals;
    this.incidents = incidents;
    this.variables = variables;
  }

  /** What of an element's catch events an instance of it subscribes to. */
  public enum Part {
    /** An element without multi-instance: its own trigger and its boundary events. */
    ALL,
    /** A multi-instance body: the boundary events. */
    BOUNDARIES,
    /** An inner instance of a multi-instance activity: its own trigger. */
    OWN
  }

  /** The part of its catch events an instance subscribes to. */
  public static Part partOf(ExecutableElement element, BpmnElementType instanceType) {
    if (element.loop() == null) {
      return Part.ALL;
    }
    return instanceType == BpmnElementType.MULTI_INSTANCE_BODY ? Part.BOUNDARIES : Part.OWN;
  }

  /** Whether entering {@code element} subscribes to anything (and so may fail). */
  public static boolean hasCatchEvents(
      ExecutableProcess process, ExecutableElement element, Part part) {
    if (part != Part.BOUNDARIES && waitsItself(process, element)) {
      return true;
    }
    if (part == Part.OWN) {
      return false;
    }
    for (String id : element.boundaryEventIds()) {
      if (EventDefinition.isSubscribed(process.element(id).event())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether the element waits for a trigger of its own: a timer or message catch event (unless an
   * event-based gateway waited for it), a receive task, an event-based gateway (for the events
   * after it).
   */
  private static boolean waitsItself(ExecutableProcess process, ExecutableElement element) {
    if (element.type() == BpmnElementType.EVENT_BASED_GATEWAY) {
      return true;
    }
    if (process.followsEventBasedGateway(element)) {
      return false; // the gateway waited for it
    }
    return (element.type() == BpmnElementType.INTERMEDIATE_CATCH_EVENT
            || element.type() == BpmnElementType.RECEIVE_TASK)
        && element.event() != null
        && !(element.event() instanceof EventDefinition.Link); // its throw event activates it
  }

  /**
   * A catch event's evaluated trigger: a timer's schedule, a message's name and key, or a signal's
   * name.
   */
  public record Evaluated(
      ExecutableElement target,
      TimerSchedule.Schedule schedule,
      String messageName,
      String correlationKey,
      String signalName) {}

  /**
   * Subscribes element instance {@code key} (entered now) to what it waits for. Returns false,
   * having raised an incident and created nothing, if an expression cannot be evaluated. {@code
   * executable} is null for the process itself; {@code eventSubprocessStarts} are the timer and
   * message start events of event subprocesses in the instance (a scope).
   */
  public boolean subscribe(
      ProcessingResult result,
      long key,
      ProcessInstanceValue element,
      ExecutableProcess process,
      ExecutableElement executable,
      Part part,
      List<ExecutableElement> eventSubprocessStarts) {
    List<Evaluated> evaluated = new ArrayList<>();
    String failure =
        evaluateAll(targets(process, executable, part, eventSubprocessStarts), key, evaluated);
    if (failure != null) {
      incidents.raise(result, ErrorType.EXTRACT_VALUE_ERROR, key, element, failure);
      return false;
    }
    open(result, key, element, evaluated);
    return true;
  }

  /**
   * The catch events an instance of {@code executable} (null: the process itself) waits for, with
   * {@code eventSubprocessStarts}, the timer and message start events of the event subprocesses in
   * it.
   */
  public static List<ExecutableElement> targets(
      ExecutableProcess process,
      ExecutableElement executable,
      Part part,
      List<ExecutableElement> eventSubprocessStarts) {
    List<ExecutableElement> targets = new ArrayList<>(eventSubprocessStarts);
    if (executable == null) {
      return targets; // the process itself: only its event subprocesses' start events
    }
    if (executable.type() == BpmnElementType.EVENT_BASED_GATEWAY) {
      for (ExecutableElement.Flow flow : executable.outgoing()) {
        targets.add(process.element(flow.targetId())); // the gateway waits for them all
      }
    } else if (part != Part.BOUNDARIES && waitsItself(process, executable)) {
      targets.add(executable);
    }
    if (part != Part.OWN) {
      for (String id : executable.boundaryEventIds()) {
        ExecutableElement boundary = process.element(id);
        if (EventDefinition.isSubscribed(boundary.event())) {
          targets.add(boundary);
        }
      }
    }
    return targets;
  }

  /**
   * Evaluates the triggers of {@code targets} for element instance {@code key} into {@code into};
   * returns null, or what could not be evaluated (and then {@code into} is incomplete).
   */
  public String evaluateAll(List<ExecutableElement> targets, long key, List<Evaluated> into) {
    return evaluateAll(targets, () -> variables.visible(key, List.of()), into);
  }

  /** As {@link #evaluateAll(List, long, List)}, with the variables an instance would see. */
  public String evaluateAll(
      List<ExecutableElement> targets,
      Supplier<Map<String, byte[]>> visible,
      List<Evaluated> into) {
    for (ExecutableElement target : targets) {
      try {
        into.add(evaluate(target, visible));
      } catch (TimerSchedule.TimerException | FeelStrings.EvaluationException e) {
        return kindOf(target) + " of '" + target.id() + "' cannot be evaluated: " + e.getMessage();
      }
    }
    return null;
  }

  /**
   * Opens the subscriptions of element instance {@code key} ({@code element}) to {@code evaluated}.
   */
  public void open(
      ProcessingResult result, long key, ProcessInstanceValue element, List<Evaluated> evaluated) {
    for (Evaluated each : evaluated) {
      if (each.schedule() != null) {
        timers.create(result, key, element, each.target(), each.schedule());
      } else if (each.signalName() != null) {
        signals.open(result, key, element, each.target(), each.signalName());
      } else {
        messages.open(
            result, key, element, each.target(), each.messageName(), each.correlationKey());
      }
    }
  }

  private Evaluated evaluate(ExecutableElement target, Supplier<Map<String, byte[]>> visible) {
    if (target.event() instanceof EventDefinition.Timer timer) {
      return new Evaluated(target, timers.schedule(timer, visible), null, null, null);
    }
    if (target.event() instanceof EventDefinition.Signal signal) {
      String name = strings.evaluate(signal.name(), visible);
      return new Evaluated(target, null, null, null, name);
    }
    EventDefinition.Message message = (EventDefinition.Message) target.event();
    String name = strings.evaluate(message.name(), visible);
    String correlationKey = strings.evaluate(message.correlationKey(), visible);
    return new Evaluated(target, null, name, correlationKey, null);
  }

  private static String kindOf(ExecutableElement target) {
    if (target.event() instanceof EventDefinition.Timer) {
      return "the timer";
    }
    return target.event() instanceof EventDefinition.Signal ? "the signal" : "the message";
  }

  /** Element instance {@code key} is left: what it waited for is canceled. */
  public void unsubscribe(ProcessingResult result, long key) {
    timers.cancelAll(result, key);
    messages.closeAll(result, key);
    signals.closeAll(result, key);
  }
}

package io.tern.engine.workflow.processing.behavior.triggers;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessEventIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.behavior.events.TriggeredEvents;
import io.tern.engine.workflow.processing.behavior.messages.ProcessMessageSubscriptions;
import io.tern.engine.workflow.processing.behavior.signals.SignalBehavior;
import io.tern.engine.workflow.processing.behavior.termination.TerminationBehavior;
import io.tern.engine.workflow.processing.behavior.timers.TimerBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessEventValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Event subprocesses: the start event of one inside a scope (the process, or a subprocess) waits
 * while the scope is active. Triggered, a non-interrupting one runs next to what runs in the scope;
 * an interrupting one first terminates everything in the scope (which stays active) and closes the
 * scope's other event subprocess subscriptions, then runs; the scope completes once the event
 * subprocess is done.
 */
public final class EventSubprocessBehavior {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final TerminationBehavior termination;
  private final TimerBehavior timers;
  private final ProcessMessageSubscriptions subscriptions;
  private final SignalBehavior signals;
  private final TriggeredEvents triggeredEvents;
  private final ProcessEventValue trigger = new ProcessEventValue();
  private final ProcessEventValue pending = new ProcessEventValue();

  public EventSubprocessBehavior(
      ProcessingContext context,
      WorkflowState state,
      TerminationBehavior termination,
      TimerBehavior timers,
      ProcessMessageSubscriptions subscriptions,
      SignalBehavior signals,
      TriggeredEvents triggeredEvents) {
    this.context = context;
    this.state = state;
    this.termination = termination;
    this.timers = timers;
    this.subscriptions = subscriptions;
    this.signals = signals;
    this.triggeredEvents = triggeredEvents;
  }

  /** The id event subprocesses of {@code scope}'s instance are listed under. */
  static String scopeIdOf(ExecutableProcess process, ProcessInstanceValue scope) {
    return scope.elementType == BpmnElementType.PROCESS ? process.bpmnProcessId() : scope.elementId;
  }

  /** The timer and message start events that an instance of {@code scope} subscribes to. */
  public static List<ExecutableElement> waitingStarts(
      ExecutableProcess process, ProcessInstanceValue scope) {
    List<ExecutableElement> starts = new ArrayList<>();
    for (String id : process.eventSubprocessStartsOf(scopeIdOf(process, scope))) {
      ExecutableElement start = process.element(id);
      if (EventDefinition.isSubscribed(start.event())) {
        starts.add(start);
      }
    }
    return starts;
  }

  /**
   * The start event in {@code scope} that catches {@code code} of {@code kind} (error or
   * escalation), or null.
   */
  static ExecutableElement catcher(
      ExecutableProcess process,
      ProcessInstanceValue scope,
      Class<? extends EventDefinition.Thrown> kind,
      String code) {
    List<String> starts = process.eventSubprocessStartsOf(scopeIdOf(process, scope));
    return BoundaryBehavior.catcherAmong(process, starts, kind, code);
  }

  /**
   * Triggers {@code start} (the start event of an event subprocess) in scope instance {@code
   * scopeKey}, with {@code variablesJson} for the scope. False, doing nothing, if the scope is not
   * active or an interrupting event is already under way in it.
   */
  public boolean trigger(
      ProcessingResult result,
      long scopeKey,
      ElementInstance scope,
      ExecutableElement start,
      byte[] variablesJson) {
    if (scope.state != ProcessInstanceIntent.ELEMENT_ACTIVATED
        || state.pendingBoundaries().has(scopeKey)) {
      return false;
    }
    trigger.scopeKey = scopeKey;
    trigger.processInstanceKey = scope.value.processInstanceKey;
    trigger.processDefinitionKey = scope.value.processDefinitionKey;
    trigger.interrupting = start.interrupting();
    trigger.targetElementId = start.id();
    trigger.bpmnProcessId = scope.value.bpmnProcessId;
    trigger.variables = variablesJson;
    // The applier counts the coming event subprocess in the scope at once, so that the scope does
    // not complete in between; an interrupting trigger is remembered until it runs.
    result.appendEvent(context.nextKey(), ProcessEventIntent.TRIGGERED, trigger);
    if (!start.interrupting()) {
      triggeredEvents.activateEventSubprocess(result, scopeKey, scope.value, trigger);
      return true;
    }
    ExecutableProcess process = state.process(scope.value.processDefinitionKey);
    List<String> otherStarts = process.eventSubprocessStartsOf(scopeIdOf(process, scope.value));
    timers.cancelAll(result, scopeKey, otherStarts::contains);
    subscriptions.closeAll(result, scopeKey, otherStarts::contains);
    signals.closeAll(result, scopeKey, otherStarts::contains);
    List<Long> children = new ArrayList<>(state.instances().children(scopeKey));
    if (children.isEmpty()) {
      triggeredEvents.activateEventSubprocess(result, scopeKey, scope.value, trigger);
    }
    for (long child : children) {
      termination.terminate(child, result);
    }
    return true;
  }

  /**
   * Whether {@code element} may not start in scope {@code scopeKey}: an interrupting event
   * subprocess is taking the scope over, and {@code element} is not that event subprocess.
   */
  public boolean blocks(long scopeKey, ProcessInstanceValue element) {
    if (!state.pendingBoundaries().get(scopeKey, pending)
        || !triggeredEvents.startsEventSubprocess(pending)) {
      return false;
    }
    return element.elementType != BpmnElementType.EVENT_SUB_PROCESS
        || !state
            .process(element.processDefinitionKey)
            .element(element.elementId)
            .startEventId()
            .equals(pending.targetElementId);
  }
}

package io.tern.engine.workflow.model;

import java.util.List;
import java.util.Map;

/**
 * A deployed process as the engine runs it: its elements by id, where it starts (its none start
 * event, null if it has none, and its message start events by message name), where each sequence
 * flow leads (flow id to target element id), and the start events of each scope's event
 * subprocesses, what its joining inclusive gateways wait for ({@link InclusiveJoin}), and the scope
 * (the process or a subprocess) each element lies in, and each activity's compensation handler.
 */
public record ExecutableProcess(
    String bpmnProcessId,
    Map<String, ExecutableElement> elements,
    String noneStartEventId,
    Map<String, String> messageStartEvents,
    Map<String, String> flowTargets,
    Map<String, List<String>> eventSubprocessStarts,
    List<InclusiveJoin> inclusiveJoins,
    Map<String, String> flowScopes,
    Map<String, String> compensationHandlers) {

  /** The compensation handler of activity {@code activityId}, or null if it has none. */
  public String compensationHandlerOf(String activityId) {
    return compensationHandlers.get(activityId);
  }

  /**
   * The id of the compensation boundary event attached to activity {@code activityId} (for a
   * multi-instance activity, to its body, which has its id), or null if it has none.
   */
  public String compensationBoundaryOf(String activityId) {
    ExecutableElement activity = elements.get(activityId);
    if (activity == null) {
      return null;
    }
    for (String boundaryId : activity.boundaryEventIds()) {
      if (element(boundaryId).event() instanceof EventDefinition.Compensation) {
        return boundaryId;
      }
    }
    return null;
  }

  /** Whether element {@code elementId} is an activity's compensation handler. */
  public boolean isCompensationHandler(String elementId) {
    return compensationHandlers.containsValue(elementId);
  }

  /** Whether element {@code elementId} is a compensation handler or lies inside one. */
  public boolean inCompensationHandler(String elementId) {
    if (isCompensationHandler(elementId)) {
      return true;
    }
    for (String scope : flowScopesOf(elementId)) {
      if (isCompensationHandler(scope)) {
        return true;
      }
    }
    return false;
  }

  /** Whether any activity has a compensation handler (else nothing is ever compensated). */
  public boolean hasCompensation() {
    return !compensationHandlers.isEmpty();
  }

  /**
   * The ids of the scopes element {@code elementId} lies in, outermost (the process's id) first,
   * its own flow scope last.
   */
  public List<String> flowScopesOf(String elementId) {
    java.util.ArrayDeque<String> scopes = new java.util.ArrayDeque<>();
    String scope = flowScopes.get(elementId);
    while (scope != null) {
      scopes.addFirst(scope);
      scope = flowScopes.get(scope);
    }
    return List.copyOf(scopes);
  }

  /**
   * The joining inclusive gateway {@code gatewayId}'s reachability, or null if it does not join.
   */
  public InclusiveJoin inclusiveJoin(String gatewayId) {
    for (InclusiveJoin join : inclusiveJoins) {
      if (join.gatewayId().equals(gatewayId)) {
        return join;
      }
    }
    return null;
  }

  /**
   * The start events of the event subprocesses directly inside scope {@code scopeId} (the process
   * id, or a subprocess's element id).
   */
  public List<String> eventSubprocessStartsOf(String scopeId) {
    return eventSubprocessStarts.getOrDefault(scopeId, List.of());
  }

  /** The process's own timer start events (not those of its event subprocesses). */
  public List<ExecutableElement> timerStartEvents() {
    java.util.Set<String> inEventSubprocesses = new java.util.HashSet<>();
    eventSubprocessStarts.values().forEach(inEventSubprocesses::addAll);
    List<ExecutableElement> starts = new java.util.ArrayList<>();
    for (ExecutableElement element : elements.values()) {
      if (element.type() == io.tern.engine.workflow.value.BpmnElementType.START_EVENT
          && element.event() instanceof EventDefinition.Timer
          && !inEventSubprocesses.contains(element.id())) {
        starts.add(element);
      }
    }
    starts.sort(java.util.Comparator.comparing(ExecutableElement::id)); // the same on replay
    return starts;
  }

  /** The process's own signal start events (not those of its event subprocesses), by id. */
  public List<ExecutableElement> signalStartEvents() {
    java.util.Set<String> inEventSubprocesses = new java.util.HashSet<>();
    eventSubprocessStarts.values().forEach(inEventSubprocesses::addAll);
    List<ExecutableElement> starts = new java.util.ArrayList<>();
    for (ExecutableElement element : elements.values()) {
      if (element.type() == io.tern.engine.workflow.value.BpmnElementType.START_EVENT
          && element.event() instanceof EventDefinition.Signal
          && !inEventSubprocesses.contains(element.id())) {
        starts.add(element);
      }
    }
    starts.sort(java.util.Comparator.comparing(ExecutableElement::id)); // the same on replay
    return starts;
  }

  /**
   * Whether {@code catchEvent} is one of the events after an event-based gateway: the gateway waits
   * for its trigger, and it completes as soon as it is activated.
   */
  public boolean followsEventBasedGateway(ExecutableElement catchEvent) {
    if (catchEvent.type() != io.tern.engine.workflow.value.BpmnElementType.INTERMEDIATE_CATCH_EVENT
        || catchEvent.incoming().isEmpty()) {
      return false;
    }
    for (ExecutableElement element : elements.values()) {
      if (element.type() == io.tern.engine.workflow.value.BpmnElementType.EVENT_BASED_GATEWAY) {
        for (ExecutableElement.Flow flow : element.outgoing()) {
          if (flow.targetId().equals(catchEvent.id())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The event subprocess whose start event is {@code startEventId}. */
  public ExecutableElement eventSubprocessOf(String startEventId) {
    for (ExecutableElement element : elements.values()) {
      if (element.type() == io.tern.engine.workflow.value.BpmnElementType.EVENT_SUB_PROCESS
          && startEventId.equals(element.startEventId())) {
        return element;
      }
    }
    throw new IllegalStateException(
        "process " + bpmnProcessId + " has no event subprocess started by " + startEventId);
  }

  /** The element a sequence flow leads to. */
  public ExecutableElement target(String flowId) {
    String target = flowTargets.get(flowId);
    if (target == null) {
      throw new IllegalStateException(
          "process " + bpmnProcessId + " has no sequence flow " + flowId);
    }
    return element(target);
  }

  /**
   * @throws IllegalStateException if the process has no such element (a state that does not match
   *     its deployment)
   */
  public ExecutableElement element(String id) {
    ExecutableElement element = elements.get(id);
    if (element == null) {
      throw new IllegalStateException("process " + bpmnProcessId + " has no element " + id);
    }
    return element;
  }
}

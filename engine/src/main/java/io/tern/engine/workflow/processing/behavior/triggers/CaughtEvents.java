package io.tern.engine.workflow.processing.behavior.triggers;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.Map;

/**
 * A timer, a message or a signal came for an element instance that waits for it: after an
 * event-based gateway the event wins the race, a boundary event or an event subprocess start is
 * triggered, and a catch event or receive task completes with the variables it brought. This is the
 * one place that decides, by element type, what a trigger does: the timer, message and signal
 * processors only find the element instance and hand the trigger here.
 */
public final class CaughtEvents {
  private final VariableBehavior variables;
  private final BoundaryBehavior boundaries;
  private final EventSubprocessBehavior eventSubprocesses;
  private final EventBasedGatewayBehavior eventGateways;
  private final ProcessInstanceValue completion = new ProcessInstanceValue();

  public CaughtEvents(
      VariableBehavior variables,
      BoundaryBehavior boundaries,
      EventSubprocessBehavior eventSubprocesses,
      EventBasedGatewayBehavior eventGateways) {
    this.variables = variables;
    this.boundaries = boundaries;
    this.eventSubprocesses = eventSubprocesses;
    this.eventGateways = eventGateways;
  }

  /**
   * Whether event {@code target} of {@code instance} triggers once, closing its subscription with
   * the trigger: all but a non-interrupting boundary event or event subprocess start, which stays
   * open (a timer cycle's next repetition, the next message or signal).
   */
  public boolean triggersOnce(ElementInstance instance, ExecutableElement target) {
    return instance.value.elementType == BpmnElementType.EVENT_BASED_GATEWAY
        || target.interrupting()
        || target.type() != BpmnElementType.BOUNDARY_EVENT
            && target.type() != BpmnElementType.START_EVENT;
  }

  /**
   * Event {@code target} of element instance {@code key} ({@code instance}, active) is triggered
   * with {@code variablesJson}. Returns false, doing nothing, where the gateway, activity or scope
   * takes no more triggers (an interrupting one is under way, or the gateway's race is decided).
   */
  public boolean trigger(
      ProcessingResult result,
      long key,
      ElementInstance instance,
      ExecutableElement target,
      byte[] variablesJson) {
    if (instance.value.elementType == BpmnElementType.EVENT_BASED_GATEWAY) {
      return eventGateways.trigger(result, key, instance, target, variablesJson);
    }
    if (target.type() == BpmnElementType.BOUNDARY_EVENT) {
      return boundaries.trigger(result, key, instance, target, variablesJson);
    }
    if (target.type() == BpmnElementType.START_EVENT) {
      return eventSubprocesses.trigger(result, key, instance, target, variablesJson);
    }
    if (variablesJson.length > 0) {
      Map<String, byte[]> values = JsonDocuments.variables(variablesJson);
      long processInstanceKey = instance.value.processInstanceKey;
      long processDefinitionKey = instance.value.processDefinitionKey;
      if (target.outputs().isEmpty()) {
        variables.setPropagating(result, key, processInstanceKey, processDefinitionKey, values);
      } else {
        // With output mappings, the event's variables are the element's own, for them to read.
        variables.setLocal(result, key, processInstanceKey, processDefinitionKey, values);
      }
    }
    completion.copyFrom(instance.value);
    result.appendCommand(key, ProcessInstanceIntent.COMPLETE_ELEMENT, completion);
    return true;
  }
}

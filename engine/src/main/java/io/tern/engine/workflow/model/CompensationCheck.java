package io.tern.engine.workflow.model;

import io.camunda.zeebe.model.bpmn.instance.Activity;
import io.camunda.zeebe.model.bpmn.instance.Association;
import io.camunda.zeebe.model.bpmn.instance.Process;
import io.camunda.zeebe.model.bpmn.instance.SubProcess;
import io.tern.engine.workflow.value.BpmnElementType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.model.xml.instance.ModelElementInstance;

/**
 * A process's compensation, checked at deployment as Zeebe does: each compensation boundary event
 * has no outgoing sequence flow and an association to its activity's compensation handler, an
 * activity marked isForCompensation that no sequence flow enters or leaves and that has no boundary
 * events; an activity has one handler at most; a throw event's activity to compensate exists, has a
 * handler or is a subprocess, and lies in the throw event's scope (or, for a throw event in an
 * event subprocess, in the scope the event subprocess runs in).
 */
final class CompensationCheck {
  private CompensationCheck() {}

  /** The compensation handler of each activity that has one, by activity id. */
  static Map<String, String> handlers(
      Process process,
      Map<String, ExecutableElement> elements,
      Map<String, String> flowScopes,
      List<String> problems) {
    Map<String, String> handlers = new LinkedHashMap<>();
    for (ExecutableElement boundary : elements.values()) {
      if (boundary.type() == BpmnElementType.BOUNDARY_EVENT
          && boundary.event() instanceof EventDefinition.Compensation) {
        String handler = handlerOf(process, boundary, problems);
        if (handler != null && handlers.putIfAbsent(boundary.attachedToId(), handler) != null) {
          problems.add(
              "'"
                  + boundary.attachedToId()
                  + "': an activity has one compensation boundary event at most");
        }
      }
    }
    for (String handlerId : handlers.values()) {
      ExecutableElement handler = elements.get(handlerId);
      if (handler == null) {
        continue; // refused for a reason of its own
      }
      if (!handler.incoming().isEmpty() || !handler.outgoing().isEmpty()) {
        problems.add(
            "'"
                + handlerId
                + "': a compensation handler has no incoming or outgoing sequence flows (it runs"
                + " when compensation is thrown)");
      }
      if (!handler.boundaryEventIds().isEmpty()) {
        problems.add("'" + handlerId + "': a compensation handler has no boundary events");
      }
    }
    for (ExecutableElement thrower : elements.values()) {
      if ((thrower.type() == BpmnElementType.INTERMEDIATE_THROW_EVENT
              || thrower.type() == BpmnElementType.END_EVENT)
          && thrower.event() instanceof EventDefinition.Compensation compensation
          && compensation.activityRef() != null) {
        checkActivityRef(
            thrower, compensation.activityRef(), elements, flowScopes, handlers, problems);
      }
    }
    return handlers;
  }

  private static String handlerOf(
      Process process, ExecutableElement boundary, List<String> problems) {
    String where = "'" + boundary.id() + "' (compensation boundary event)";
    if (!boundary.outgoing().isEmpty()) {
      problems.add(
          where
              + ": it has no outgoing sequence flow; an association leads to the compensation"
              + " handler");
      return null;
    }
    // Other associations (a text annotation's, say) may start at the boundary event too.
    for (Association association :
        process.getModelInstance().getModelElementsByType(Association.class)) {
      if (association.getSource() != null
          && boundary.id().equals(association.getSource().getId())
          && association.getTarget() instanceof Activity handler) {
        String problem = null;
        if (!handler.isForCompensation()) {
          problem =
              "its compensation handler '" + handler.getId() + "' must be marked isForCompensation";
        } else if (handler instanceof SubProcess subprocess && subprocess.triggeredByEvent()) {
          problem =
              "an event subprocess cannot be a compensation handler ('" + handler.getId() + "')";
        } else if (processOf(handler) == null
            || !process.getId().equals(processOf(handler).getId())) {
          problem =
              "its compensation handler '" + handler.getId() + "' must be in the same process";
        }
        if (problem != null) {
          problems.add(where + ": " + problem);
          return null;
        }
        return handler.getId();
      }
    }
    problems.add(
        where
            + ": it needs an association to its compensation handler (an activity marked"
            + " isForCompensation)");
    return null;
  }

  private static Process processOf(ModelElementInstance element) {
    ModelElementInstance parent = element.getParentElement();
    while (parent != null && !(parent instanceof Process)) {
      parent = parent.getParentElement();
    }
    return (Process) parent;
  }

  private static void checkActivityRef(
      ExecutableElement thrower,
      String activityRef,
      Map<String, ExecutableElement> elements,
      Map<String, String> flowScopes,
      Map<String, String> handlers,
      List<String> problems) {
    String where = "'" + thrower.id() + "' (compensation throw event)";
    ExecutableElement activity = elements.get(activityRef);
    if (activity == null) {
      problems.add(where + ": the activity to compensate, '" + activityRef + "', does not exist");
      return;
    }
    if (!handlers.containsKey(activityRef) && activity.type() != BpmnElementType.SUB_PROCESS) {
      problems.add(
          where
              + ": the activity to compensate, '"
              + activityRef
              + "', needs a compensation boundary event or must be a subprocess");
      return;
    }
    String scope = flowScopes.get(thrower.id());
    String activityScope = flowScopes.get(activityRef);
    ExecutableElement scopeElement = elements.get(scope);
    boolean inEventSubprocess =
        scopeElement != null && scopeElement.type() == BpmnElementType.EVENT_SUB_PROCESS;
    if (!scope.equals(activityScope)
        && !(inEventSubprocess && flowScopes.get(scope).equals(activityScope))) {
      problems.add(
          where
              + ": the activity to compensate, '"
              + activityRef
              + "', must be in the throw event's scope (for a throw event in an event subprocess,"
              + " in the scope the event subprocess runs in)");
    }
  }
}

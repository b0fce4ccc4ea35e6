package io.tern.engine.workflow.model;

import static io.tern.engine.workflow.model.BpmnTransformer.describe;

import io.camunda.zeebe.model.bpmn.instance.BaseElement;
import io.tern.engine.workflow.value.BpmnElementType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Link events of one scope: each link throw event is given the catch event of its name in the same
 * scope; a throw without one, or two catch events of one name, are reported naming the element.
 */
final class LinkResolver {
  private LinkResolver() {}

  /**
   * @param scopeElementIds the ids of the elements directly in {@code scope}, all in {@code
   *     elements}
   */
  static void resolve(
      BaseElement scope,
      List<String> scopeElementIds,
      Map<String, ExecutableElement> elements,
      List<String> problems) {
    Map<String, String> catches = new LinkedHashMap<>();
    for (String id : scopeElementIds) {
      ExecutableElement element = elements.get(id);
      if (element.type() == BpmnElementType.INTERMEDIATE_CATCH_EVENT
          && element.event() instanceof EventDefinition.Link link) {
        String other = catches.putIfAbsent(link.name(), id);
        if (other != null) {
          problems.add(
              "'"
                  + id
                  + "' (intermediateCatchEvent): link catch event '"
                  + other
                  + "' in the same scope has the link name '"
                  + link.name()
                  + "' already; link names must be unique in their scope");
        }
      }
    }
    for (String id : scopeElementIds) {
      ExecutableElement element = elements.get(id);
      if (element.type() == BpmnElementType.INTERMEDIATE_THROW_EVENT
          && element.event() instanceof EventDefinition.Link link) {
        String catchId = catches.get(link.name());
        if (catchId == null) {
          problems.add(
              "'"
                  + id
                  + "' (intermediateThrowEvent): no link catch event named '"
                  + link.name()
                  + "' in the same scope ("
                  + describe(scope)
                  + ") to go on at");
          continue;
        }
        elements.put(id, withEvent(element, new EventDefinition.Link(link.name(), catchId)));
      }
    }
  }

  /** {@code element} with {@code event} instead of its own (a link throw event, resolved). */
  private static ExecutableElement withEvent(
      ExecutableElement element, io.tern.engine.workflow.model.EventDefinition event) {
    return new ExecutableElement(
        element.id(),
        element.type(),
        element.incoming(),
        element.outgoing(),
        element.defaultFlowId(),
        element.job(),
        element.startEventId(),
        element.boundaryEventIds(),
        element.attachedToId(),
        element.interrupting(),
        event,
        element.call(),
        element.evaluation(),
        element.loop(),
        element.inputs(),
        element.outputs(),
        element.userTask());
  }
}

package io.tern.engine.workflow.processing.elements.lifecycle;

import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import java.util.Set;

/**
 * What one kind of BPMN element does in the lifecycle that {@code ElementProcessor} drives. Each
 * kind puts together the {@link ElementLifecycle} steps it takes, in its order: on activation,
 * mostly input mappings, catch events and ELEMENT_ACTIVATED, then what the element does once active
 * (complete at once, create a job, wait, start its children); on completion, mostly output
 * mappings, ELEMENT_COMPLETING and ELEMENT_COMPLETED, then taking its outgoing flows.
 */
public interface ElementKind {
  /** The element types this kind runs; each type has exactly one kind. */
  Set<BpmnElementType> types();

  /**
   * ACTIVATE_ELEMENT: ELEMENT_ACTIVATING is written (or was, by the attempt that raised an
   * incident). Either activates the element or, raising an incident, leaves it ACTIVATING.
   */
  void activate(ElementStep step);

  /**
   * COMPLETE_ELEMENT for an ACTIVATED instance, as {@code stored} in the state: completes it, or
   * (raising an incident, or waiting for children) leaves it ACTIVATED.
   */
  void complete(ElementStep step, ElementInstance stored);
}

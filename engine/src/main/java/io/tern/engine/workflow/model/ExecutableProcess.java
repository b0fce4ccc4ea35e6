package io.tern.engine.workflow.model;

import java.util.Map;

/**
 * A deployed process as the engine runs it: its elements by id, where it starts (its none start
 * event, null if it has none, and its message start events by message name), and where each
 * sequence flow leads (flow id to target element id).
 */
public record ExecutableProcess(
    String bpmnProcessId,
    Map<String, ExecutableElement> elements,
    String noneStartEventId,
    Map<String, String> messageStartEvents,
    Map<String, String> flowTargets) {

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

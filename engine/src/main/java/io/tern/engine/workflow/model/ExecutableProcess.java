package io.tern.engine.workflow.model;

import java.util.Map;

/** A deployed process as the engine runs it: its elements by id and where it starts. */
public record ExecutableProcess(
    String bpmnProcessId, Map<String, ExecutableElement> elements, String noneStartEventId) {

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

package io.tern.engine.workflow.processing.elements.lifecycle;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.behavior.events.CatchEventBehavior;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.util.List;

/**
 * The element instance that one ACTIVATE_ELEMENT or COMPLETE_ELEMENT command is about, for the
 * length of that command.
 *
 * @param result where the command's records go
 * @param key the element instance's key
 * @param value the element instance's value (reused by the next command)
 * @param process the process the instance belongs to
 * @param element the element the instance is of; null for the process itself
 * @param part which of the element's catch events the instance subscribes to
 * @param eventSubprocessStarts the timer and message start events of the event subprocesses inside
 *     the instance, a scope, which it subscribes to (none for a multi-instance body: its inner
 *     instances do)
 */
public record ElementStep(
    ProcessingResult result,
    long key,
    ProcessInstanceValue value,
    ExecutableProcess process,
    ExecutableElement element,
    CatchEventBehavior.Part part,
    List<ExecutableElement> eventSubprocessStarts) {

  public BpmnElementType type() {
    return value.elementType;
  }
}

package io.tern.engine.workflow.processing.behavior.instances;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessInstanceValue;

/**
 * The first command of a new process instance, whoever starts it (a client, a message, a timer, a
 * signal): ACTIVATE_ELEMENT of the process itself, which has no flow scope and no caller.
 */
public final class ProcessActivation {
  private ProcessActivation() {}

  /**
   * Appends the activation of new instance {@code processInstanceKey} of {@code deployed}, built in
   * {@code scratch}.
   */
  public static void append(
      ProcessingResult result,
      long processInstanceKey,
      ProcessState.Deployed deployed,
      ProcessInstanceValue scratch) {
    scratch.processInstanceKey = processInstanceKey;
    scratch.processDefinitionKey = deployed.key();
    scratch.flowScopeKey = -1;
    scratch.parentElementInstanceKey = -1;
    scratch.version = deployed.version();
    scratch.elementType = BpmnElementType.PROCESS;
    scratch.bpmnProcessId = deployed.bpmnProcessId();
    scratch.elementId = deployed.bpmnProcessId();
    result.appendCommand(processInstanceKey, ProcessInstanceIntent.ACTIVATE_ELEMENT, scratch);
  }
}

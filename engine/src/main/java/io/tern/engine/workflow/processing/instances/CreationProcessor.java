package io.tern.engine.workflow.processing.instances;

import io.tern.engine.processor.CommandProcessor;
import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.instances.ProcessActivation;
import io.tern.engine.workflow.processing.behavior.instances.ResultAwaiters;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.Map;

/**
 * Starts a process instance of a deployed process (by key, or by id and version or latest); answers
 * at once, or (awaiting the result) once the instance ends.
 */
public final class CreationProcessor implements CommandProcessor {
  private static final byte[] NO_VARIABLES = new byte[0];

  private final ProcessingContext context;
  private final ProcessState processes;
  private final ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
  private final ProcessInstanceValue instance = new ProcessInstanceValue();

  private final VariableBehavior variableBehavior;
  private final ResultAwaiters awaiters;

  public CreationProcessor(ProcessingContext context, WorkflowState state, Behaviors behaviors) {
    this.context = context;
    this.processes = state.processes();
    this.variableBehavior = behaviors.variables();
    this.awaiters = behaviors.awaiters();
  }

  @Override
  public void process(LoggedRecord command, ProcessingResult result) {
    creation.readFrom(command.value());
    ProcessState.Deployed process =
        creation.processDefinitionKey >= 0
            ? processes.byKey(creation.processDefinitionKey)
            : processes.byIdAndVersion(creation.bpmnProcessId, creation.version);
    if (process == null || processes.isDeleted(process.key())) {
      result.reject(RejectionType.NOT_FOUND, notFound());
      return;
    }
    if (process.process().noneStartEventId() == null) {
      result.reject(
          RejectionType.INVALID_ARGUMENT,
          "process '"
              + process.bpmnProcessId()
              + "' version "
              + process.version()
              + " has no none start event, so it cannot be created by a command: it starts on"
              + " the messages "
              + process.process().messageStartEvents().keySet()
              + " or by its timer start events");
      return;
    }
    Map<String, byte[]> variables;
    try {
      variables = JsonDocuments.variables(creation.variables);
    } catch (InvalidVariablesException e) {
      result.reject(RejectionType.INVALID_ARGUMENT, e.getMessage());
      return;
    }
    long processInstanceKey = context.nextKey();
    creation.processInstanceKey = processInstanceKey;
    creation.processDefinitionKey = process.key();
    creation.bpmnProcessId = process.bpmnProcessId();
    creation.version = process.version();
    // The variables go into the log once, as the VARIABLE events below; repeated here they would
    // halve the largest document a create can carry (a result must fit log.maxBatchBytes).
    creation.variables = NO_VARIABLES;
    result.appendEvent(processInstanceKey, CreationIntent.CREATED, creation);
    if (command.intent() == CreationIntent.CREATE_WITH_AWAITING_RESULT) {
      awaiters.await(
          processInstanceKey,
          command.requestStreamId(),
          command.requestId(),
          creation.fetchVariables);
    } else {
      result.respondWithLastEvent();
    }
    variableBehavior.createLocal(
        result, processInstanceKey, processInstanceKey, process.key(), variables);

    ProcessActivation.append(result, processInstanceKey, process, instance);
  }

  private String notFound() {
    if (creation.processDefinitionKey >= 0) {
      return "no process with definition key " + creation.processDefinitionKey + " is deployed";
    }
    return creation.version < 0
        ? "no process with id '" + creation.bpmnProcessId + "' is deployed"
        : "no version "
            + creation.version
            + " of the process with id '"
            + creation.bpmnProcessId
            + "' is deployed";
  }
}

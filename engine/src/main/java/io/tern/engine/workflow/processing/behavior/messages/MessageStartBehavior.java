package io.tern.engine.workflow.processing.behavior.messages;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.MessageStartEventSubscriptionIntent;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.behavior.instances.ProcessActivation;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.MessageValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.Map;

/**
 * Message start events. A published message starts an instance of the latest version of every
 * process with a message start event of its name (on the message's partition, which has every
 * deployment), at most once per process id. A message with a correlation key starts no second
 * instance of a process while one it started with that key runs: it stays buffered, and when that
 * instance ends, the oldest live buffered message for the key starts the next one.
 */
public final class MessageStartBehavior {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final VariableBehavior variables;
  private final MessageSubscriptionValue started = new MessageSubscriptionValue();
  private final MessageValue buffered = new MessageValue();
  private final ProcessInstanceValue process = new ProcessInstanceValue();

  public MessageStartBehavior(
      ProcessingContext context, WorkflowState state, VariableBehavior variables) {
    this.context = context;
    this.state = state;
    this.variables = variables;
  }

  /**
   * Message {@code messageKey} was published: it starts the instances it may. Returns the key of
   * the first instance it started, or -1 if none.
   */
  public long offer(ProcessingResult result, long messageKey, MessageValue message) {
    long first = -1;
    for (Map.Entry<String, Long> subscribed :
        state.messageStarts().subscribedTo(message.name).entrySet()) {
      String processId = subscribed.getKey();
      if (!state.messages().isCorrelatedTo(messageKey, processId)
          && (message.correlationKey.isEmpty()
              || !state.messageStarts().isHeld(processId, message.correlationKey))) {
        long started =
            start(result, messageKey, message, state.processes().byKey(subscribed.getValue()));
        first = first < 0 ? started : first;
      }
    }
    return first;
  }

  /** The start event instance {@code processInstanceKey} begins at. */
  public String startEventOf(long processInstanceKey, ExecutableProcess executable) {
    String timerStart = state.startEvents().get(processInstanceKey);
    if (timerStart != null) {
      return timerStart; // a timer start event started it
    }
    if (state.messageStarts().howStarted(processInstanceKey, started)) {
      return started.elementId;
    }
    return executable.noneStartEventId();
  }

  /**
   * How instance {@code processInstanceKey}, which is about to end, was started, if a message with
   * a correlation key started it (read before its end event clears it); else null.
   */
  public MessageSubscriptionValue heldBy(long processInstanceKey) {
    if (state.messageStarts().howStarted(processInstanceKey, started)
        && !started.correlationKey.isEmpty()) {
      return new MessageSubscriptionValue().copyFrom(started);
    }
    return null;
  }

  /**
   * An instance started with {@code ended}'s correlation key ended: the oldest live message for
   * that key, of a message start event of the latest version, starts the next instance.
   */
  public void keyReleased(ProcessingResult result, MessageSubscriptionValue ended) {
    ProcessState.Deployed latest = state.processes().byIdAndVersion(ended.bpmnProcessId, -1);
    if (latest == null) {
      return;
    }
    long nowMs = context.nowMs();
    for (String name : latest.process().messageStartEvents().keySet()) {
      for (long messageKey : state.messages().withNameAndKey(name, ended.correlationKey)) {
        if (!state.messages().isCorrelatedTo(messageKey, ended.bpmnProcessId)
            && state.messages().get(messageKey, buffered)
            && buffered.deadlineMs > nowMs) {
          start(result, messageKey, buffered, latest);
          return;
        }
      }
    }
  }

  private long start(
      ProcessingResult result,
      long messageKey,
      MessageValue message,
      ProcessState.Deployed deployed) {
    ExecutableProcess executable = deployed.process();
    long processInstanceKey = context.nextKey();
    started.processInstanceKey = processInstanceKey;
    started.elementInstanceKey = -1;
    started.processDefinitionKey = deployed.key();
    started.messageKey = messageKey;
    started.interrupting = true;
    started.bpmnProcessId = deployed.bpmnProcessId();
    started.messageName = message.name;
    started.correlationKey = message.correlationKey;
    started.elementId = executable.messageStartEvents().get(message.name);
    started.variables = message.variables;
    result.appendEvent(context.nextKey(), MessageStartEventSubscriptionIntent.CORRELATED, started);
    variables.createLocal(
        result,
        processInstanceKey,
        processInstanceKey,
        deployed.key(),
        JsonDocuments.variables(message.variables));
    ProcessActivation.append(result, processInstanceKey, deployed, process);
    return processInstanceKey;
  }
}

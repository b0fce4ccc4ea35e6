package io.tern.engine.workflow.processing.instances;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.processing.behavior.termination.TerminationBehavior;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;

/**
 * The commands that terminate element instances: a client's CANCEL of a process instance, and the
 * TERMINATE_ELEMENT that termination writes for each child. What terminating does is {@link
 * TerminationBehavior}'s, which boundary events, event subprocesses, terminate end events and
 * modifications use as well; this class only decides whether a command may start it.
 */
public final class CancelProcessor {
  private final ElementInstanceState instances;
  private final TerminationBehavior termination;
  private final ElementInstance instance = new ElementInstance();

  public CancelProcessor(ElementInstanceState instances, TerminationBehavior termination) {
    this.instances = instances;
    this.termination = termination;
  }

  /** CANCEL: the key is a process instance's, one that no call activity called. */
  public void cancel(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (!instances.get(key, instance) || instance.value.flowScopeKey >= 0) {
      result.reject(RejectionType.NOT_FOUND, "no active process instance with key " + key);
      return;
    }
    if (instance.value.parentElementInstanceKey >= 0) {
      result.reject(
          RejectionType.INVALID_STATE,
          "process instance "
              + key
              + " was called by call activity instance "
              + instance.value.parentElementInstanceKey
              + ": cancel the instance that called it");
      return;
    }
    if (instance.state == ProcessInstanceIntent.ELEMENT_TERMINATING) {
      result.reject(
          RejectionType.INVALID_STATE, "process instance " + key + " is already being canceled");
      return;
    }
    termination.terminate(key, result);
    result.respondWithLastEvent();
  }

  /** TERMINATE_ELEMENT: written for children, and for a terminating scope whose children went. */
  public void terminateElement(LoggedRecord command, ProcessingResult result) {
    termination.terminateElement(command.key(), result);
  }
}

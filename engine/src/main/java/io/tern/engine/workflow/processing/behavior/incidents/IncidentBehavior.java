package io.tern.engine.workflow.processing.behavior.incidents;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;

/** Raises incidents on element instances: the instance waits until the incident is resolved. */
public final class IncidentBehavior {
  private final ProcessingContext context;
  private final IncidentValue incident = new IncidentValue();

  public IncidentBehavior(ProcessingContext context) {
    this.context = context;
  }

  /** An incident on element instance {@code key} (not raised by a job). */
  /** The longest incident message kept, in characters; a record keeps 64 KiB of text at most. */
  static final int MAX_MESSAGE_CHARS = 16 * 1024;

  /** {@code message}, cut to {@link #MAX_MESSAGE_CHARS} (saying so) if longer. */
  static String cut(String message) {
    if (message.length() <= MAX_MESSAGE_CHARS) {
      return message;
    }
    int end = MAX_MESSAGE_CHARS;
    if (Character.isHighSurrogate(message.charAt(end - 1))) {
      end--; // not half a character
    }
    return message.substring(0, end) + "... (cut: " + message.length() + " characters)";
  }

  public void raise(
      ProcessingResult result,
      ErrorType type,
      long key,
      ProcessInstanceValue element,
      String message) {
    raise(
        result,
        type,
        element.processInstanceKey,
        key,
        element.processDefinitionKey,
        -1,
        element.bpmnProcessId,
        element.elementId,
        message);
  }

  public void raise(
      ProcessingResult result,
      ErrorType type,
      long processInstanceKey,
      long elementInstanceKey,
      long processDefinitionKey,
      long jobKey,
      String bpmnProcessId,
      String elementId,
      String message) {
    incident.errorType = type;
    incident.processInstanceKey = processInstanceKey;
    incident.elementInstanceKey = elementInstanceKey;
    incident.processDefinitionKey = processDefinitionKey;
    incident.jobKey = jobKey;
    incident.bpmnProcessId = bpmnProcessId;
    incident.elementId = elementId;
    incident.errorMessage = cut(message);
    result.appendEvent(context.nextKey(), IncidentIntent.CREATED, incident);
  }
}

package io.tern.engine.workflow.processing.elements.task;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.workflow.feel.FeelStrings;
import io.tern.engine.workflow.feel.IoMappings;
import io.tern.engine.workflow.feel.Mapping;
import io.tern.engine.workflow.model.ExecutableElement.UserTaskDefinition;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.UserTaskDates;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementLifecycle;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementStep;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.UserTaskValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates the Camunda user task of an activated user task element: its properties are evaluated
 * (FEEL from the element's variables, after its input mappings), then the task is CREATING, the
 * element ACTIVATED and the task CREATED; the element waits until the task is completed ({@link
 * io.tern.engine.workflow.processing.usertasks.UserTaskProcessors}). A property that does not
 * evaluate to what it must be raises an incident, as Zeebe does; resolving it activates the element
 * again.
 */
public final class UserTaskCreation {
  /** A property whose expression gave a value of the wrong kind. */
  private static final class WrongResult extends RuntimeException {
    private static final long serialVersionUID = 1L;

    WrongResult(String message) {
      super(message, null, false, false);
    }
  }

  private final ProcessingContext context;
  private final ElementLifecycle lifecycle;
  private final IncidentBehavior incidents;
  private final VariableBehavior variables;
  private final IoMappings mappings = new IoMappings();
  private final UserTaskValue task = new UserTaskValue();

  public UserTaskCreation(
      ProcessingContext context, ElementLifecycle lifecycle, Behaviors behaviors) {
    this.context = context;
    this.lifecycle = lifecycle;
    this.incidents = behaviors.incidents();
    this.variables = behaviors.variables();
  }

  /** Activates the element with its task; false, after raising an incident, if it cannot. */
  public boolean activateWithTask(ElementStep step) {
    UserTaskDefinition definition = step.element().userTask();
    ProcessInstanceValue value = step.value();
    String what = "assignee";
    String expression = definition.assignee();
    try {
      Map<String, byte[]> visible = new HashMap<>(); // read once, by the first FEEL property
      task.assignee = text(expression, visible, step.key());
      what = "candidate groups";
      expression = definition.candidateGroups();
      list(expression, visible, step.key(), task.candidateGroups);
      what = "candidate users";
      expression = definition.candidateUsers();
      list(expression, visible, step.key(), task.candidateUsers);
      what = "due date";
      expression = definition.dueDate();
      task.dueDate = date(expression, visible, step.key());
      what = "follow-up date";
      expression = definition.followUpDate();
      task.followUpDate = date(expression, visible, step.key());
      what = "priority";
      expression = definition.priority();
      task.priority = priority(expression, visible, step.key());
      what = "form";
      expression = definition.externalFormReference();
      task.externalFormReference = text(expression, visible, step.key());
    } catch (FeelStrings.EvaluationException | InvalidVariablesException | WrongResult e) {
      incidents.raise(
          step.result(),
          ErrorType.EXTRACT_VALUE_ERROR,
          step.key(),
          value,
          "the "
              + what
              + " '"
              + expression
              + "' of user task '"
              + step.element().id()
              + "' cannot be evaluated: "
              + e.getMessage());
      return false;
    }
    task.elementInstanceKey = step.key();
    task.processInstanceKey = value.processInstanceKey;
    task.processDefinitionKey = value.processDefinitionKey;
    task.processDefinitionVersion = value.version;
    task.bpmnProcessId = value.bpmnProcessId;
    task.elementId = step.element().id();
    task.formKey = -1;
    task.creationTimestamp = context.nowMs();
    task.customHeaders = definition.customHeadersJson().getBytes(StandardCharsets.UTF_8);
    task.variables = new byte[0];
    task.changed.clear();
    task.action = "";
    long userTaskKey = context.nextKey();
    step.result().appendEvent(userTaskKey, UserTaskIntent.CREATING, task);
    lifecycle.activated(step);
    step.result().appendEvent(userTaskKey, UserTaskIntent.CREATED, task);
    return true;
  }

  /** The property's value as JSON-read Java: static text as it is, FEEL evaluated. */
  private Object evaluate(String expression, Map<String, byte[]> visible, long key) {
    if (!expression.startsWith("=")) {
      return expression;
    }
    if (visible.isEmpty()) {
      visible.putAll(variables.visible(key, List.of()));
    }
    byte[] json =
        mappings.evaluate(List.of(new Mapping(expression, "value")), visible).get("value");
    return JsonDocuments.toJava(json);
  }

  private String text(String expression, Map<String, byte[]> visible, long key) {
    if (expression == null) {
      return "";
    }
    Object result = evaluate(expression, visible, key);
    if (result == null) {
      return "";
    }
    if (result instanceof String text) {
      return text;
    }
    if (result instanceof Number number) {
      return number.toString(); // Zeebe takes a number as an assignee, as its text
    }
    throw new WrongResult("it gave " + describe(result) + ", not a string");
  }

  private void list(String expression, Map<String, byte[]> visible, long key, List<String> into) {
    into.clear();
    if (expression == null) {
      return;
    }
    if (!expression.startsWith("=")) {
      for (String item : expression.split(",")) {
        if (!item.isBlank()) {
          into.add(item.strip());
        }
      }
      return;
    }
    Object result = evaluate(expression, visible, key);
    if (result == null) {
      return;
    }
    if (!(result instanceof List<?> items)) {
      throw new WrongResult("it gave " + describe(result) + ", not a list of strings");
    }
    List<String> texts = new ArrayList<>();
    for (Object item : items) {
      if (!(item instanceof String text)) {
        throw new WrongResult("it gave a list holding " + describe(item) + ", not only strings");
      }
      texts.add(text);
    }
    into.addAll(texts);
  }

  private String date(String expression, Map<String, byte[]> visible, long key) {
    if (expression == null) {
      return "";
    }
    Object result = evaluate(expression, visible, key);
    if (result == null) {
      return "";
    }
    String normalized = result instanceof String text ? UserTaskDates.normalize(text) : null;
    if (normalized == null) {
      throw new WrongResult(
          "it gave " + describe(result) + ", not a date and time with a time zone (ISO 8601)");
    }
    return normalized;
  }

  private int priority(String expression, Map<String, byte[]> visible, long key) {
    if (expression == null) {
      return UserTaskValue.DEFAULT_PRIORITY;
    }
    Object result = evaluate(expression, visible, key);
    if (result instanceof String text && !expression.startsWith("=")) {
      return Integer.parseInt(text); // checked at deployment
    }
    if (result instanceof Number number
        && number.doubleValue() == Math.rint(number.doubleValue())
        && number.doubleValue() >= 0
        && number.doubleValue() <= UserTaskValue.MAX_PRIORITY) {
      return number.intValue();
    }
    throw new WrongResult(
        "it gave " + describe(result) + ", not a whole number from 0 to 100 (a priority)");
  }

  private static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String text) {
      return "the string '" + text + "'";
    }
    return "'" + value + "'";
  }
}

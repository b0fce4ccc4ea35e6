package io.tern.engine.workflow.processing.usertasks;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.UserTaskDates;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.UserTaskState;
import io.tern.engine.workflow.value.UserTaskValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The commands a task list sends about a Camunda user task: ASSIGN (an empty assignee unassigns),
 * CLAIM, UPDATE and COMPLETE. Each is taken only while the task waits (CREATED): its transitional
 * event and its final one are written together, the final one answers. A completion's variables are
 * set as a job's are (the task's own when it has output mappings, else propagated to where they are
 * defined) and its element completes.
 */
public final class UserTaskProcessors {
  private static final Set<String> ATTRIBUTES =
      Set.of(
          UserTaskValue.CANDIDATE_GROUPS,
          UserTaskValue.CANDIDATE_USERS,
          UserTaskValue.DUE_DATE,
          UserTaskValue.FOLLOW_UP_DATE,
          UserTaskValue.PRIORITY);

  private final WorkflowState state;
  private final VariableBehavior variables;
  private final UserTaskState.Task task = new UserTaskState.Task();
  private final UserTaskValue request = new UserTaskValue();
  private final ElementInstance instance = new ElementInstance();

  public UserTaskProcessors(WorkflowState state, Behaviors behaviors) {
    this.state = state;
    this.variables = behaviors.variables();
  }

  /** Sets the assignee, whoever had it; an empty one unassigns ("unassign" is then the action). */
  public void assign(LoggedRecord command, ProcessingResult result) {
    if (!waiting(command.key(), "assign", result)) {
      return;
    }
    request.readFrom(command.value());
    UserTaskValue assigned =
        event(request.action, request.assignee.isEmpty() ? "unassign" : "assign");
    assigned.assignee = request.assignee;
    result.appendEvent(command.key(), UserTaskIntent.ASSIGNING, assigned);
    result.appendEvent(command.key(), UserTaskIntent.ASSIGNED, assigned);
    result.respondWithLastEvent();
  }

  /** Assigns a task nobody has; its own assignee may claim it again. */
  public void claim(LoggedRecord command, ProcessingResult result) {
    if (!waiting(command.key(), "claim", result)) {
      return;
    }
    request.readFrom(command.value());
    if (request.assignee.isEmpty()) {
      result.reject(RejectionType.INVALID_ARGUMENT, "claiming a user task needs an assignee");
      return;
    }
    String current = task.value.assignee;
    if (!current.isEmpty() && !current.equals(request.assignee)) {
      result.reject(
          RejectionType.INVALID_STATE,
          "Expected to claim user task with key '"
              + command.key()
              + "', but it is assigned to '"
              + current
              + "' already");
      return;
    }
    UserTaskValue claimed = event(request.action, "claim");
    claimed.assignee = request.assignee;
    result.appendEvent(command.key(), UserTaskIntent.CLAIMING, claimed);
    result.appendEvent(command.key(), UserTaskIntent.ASSIGNED, claimed);
    result.respondWithLastEvent();
  }

  /** Changes the attributes the command names (by Zeebe's names), and only those. */
  public void update(LoggedRecord command, ProcessingResult result) {
    if (!waiting(command.key(), "update", result)) {
      return;
    }
    request.readFrom(command.value());
    String refusal = refusal(request);
    if (refusal != null) {
      result.reject(RejectionType.INVALID_ARGUMENT, refusal);
      return;
    }
    UserTaskValue updated = event(request.action, "update");
    List<String> changed = List.copyOf(request.changed);
    for (String attribute : changed) {
      switch (attribute) {
        case UserTaskValue.CANDIDATE_GROUPS -> {
          updated.candidateGroups.clear();
          updated.candidateGroups.addAll(request.candidateGroups);
        }
        case UserTaskValue.CANDIDATE_USERS -> {
          updated.candidateUsers.clear();
          updated.candidateUsers.addAll(request.candidateUsers);
        }
        case UserTaskValue.DUE_DATE ->
            updated.dueDate =
                request.dueDate.isEmpty() ? "" : UserTaskDates.normalize(request.dueDate);
        case UserTaskValue.FOLLOW_UP_DATE ->
            updated.followUpDate =
                request.followUpDate.isEmpty() ? "" : UserTaskDates.normalize(request.followUpDate);
        case UserTaskValue.PRIORITY -> updated.priority = request.priority;
        default -> throw new IllegalStateException("unchecked attribute " + attribute);
      }
    }
    updated.changed.addAll(changed);
    result.appendEvent(command.key(), UserTaskIntent.UPDATING, updated);
    result.appendEvent(command.key(), UserTaskIntent.UPDATED, updated);
    result.respondWithLastEvent();
  }

  private static String refusal(UserTaskValue request) {
    for (String attribute : request.changed) {
      if (!ATTRIBUTES.contains(attribute)) {
        return "a user task update cannot change '"
            + attribute
            + "'; it changes "
            + String.join(", ", ATTRIBUTES.stream().sorted().toList());
      }
    }
    if (request.changed.contains(UserTaskValue.PRIORITY)
        && (request.priority < 0 || request.priority > UserTaskValue.MAX_PRIORITY)) {
      return "a user task's priority must be from 0 to 100, got " + request.priority;
    }
    if (request.changed.contains(UserTaskValue.DUE_DATE)
        && !request.dueDate.isEmpty()
        && UserTaskDates.normalize(request.dueDate) == null) {
      return "the due date '" + request.dueDate + "' is no ISO 8601 date-time with an offset";
    }
    if (request.changed.contains(UserTaskValue.FOLLOW_UP_DATE)
        && !request.followUpDate.isEmpty()
        && UserTaskDates.normalize(request.followUpDate) == null) {
      return "the follow-up date '"
          + request.followUpDate
          + "' is no ISO 8601 date-time with an offset";
    }
    return null;
  }

  /** Completes the task with the command's variables; its element completes next. */
  public void complete(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (!waiting(key, "complete", result)) {
      return;
    }
    request.readFrom(command.value());
    Map<String, byte[]> values;
    try {
      values = JsonDocuments.variables(request.variables);
    } catch (InvalidVariablesException e) {
      result.reject(RejectionType.INVALID_ARGUMENT, e.getMessage());
      return;
    }
    UserTaskValue completed = event(request.action, "complete");
    completed.variables = request.variables;
    result.appendEvent(key, UserTaskIntent.COMPLETING, completed);
    // COMPLETED leaves the variables out, as a job's does: COMPLETING and the VARIABLE events
    // below carry them, and a third copy would cut the largest document a completion can carry.
    completed.variables = new byte[0];
    result.appendEvent(key, UserTaskIntent.COMPLETED, completed);
    result.respondWithLastEvent();
    long elementInstanceKey = completed.elementInstanceKey;
    if (!state.instances().get(elementInstanceKey, instance)) {
      return;
    }
    boolean local =
        !state
            .process(completed.processDefinitionKey)
            .element(completed.elementId)
            .outputs()
            .isEmpty();
    if (local) {
      // With output mappings, the variables are the task's own, for the mappings to read.
      variables.setLocal(
          result,
          elementInstanceKey,
          completed.processInstanceKey,
          completed.processDefinitionKey,
          values);
    } else {
      variables.setPropagating(
          result,
          elementInstanceKey,
          completed.processInstanceKey,
          completed.processDefinitionKey,
          values);
    }
    result.appendCommand(
        elementInstanceKey, ProcessInstanceIntent.COMPLETE_ELEMENT, instance.value);
  }

  /** Loads the task into {@link #task}; false, after rejecting, unless it waits (CREATED). */
  private boolean waiting(long key, String what, ProcessingResult result) {
    if (!state.userTasks().get(key, task)) {
      result.reject(
          RejectionType.NOT_FOUND,
          "Expected to " + what + " user task with key '" + key + "', but no such task was found");
      return false;
    }
    if (task.lifecycle != UserTaskIntent.CREATED) {
      result.reject(
          RejectionType.INVALID_STATE,
          "Expected to "
              + what
              + " user task with key '"
              + key
              + "', but it is in state '"
              + task.lifecycle
              + "'");
      return false;
    }
    return true;
  }

  /** The stored task as the value of a command's events, with the command's action. */
  private UserTaskValue event(String action, String defaultAction) {
    UserTaskValue value = new UserTaskValue().copyFrom(task.value);
    value.action = action.isEmpty() ? defaultAction : action;
    value.changed.clear();
    value.variables = new byte[0];
    return value;
  }
}

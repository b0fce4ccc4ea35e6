package io.tern.engine.workflow.processing.usertasks;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.UserTaskState;

/**
 * The appliers of user task events: each stores the event's value as the task's, in the lifecycle
 * state the event leaves it in; COMPLETED and CANCELED remove it.
 */
public final class UserTaskAppliers {
  private final UserTaskState tasks;
  private final UserTaskState.Task task = new UserTaskState.Task();
  private final UserTaskState.Task previous = new UserTaskState.Task();

  private UserTaskAppliers(WorkflowState state) {
    this.tasks = state.userTasks();
  }

  public static void register(RecordProcessors on, WorkflowState state) {
    new UserTaskAppliers(state).registerAll(on);
  }

  private void registerAll(RecordProcessors on) {
    on.onEvent(UserTaskIntent.CREATING, event -> store(event, UserTaskIntent.CREATING))
        .onEvent(UserTaskIntent.CREATED, event -> store(event, UserTaskIntent.CREATED))
        .onEvent(UserTaskIntent.ASSIGNING, event -> store(event, UserTaskIntent.ASSIGNING))
        .onEvent(UserTaskIntent.CLAIMING, event -> store(event, UserTaskIntent.CLAIMING))
        .onEvent(UserTaskIntent.ASSIGNED, event -> store(event, UserTaskIntent.CREATED))
        .onEvent(UserTaskIntent.UPDATING, event -> store(event, UserTaskIntent.UPDATING))
        .onEvent(UserTaskIntent.UPDATED, event -> store(event, UserTaskIntent.CREATED))
        .onEvent(UserTaskIntent.COMPLETING, event -> store(event, UserTaskIntent.COMPLETING))
        .onEvent(UserTaskIntent.COMPLETED, this::remove)
        .onEvent(UserTaskIntent.CANCELING, event -> store(event, UserTaskIntent.CANCELING))
        .onEvent(UserTaskIntent.CANCELED, this::remove)
        .onEvent(UserTaskIntent.MIGRATED, this::migrated);
  }

  /**
   * The event's value becomes the task's. What a command carried (its variables, its changed
   * attributes, its action) is the event's alone and is not kept.
   */
  private void store(LoggedRecord event, UserTaskIntent lifecycle) {
    task.value.readFrom(event.value());
    task.value.variables = new byte[0];
    task.value.changed.clear();
    task.value.action = "";
    task.lifecycle = lifecycle;
    tasks.put(event.key(), task);
  }

  private void migrated(LoggedRecord event) {
    if (!tasks.get(event.key(), previous)) {
      throw new IllegalStateException("no user task " + event.key() + " to migrate");
    }
    store(event, previous.lifecycle);
  }

  private void remove(LoggedRecord event) {
    if (tasks.get(event.key(), task)) {
      tasks.remove(event.key(), task);
    }
  }
}

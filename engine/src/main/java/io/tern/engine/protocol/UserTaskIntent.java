package io.tern.engine.protocol;

/**
 * {@link ValueType#USER_TASK}: a Camunda user task ({@code zeebe:userTask}), which a person works
 * on through a task list instead of a job worker. The commands are ASSIGN (unassigning is an ASSIGN
 * with no assignee), CLAIM, UPDATE and COMPLETE; each is answered with its transitional event
 * (ASSIGNING, CLAIMING, UPDATING, COMPLETING) followed at once by its final one, as Zeebe 8.6
 * writes them when no task listener runs. Codes follow Zeebe's numbering where it has the intent.
 */
public enum UserTaskIntent implements Intent {
  /** Its element was activated: the task is being made (its properties are evaluated). */
  CREATING(0),

  /** The task waits for a person; its element waits for it. */
  CREATED(1),

  COMPLETE(2),

  /** Completion was asked, with the variables it carries and its action. */
  COMPLETING(3),

  /** The task is done; its element completes next. */
  COMPLETED(4),

  /** Its element is terminated (the instance cancelled, a boundary event, a modification). */
  CANCELING(5),

  CANCELED(6),

  /** Sets the assignee, replacing any; an empty assignee unassigns. */
  ASSIGN(7),

  ASSIGNING(8),

  /** The assignee changed (also after a claim). */
  ASSIGNED(9),

  /** Assigns a task nobody has (or its own assignee has) yet. */
  CLAIM(10),

  UPDATE(11),

  UPDATING(12),

  /** Candidates, dates or priority changed; {@code changedAttributes} says which. */
  UPDATED(13),

  /** Its element instance was migrated: the task names the target definition and element. */
  MIGRATED(14),

  /** A claim was accepted (Zeebe 8.6 writes ASSIGNING here; exporters see that). */
  CLAIMING(15);

  private final int code;

  UserTaskIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.USER_TASK;
  }

  @Override
  public int code() {
    return code;
  }
}

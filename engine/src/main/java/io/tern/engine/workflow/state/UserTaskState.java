package io.tern.engine.workflow.state;

import io.tern.engine.protocol.Intents;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbValue;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.UserTaskValue;
import java.nio.ByteOrder;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** Camunda user tasks by key, with their lifecycle, and the task of each element instance. */
public final class UserTaskState {
  /**
   * A stored task: its lifecycle (the last event's intent: CREATED while it waits, a transitional
   * one such as COMPLETING while a command is under way) and its value.
   */
  public static final class Task implements DbValue {
    public UserTaskIntent lifecycle = UserTaskIntent.CREATED;
    public final UserTaskValue value = new UserTaskValue();

    @Override
    public int length() {
      return Integer.BYTES + value.length();
    }

    @Override
    public void write(MutableDirectBuffer buffer, int offset) {
      buffer.putInt(offset, lifecycle.code(), ByteOrder.LITTLE_ENDIAN);
      value.write(buffer, offset + Integer.BYTES);
    }

    @Override
    public void wrap(DirectBuffer buffer, int offset, int length) {
      int code = buffer.getInt(offset, ByteOrder.LITTLE_ENDIAN);
      if (!(Intents.of(ValueType.USER_TASK.code(), code) instanceof UserTaskIntent known)) {
        throw new IllegalStateException("a user task's state has the unknown intent " + code);
      }
      lifecycle = known;
      value.wrap(buffer, offset + Integer.BYTES, length - Integer.BYTES);
    }
  }

  private final ColumnFamily<DbLong, Task> tasks;
  private final ColumnFamily<DbLong, DbLong> byElement;
  private final DbLong key = new DbLong();
  private final DbLong other = new DbLong();

  public UserTaskState(PartitionState state) {
    this(state, false);
  }

  /** A view for reads only (diagnostics), beside the engine's own instance: claims no ids. */
  public static UserTaskState readOnly(PartitionState state) {
    return new UserTaskState(state, true);
  }

  private UserTaskState(PartitionState state, boolean view) {
    tasks =
        view
            ? state.readView(StateIds.USER_TASKS, new DbLong(), new Task())
            : state.columnFamily(StateIds.USER_TASKS, new DbLong(), new Task());
    byElement =
        view
            ? state.readView(StateIds.USER_TASKS_BY_ELEMENT, new DbLong(), new DbLong())
            : state.columnFamily(StateIds.USER_TASKS_BY_ELEMENT, new DbLong(), new DbLong());
  }

  public boolean get(long userTaskKey, Task into) {
    return tasks.get(key.set(userTaskKey), into);
  }

  /** The user task of an element instance, or -1. */
  public long ofElement(long elementInstanceKey) {
    return byElement.get(key.set(elementInstanceKey), other) ? other.get() : -1;
  }

  /** Applier: the task is stored (new, or changed) in its lifecycle state. */
  public void put(long userTaskKey, Task task) {
    tasks.put(key.set(userTaskKey), task);
    byElement.put(key.set(task.value.elementInstanceKey), other.set(userTaskKey));
  }

  /** Applier: the task is done (completed or canceled). */
  public void remove(long userTaskKey, Task task) {
    tasks.delete(key.set(userTaskKey));
    byElement.delete(key.set(task.value.elementInstanceKey));
  }
}

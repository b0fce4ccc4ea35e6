package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.ProcessEventValue;

/**
 * Interrupting boundary events waiting for their activity to be terminated: once it is, the
 * boundary event is activated in its place, with the variables its trigger brought.
 */
public final class PendingBoundaryState {
  private final ColumnFamily<DbLong, ProcessEventValue> pending;
  private final DbLong key = new DbLong();

  public PendingBoundaryState(PartitionState state) {
    pending =
        state.columnFamily(StateIds.PENDING_BOUNDARY_EVENTS, new DbLong(), new ProcessEventValue());
  }

  /** The trigger waiting for activity instance {@code activityKey} to end, if any. */
  public boolean get(long activityKey, ProcessEventValue into) {
    return pending.get(key.set(activityKey), into);
  }

  public boolean has(long activityKey) {
    return pending.exists(key.set(activityKey));
  }

  /** Applier of an interrupting PROCESS_EVENT TRIGGERED. */
  public void put(long activityKey, ProcessEventValue trigger) {
    pending.put(key.set(activityKey), trigger);
  }

  /** Applier of the activity's TERMINATED (or COMPLETED): the trigger is used, or moot. */
  public void remove(long activityKey) {
    pending.delete(key.set(activityKey));
  }
}

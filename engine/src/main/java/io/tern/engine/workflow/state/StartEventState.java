package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;

/**
 * The start event that a process instance started by a timer begins at (a process may have a none
 * start event and timer start events), from its trigger until the instance ends.
 */
public final class StartEventState {
  private final ColumnFamily<DbLong, DbString> startEvents;
  private final DbLong key = new DbLong();
  private final DbString elementId = new DbString();

  public StartEventState(PartitionState state) {
    startEvents = state.columnFamily(StateIds.INSTANCE_START_EVENTS, new DbLong(), new DbString());
  }

  /** Applier of the trigger that creates instance {@code processInstanceKey}. */
  public void put(long processInstanceKey, String startEventId) {
    startEvents.put(key.set(processInstanceKey), elementId.set(startEventId));
  }

  /** The start event instance {@code processInstanceKey} begins at, or null if not recorded. */
  public String get(long processInstanceKey) {
    return startEvents.get(key.set(processInstanceKey), elementId) ? elementId.get() : null;
  }

  /** Applier: the instance ended. */
  public void remove(long processInstanceKey) {
    startEvents.delete(key.set(processInstanceKey));
  }
}

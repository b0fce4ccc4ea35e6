package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.PartitionState;

/** Live element instances by key (removed once completed). */
public final class ElementInstanceState {
  private final ColumnFamily<DbLong, ElementInstance> instances;
  private final DbLong key = new DbLong();

  public ElementInstanceState(PartitionState state) {
    instances = state.columnFamily(StateIds.ELEMENT_INSTANCES, new DbLong(), new ElementInstance());
  }

  /** Reads the instance into {@code into}; false if there is none. */
  public boolean get(long elementInstanceKey, ElementInstance into) {
    return instances.get(key.set(elementInstanceKey), into);
  }

  public void put(long elementInstanceKey, ElementInstance instance) {
    instances.put(key.set(elementInstanceKey), instance);
  }

  public void remove(long elementInstanceKey) {
    instances.delete(key.set(elementInstanceKey));
  }
}

package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.PartitionState;

/** Live element instances by key (removed once completed or terminated), and their children. */
public final class ElementInstanceState {
  private final ColumnFamily<DbLong, ElementInstance> instances;
  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbLong> children;
  private final ColumnFamily<DbLong, io.tern.engine.state.DbNil> modificationActivations;
  private final io.tern.engine.state.DbNil nil = new io.tern.engine.state.DbNil();
  private final DbLong key = new DbLong();
  private final DbLong parent = new DbLong();
  private final DbLong child = new DbLong();
  private final DbCompositeKey<DbLong, DbLong> parentAndChild = new DbCompositeKey<>(parent, child);

  public ElementInstanceState(PartitionState state) {
    this(state, false);
  }

  /** A view for reads only (diagnostics), beside the engine's own instance: claims no ids. */
  public static ElementInstanceState readOnly(PartitionState state) {
    return new ElementInstanceState(state, true);
  }

  private ElementInstanceState(PartitionState state, boolean view) {
    instances =
        family(state, view, StateIds.ELEMENT_INSTANCES, new DbLong(), new ElementInstance());
    children =
        family(
            state,
            view,
            StateIds.CHILDREN,
            new DbCompositeKey<>(new DbLong(), new DbLong()),
            new DbLong());
    modificationActivations =
        family(state, view, StateIds.MODIFICATION_ACTIVATIONS, new DbLong(), nil);
  }

  public void addChild(long scopeKey, long childKey) {
    parent.set(scopeKey);
    child.set(childKey);
    children.put(parentAndChild, child);
  }

  public void removeChild(long scopeKey, long childKey) {
    parent.set(scopeKey);
    child.set(childKey);
    children.delete(parentAndChild);
  }

  /** The keys of a scope's live child element instances. */
  public java.util.List<Long> children(long scopeKey) {
    java.util.List<Long> keys = new java.util.ArrayList<>();
    children.forEachWithPrefix(
        new DbLong(scopeKey),
        (k, v) -> {
          keys.add(k.second().get());
          return true;
        });
    return keys;
  }

  /**
   * Applier: element instance {@code key} is to be activated by a modification, which put the token
   * it takes in its scope (so a joining gateway takes one, not one per incoming flow).
   */
  public void markActivatedByModification(long elementInstanceKey) {
    modificationActivations.put(key.set(elementInstanceKey), nil);
  }

  /** Applier: whether {@link #markActivatedByModification} marked it; the mark goes. */
  public boolean takeActivatedByModification(long elementInstanceKey) {
    if (!modificationActivations.exists(key.set(elementInstanceKey))) {
      return false;
    }
    modificationActivations.delete(key.set(elementInstanceKey));
    return true;
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

  private static <K extends io.tern.engine.state.DbKey, V extends io.tern.engine.state.DbValue>
      ColumnFamily<K, V> family(PartitionState state, boolean view, short id, K key, V value) {
    return view ? state.readView(id, key, value) : state.columnFamily(id, key, value);
  }
}

package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbBytes;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Variables by scope (element instance key) and name, as JSON text. A scope's variables go when the
 * scope completes. Most scopes (events, gateways, plain tasks) never hold a variable, so each scope
 * that does is also marked: reading or removing an unmarked scope is one point lookup instead of an
 * iterator over the variables (creating RocksDB iterators was the largest cost of ending elements).
 */
public final class VariableState {
  private final ColumnFamily<DbCompositeKey<DbLong, DbString>, DbBytes> variables;
  private final DbLong scope = new DbLong();
  private final DbString name = new DbString();
  private final DbCompositeKey<DbLong, DbString> scopeAndName = new DbCompositeKey<>(scope, name);
  private final DbBytes value = new DbBytes();
  private final ColumnFamily<DbLong, DbNil> scopes;
  private final DbLong marked = new DbLong();
  private final DbNil nil = new DbNil();

  public VariableState(PartitionState state) {
    this(state, false);
  }

  /** A view for reads only (diagnostics), beside the engine's own instance: claims no ids. */
  public static VariableState readOnly(PartitionState state) {
    return new VariableState(state, true);
  }

  private VariableState(PartitionState state, boolean view) {
    variables =
        family(
            state,
            view,
            StateIds.VARIABLES,
            new DbCompositeKey<>(new DbLong(), new DbString()),
            new DbBytes());
    scopes = family(state, view, StateIds.VARIABLE_SCOPES, new DbLong(), nil);
  }

  public void put(long scopeKey, String variable, byte[] json) {
    scope.set(scopeKey);
    name.set(variable);
    variables.put(scopeAndName, value.set(json));
    scopes.put(marked.set(scopeKey), nil);
  }

  public boolean has(long scopeKey, String variable) {
    scope.set(scopeKey);
    name.set(variable);
    return variables.exists(scopeAndName);
  }

  /** The variables of one scope, name to JSON. */
  public Map<String, byte[]> ofScope(long scopeKey) {
    Map<String, byte[]> found = new LinkedHashMap<>();
    if (!scopes.exists(marked.set(scopeKey))) {
      return found;
    }
    variables.forEachWithPrefix(
        new DbLong(scopeKey),
        (key, json) -> {
          found.put(key.second().get(), json.toArray());
          return true;
        });
    return found;
  }

  /** Applier: drops every variable of a scope that ended. */
  public void removeScope(long scopeKey) {
    if (!scopes.exists(marked.set(scopeKey))) {
      return;
    }
    scopes.delete(marked);
    variables.forEachWithPrefix(
        new DbLong(scopeKey),
        (key, json) -> {
          variables.delete(key);
          return true;
        });
  }

  private static <K extends io.tern.engine.state.DbKey, V extends io.tern.engine.state.DbValue>
      ColumnFamily<K, V> family(PartitionState state, boolean view, short id, K key, V value) {
    return view ? state.readView(id, key, value) : state.columnFamily(id, key, value);
  }
}

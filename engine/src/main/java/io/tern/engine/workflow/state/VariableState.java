package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbBytes;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Variables by scope (element instance key) and name, as JSON text. A scope's variables go when the
 * scope completes.
 */
public final class VariableState {
  private final ColumnFamily<DbCompositeKey<DbLong, DbString>, DbBytes> variables;
  private final DbLong scope = new DbLong();
  private final DbString name = new DbString();
  private final DbCompositeKey<DbLong, DbString> scopeAndName = new DbCompositeKey<>(scope, name);
  private final DbBytes value = new DbBytes();

  public VariableState(PartitionState state) {
    variables =
        state.columnFamily(
            StateIds.VARIABLES, new DbCompositeKey<>(new DbLong(), new DbString()), new DbBytes());
  }

  public void put(long scopeKey, String variable, byte[] json) {
    scope.set(scopeKey);
    name.set(variable);
    variables.put(scopeAndName, value.set(json));
  }

  public boolean has(long scopeKey, String variable) {
    scope.set(scopeKey);
    name.set(variable);
    return variables.exists(scopeAndName);
  }

  /** The variables of one scope, name to JSON. */
  public Map<String, byte[]> ofScope(long scopeKey) {
    Map<String, byte[]> found = new LinkedHashMap<>();
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
    variables.forEachWithPrefix(
        new DbLong(scopeKey),
        (key, json) -> {
          variables.delete(key);
          return true;
        });
  }
}

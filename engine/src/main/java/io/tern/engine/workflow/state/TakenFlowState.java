package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;

/**
 * Tokens waiting at joining gateways (parallel, and inclusive with more than one incoming flow):
 * per flow scope, gateway and incoming flow, how many times the flow was taken and not yet joined.
 */
public final class TakenFlowState {
  private final ColumnFamily<DbCompositeKey<DbLong, DbCompositeKey<DbString, DbString>>, DbLong>
      taken;
  private final DbLong scope = new DbLong();
  private final DbString gateway = new DbString();
  private final DbString flow = new DbString();
  private final DbCompositeKey<DbLong, DbCompositeKey<DbString, DbString>> key =
      new DbCompositeKey<>(scope, new DbCompositeKey<>(gateway, flow));
  private final DbLong count = new DbLong();

  /** Scopes that ever had a token wait at a join: only those are scanned when they end. */
  private final ColumnFamily<DbLong, DbNil> scopes;

  private final DbLong marked = new DbLong();
  private final DbNil nil = new DbNil();

  public TakenFlowState(PartitionState state) {
    taken =
        state.columnFamily(
            StateIds.TAKEN_FLOWS,
            new DbCompositeKey<>(
                new DbLong(), new DbCompositeKey<>(new DbString(), new DbString())),
            new DbLong());
    scopes = state.columnFamily(StateIds.TAKEN_FLOW_SCOPES, new DbLong(), nil);
  }

  public long count(long scopeKey, String gatewayId, String flowId) {
    set(scopeKey, gatewayId, flowId);
    return taken.get(key, count) ? count.get() : 0;
  }

  /** What a scope's tokens wait at: each gateway and incoming flow with its count. */
  public interface WaitingVisitor {
    void visit(String gatewayId, String flowId, long count);
  }

  /** Visits the scope's waiting tokens, by gateway id then flow id. */
  public void forEachWaiting(long scopeKey, WaitingVisitor visitor) {
    if (!scopes.exists(marked.set(scopeKey))) {
      return;
    }
    taken.forEachWithPrefix(
        new DbLong(scopeKey),
        (k, v) -> {
          visitor.visit(k.second().first().get(), k.second().second().get(), v.get());
          return true;
        });
  }

  /** Applier: adds {@code delta} to the flow's waiting tokens. */
  public void add(long scopeKey, String gatewayId, String flowId, long delta) {
    long now = count(scopeKey, gatewayId, flowId) + delta;
    set(scopeKey, gatewayId, flowId);
    if (now <= 0) {
      taken.delete(key);
    } else {
      taken.put(key, count.set(now));
      scopes.put(marked.set(scopeKey), nil);
    }
  }

  /** Applier: a finished scope's waiting tokens go with it. */
  public void removeScope(long scopeKey) {
    if (!scopes.exists(marked.set(scopeKey))) {
      return;
    }
    scopes.delete(marked);
    taken.forEachWithPrefix(
        new DbLong(scopeKey),
        (k, v) -> {
          taken.delete(k);
          return true;
        });
  }

  private void set(long scopeKey, String gatewayId, String flowId) {
    scope.set(scopeKey);
    gateway.set(gatewayId);
    flow.set(flowId);
  }
}

package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.CompensationSubscriptionValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The compensation subscriptions of each process instance, by subscription key, read whole when
 * compensation is thrown or the instance ends; and by the scope instance they completed in, so that
 * a subprocess completing asks cheaply whether it holds any.
 */
public final class CompensationState {
  /** A subscription and its key. */
  public record Entry(long key, CompensationSubscriptionValue value) {}

  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, CompensationSubscriptionValue>
      subscriptions;
  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbNil> byScope;
  private final DbLong first = new DbLong();
  private final DbLong second = new DbLong();
  private final DbCompositeKey<DbLong, DbLong> key = new DbCompositeKey<>(first, second);
  private final DbNil nil = new DbNil();
  private final CompensationSubscriptionValue stored = new CompensationSubscriptionValue();

  public CompensationState(PartitionState state) {
    subscriptions =
        state.columnFamily(
            StateIds.COMPENSATION_SUBSCRIPTIONS,
            new DbCompositeKey<>(new DbLong(), new DbLong()),
            new CompensationSubscriptionValue());
    byScope =
        state.columnFamily(
            StateIds.COMPENSATION_SUBSCRIPTIONS_BY_SCOPE,
            new DbCompositeKey<>(new DbLong(), new DbLong()),
            nil);
  }

  /** Applier: stores (or replaces) subscription {@code subscriptionKey}. */
  public void put(long subscriptionKey, CompensationSubscriptionValue value) {
    first.set(value.processInstanceKey);
    second.set(subscriptionKey);
    subscriptions.put(key, value);
    first.set(value.scopeKey);
    byScope.put(key, nil);
  }

  /** Applier: the subscription is gone. */
  public void remove(long processInstanceKey, long subscriptionKey) {
    first.set(processInstanceKey);
    second.set(subscriptionKey);
    if (subscriptions.get(key, stored)) {
      subscriptions.delete(key);
      first.set(stored.scopeKey);
      byScope.delete(key);
    }
  }

  /** Whether something that can be compensated completed in scope instance {@code scopeKey}. */
  public boolean holdsAny(long scopeKey) {
    boolean[] found = {false};
    byScope.forEachWithPrefix(
        new DbLong(scopeKey),
        (k, v) -> {
          found[0] = true;
          return false;
        });
    return found[0];
  }

  /** The subscriptions of a process instance, in key order, copied. */
  public List<Entry> ofInstance(long processInstanceKey) {
    List<Entry> found = new ArrayList<>();
    subscriptions.forEachWithPrefix(
        new DbLong(processInstanceKey),
        (k, v) ->
            found.add(
                new Entry(k.second().get(), new CompensationSubscriptionValue().copyFrom(v))));
    return found;
  }
}

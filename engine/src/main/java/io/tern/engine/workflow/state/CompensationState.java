package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.CompensationSubscriptionValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The compensation subscriptions of each process instance, by subscription key: few per instance
 * (one per completed compensable activity), so they are read whole when compensation is thrown, a
 * handler completes or the instance ends.
 */
public final class CompensationState {
  /** A subscription and its key. */
  public record Entry(long key, CompensationSubscriptionValue value) {}

  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, CompensationSubscriptionValue>
      subscriptions;
  private final DbLong instance = new DbLong();
  private final DbLong subscription = new DbLong();
  private final DbCompositeKey<DbLong, DbLong> key = new DbCompositeKey<>(instance, subscription);

  public CompensationState(PartitionState state) {
    subscriptions =
        state.columnFamily(
            StateIds.COMPENSATION_SUBSCRIPTIONS,
            new DbCompositeKey<>(new DbLong(), new DbLong()),
            new CompensationSubscriptionValue());
  }

  /** Applier: stores (or replaces) subscription {@code subscriptionKey}. */
  public void put(long subscriptionKey, CompensationSubscriptionValue value) {
    instance.set(value.processInstanceKey);
    subscription.set(subscriptionKey);
    subscriptions.put(key, value);
  }

  /** Applier: the subscription is gone. */
  public void remove(long processInstanceKey, long subscriptionKey) {
    instance.set(processInstanceKey);
    subscription.set(subscriptionKey);
    subscriptions.delete(key);
  }

  /** The subscriptions of a process instance, in key order, copied. */
  public List<Entry> ofInstance(long processInstanceKey) {
    List<Entry> found = new ArrayList<>();
    subscriptions.forEachWithPrefix(
        new DbLong(processInstanceKey),
        (k, v) -> {
          found.add(new Entry(k.second().get(), new CompensationSubscriptionValue().copyFrom(v)));
          return true;
        });
    return found;
  }
}

package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import java.util.ArrayList;
import java.util.List;

/**
 * The message partition's side of subscriptions: by message name, correlation key and element
 * instance, so a published message finds its subscriptions with one prefix scan; and those waiting
 * for the process instance partition to take a message (sent again until it answers).
 */
public final class MessageSubscriptionState {
  /** Waiting for a message. */
  public static final int OPEN = 1;

  /** A message was sent to the process instance's partition; waiting for its answer. */
  public static final int CORRELATING = 2;

  private final ColumnFamily<
          DbCompositeKey<DbString, DbCompositeKey<DbString, DbLong>>, Subscription>
      subscriptions;
  private final ColumnFamily<DbCompositeKey<DbString, DbCompositeKey<DbString, DbLong>>, DbNil>
      correlating;
  private final DbString name = new DbString();
  private final DbString correlationKey = new DbString();
  private final DbLong elementInstanceKey = new DbLong();
  private final DbCompositeKey<DbString, DbCompositeKey<DbString, DbLong>> key =
      new DbCompositeKey<>(name, new DbCompositeKey<>(correlationKey, elementInstanceKey));
  private final DbNil nil = new DbNil();

  public MessageSubscriptionState(PartitionState state) {
    subscriptions =
        state.columnFamily(
            StateIds.MESSAGE_SUBSCRIPTIONS,
            new DbCompositeKey<>(
                new DbString(), new DbCompositeKey<>(new DbString(), new DbLong())),
            new Subscription());
    correlating =
        state.columnFamily(
            StateIds.MESSAGE_SUBSCRIPTIONS_CORRELATING,
            new DbCompositeKey<>(
                new DbString(), new DbCompositeKey<>(new DbString(), new DbLong())),
            nil);
  }

  /** The subscription of {@code value}'s name, correlation key and element instance. */
  public boolean get(MessageSubscriptionValue value, Subscription into) {
    return subscriptions.get(keyOf(value), into);
  }

  /** Applier: stores the subscription in its state. */
  public void put(Subscription subscription) {
    keyOf(subscription.value);
    subscriptions.put(key, subscription);
    if (subscription.state == CORRELATING) {
      correlating.put(key, nil);
    } else {
      correlating.delete(key);
    }
  }

  /** Applier: the subscription is gone. */
  public void remove(MessageSubscriptionValue value) {
    keyOf(value);
    subscriptions.delete(key);
    correlating.delete(key);
  }

  /** The subscriptions waiting for a message of this name and correlation key. */
  public List<Subscription> withNameAndKey(String messageName, String messageCorrelationKey) {
    List<Subscription> found = new ArrayList<>();
    subscriptions.forEachWithPrefix(
        new DbCompositeKey<>(new DbString(messageName), new DbString(messageCorrelationKey)),
        (k, v) -> {
          Subscription copy = new Subscription();
          copy.state = v.state;
          copy.value.copyFrom(v.value);
          found.add(copy);
          return true;
        });
    return found;
  }

  /** The subscriptions waiting for the process instance partition to take a message. */
  public List<Subscription> correlating() {
    List<Subscription> found = new ArrayList<>();
    correlating.forEach(
        (k, v) -> {
          Subscription subscription = new Subscription();
          if (subscriptions.get(k, subscription)) {
            found.add(subscription);
          }
          return true;
        });
    return found;
  }

  private DbCompositeKey<DbString, DbCompositeKey<DbString, DbLong>> keyOf(
      MessageSubscriptionValue value) {
    name.set(value.messageName);
    correlationKey.set(value.correlationKey);
    elementInstanceKey.set(value.elementInstanceKey);
    return key;
  }
}

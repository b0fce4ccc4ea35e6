package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;
import java.util.ArrayList;
import java.util.List;

/**
 * The process instance partition's side of subscriptions, by element instance and message name;
 * those being opened, closed or migrated are also indexed, to ask the message partition again until
 * it acknowledges.
 */
public final class ProcessMessageSubscriptionState {
  /** The message partition was asked to create its side. */
  public static final int OPENING = 1;

  public static final int OPENED = 2;

  /** The message partition was asked to delete its side. */
  public static final int CLOSING = 3;

  /**
   * The element instance was migrated and the message partition was asked to update its side (the
   * process id, whether a message ends it). Open meanwhile: it takes messages as OPENED does.
   */
  public static final int MIGRATING = 4;

  private final ColumnFamily<DbCompositeKey<DbLong, DbString>, Subscription> subscriptions;
  private final ColumnFamily<DbCompositeKey<DbLong, DbString>, DbNil> pending;

  /**
   * Every message a subscription that stays open took, until the subscription is gone: an offer of
   * any of them, however late it arrives, is one it took already.
   */
  private final ColumnFamily<DbCompositeKey<DbLong, DbCompositeKey<DbString, DbLong>>, DbNil> taken;

  private final DbLong elementInstanceKey = new DbLong();
  private final DbString name = new DbString();
  private final DbCompositeKey<DbLong, DbString> key =
      new DbCompositeKey<>(elementInstanceKey, name);
  private final DbNil nil = new DbNil();
  private final DbLong messageKey = new DbLong();
  private final DbCompositeKey<DbLong, DbCompositeKey<DbString, DbLong>> takenKey =
      new DbCompositeKey<>(elementInstanceKey, new DbCompositeKey<>(name, messageKey));

  public ProcessMessageSubscriptionState(PartitionState state) {
    subscriptions =
        state.columnFamily(
            StateIds.PROCESS_MESSAGE_SUBSCRIPTIONS,
            new DbCompositeKey<>(new DbLong(), new DbString()),
            new Subscription());
    pending =
        state.columnFamily(
            StateIds.PROCESS_MESSAGE_SUBSCRIPTIONS_PENDING,
            new DbCompositeKey<>(new DbLong(), new DbString()),
            nil);
    taken =
        state.columnFamily(
            StateIds.PROCESS_MESSAGE_SUBSCRIPTIONS_TAKEN,
            new DbCompositeKey<>(new DbLong(), new DbCompositeKey<>(new DbString(), new DbLong())),
            nil);
  }

  /** Applier: the subscription, which stays open, took message {@code message}. */
  public void took(long elementInstance, String messageName, long message) {
    taken.put(takenKey(elementInstance, messageName, message), nil);
  }

  /** Whether the subscription took message {@code message} while it stayed open. */
  public boolean hasTaken(long elementInstance, String messageName, long message) {
    return taken.exists(takenKey(elementInstance, messageName, message));
  }

  private DbKey takenKey(long elementInstance, String messageName, long message) {
    elementInstanceKey.set(elementInstance);
    name.set(messageName);
    messageKey.set(message);
    return takenKey;
  }

  public boolean get(long elementInstance, String messageName, Subscription into) {
    elementInstanceKey.set(elementInstance);
    name.set(messageName);
    return subscriptions.get(key, into);
  }

  /** Applier: stores the subscription in its state. */
  public void put(Subscription subscription) {
    elementInstanceKey.set(subscription.value.elementInstanceKey);
    name.set(subscription.value.messageName);
    subscriptions.put(key, subscription);
    if (subscription.state == OPENED) {
      pending.delete(key);
    } else {
      pending.put(key, nil);
    }
  }

  /** Applier: the subscription is gone. */
  public void remove(long elementInstance, String messageName) {
    elementInstanceKey.set(elementInstance);
    name.set(messageName);
    subscriptions.delete(key);
    pending.delete(key);
    List<Long> messages = new ArrayList<>();
    taken.forEachWithPrefix(
        key,
        (k, v) -> {
          messages.add(k.second().second().get());
          return true;
        });
    for (long message : messages) {
      taken.delete(takenKey(elementInstance, messageName, message));
    }
  }

  /** The subscriptions of an element instance. */
  public List<Subscription> ofElement(long elementInstance) {
    List<Subscription> found = new ArrayList<>();
    subscriptions.forEachWithPrefix(
        new DbLong(elementInstance),
        (k, v) -> {
          Subscription copy = new Subscription();
          copy.state = v.state;
          copy.value.copyFrom(v.value);
          found.add(copy);
          return true;
        });
    return found;
  }

  /** The subscriptions being opened, closed or migrated. */
  public List<Subscription> pending() {
    List<Subscription> found = new ArrayList<>();
    pending.forEach(
        (k, v) -> {
          Subscription subscription = new Subscription();
          if (subscriptions.get(k, subscription)) {
            found.add(subscription);
          }
          return true;
        });
    return found;
  }
}

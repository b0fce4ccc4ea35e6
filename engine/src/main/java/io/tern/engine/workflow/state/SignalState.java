package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.SignalSubscriptionValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Signals on one partition: the element instances waiting for one (by signal name, and by element
 * instance to close them), the signal start events of the latest process versions, and the keys of
 * the copies of signals taken here (so a copy sent again triggers nothing twice). The copies a
 * broadcast here still owes other partitions are in {@link PendingCopies#signals}.
 */
public final class SignalState {
  private final ColumnFamily<
          DbCompositeKey<DbString, DbCompositeKey<DbLong, DbString>>, SignalSubscriptionValue>
      subscriptions;
  private final ColumnFamily<DbCompositeKey<DbLong, DbCompositeKey<DbString, DbString>>, DbNil>
      byElement;
  private final ColumnFamily<DbCompositeKey<DbString, DbString>, SignalSubscriptionValue> starts;
  private final ColumnFamily<DbLong, DbNil> received;

  private final DbString name = new DbString();
  private final DbLong element = new DbLong();
  private final DbString elementId = new DbString();
  private final DbCompositeKey<DbString, DbCompositeKey<DbLong, DbString>> subscriptionKey =
      new DbCompositeKey<>(name, new DbCompositeKey<>(element, elementId));
  private final DbCompositeKey<DbLong, DbCompositeKey<DbString, DbString>> elementKey =
      new DbCompositeKey<>(element, new DbCompositeKey<>(name, elementId));
  private final DbString processId = new DbString();
  private final DbCompositeKey<DbString, DbString> startKey = new DbCompositeKey<>(name, processId);
  private final DbLong signal = new DbLong();
  private final DbNil nil = new DbNil();

  public SignalState(PartitionState state) {
    subscriptions =
        state.columnFamily(
            StateIds.SIGNAL_SUBSCRIPTIONS,
            new DbCompositeKey<>(
                new DbString(), new DbCompositeKey<>(new DbLong(), new DbString())),
            new SignalSubscriptionValue());
    byElement =
        state.columnFamily(
            StateIds.SIGNAL_SUBSCRIPTIONS_BY_ELEMENT,
            new DbCompositeKey<>(
                new DbLong(), new DbCompositeKey<>(new DbString(), new DbString())),
            nil);
    starts =
        state.columnFamily(
            StateIds.SIGNAL_START_SUBSCRIPTIONS,
            new DbCompositeKey<>(new DbString(), new DbString()),
            new SignalSubscriptionValue());
    received = state.columnFamily(StateIds.RECEIVED_SIGNALS, new DbLong(), nil);
  }

  /**
   * Applier: an element instance waits for the signal (a start event's: {@link #subscribeStart}).
   */
  public void subscribe(SignalSubscriptionValue subscription) {
    set(subscription.signalName, subscription.elementInstanceKey, subscription.elementId);
    subscriptions.put(subscriptionKey, subscription);
    byElement.put(elementKey, nil);
  }

  /** Applier: the element instance no longer waits for it. */
  public void unsubscribe(SignalSubscriptionValue subscription) {
    set(subscription.signalName, subscription.elementInstanceKey, subscription.elementId);
    subscriptions.delete(subscriptionKey);
    byElement.delete(elementKey);
  }

  /** The element instances waiting for signals named {@code signalName}, copied. */
  public List<SignalSubscriptionValue> waitingFor(String signalName) {
    List<SignalSubscriptionValue> found = new ArrayList<>();
    subscriptions.forEachWithPrefix(
        new DbString(signalName),
        (k, v) -> {
          found.add(new SignalSubscriptionValue().copyFrom(v));
          return true;
        });
    return found;
  }

  /** The subscriptions of element instance {@code elementInstanceKey}, copied. */
  public List<SignalSubscriptionValue> ofElement(long elementInstanceKey) {
    List<SignalSubscriptionValue> found = new ArrayList<>();
    byElement.forEachWithPrefix(
        new DbLong(elementInstanceKey),
        (k, v) -> {
          set(k.second().first().get(), elementInstanceKey, k.second().second().get());
          SignalSubscriptionValue value = new SignalSubscriptionValue();
          if (subscriptions.get(subscriptionKey, value)) {
            found.add(value);
          }
          return true;
        });
    return found;
  }

  /** Applier: the latest version of a process starts on the signal at its start event. */
  public void subscribeStart(SignalSubscriptionValue start) {
    starts.put(startKey(start.signalName, start.bpmnProcessId), start);
  }

  /** Applier: a newer version of the process replaced the start subscription. */
  public void unsubscribeStart(String signalName, String bpmnProcessId) {
    starts.delete(startKey(signalName, bpmnProcessId));
  }

  /** The signal start events (of the latest process versions) of {@code signalName}, copied. */
  public List<SignalSubscriptionValue> startsOn(String signalName) {
    List<SignalSubscriptionValue> found = new ArrayList<>();
    starts.forEachWithPrefix(
        new DbString(signalName),
        (k, v) -> {
          found.add(new SignalSubscriptionValue().copyFrom(v));
          return true;
        });
    return found;
  }

  /** Applier: the copy of signal {@code signalKey} was taken here. */
  public void received(long signalKey) {
    received.put(signal.set(signalKey), nil);
  }

  public boolean wasReceived(long signalKey) {
    return received.exists(signal.set(signalKey));
  }

  private DbCompositeKey<DbString, DbString> startKey(String signalName, String bpmnProcessId) {
    name.set(signalName);
    processId.set(bpmnProcessId);
    return startKey;
  }

  private void set(String signalName, long elementInstanceKey, String eventId) {
    name.set(signalName);
    element.set(elementInstanceKey);
    elementId.set(eventId);
  }
}

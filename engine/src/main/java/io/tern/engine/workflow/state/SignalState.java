package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.SignalSubscriptionValue;
import io.tern.engine.workflow.value.SignalValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Signals on one partition: the element instances waiting for one (by signal name, and by element
 * instance to close them), the signal start events of the latest process versions, the signals
 * broadcast here whose copies other partitions have not acknowledged yet, and the keys of the
 * copies taken here (so a copy sent again triggers nothing twice).
 */
public final class SignalState {
  /** A signal broadcast here that a partition has not acknowledged yet. */
  public record Pending(long signalKey, int partitionId) {}

  private final ColumnFamily<
          DbCompositeKey<DbString, DbCompositeKey<DbLong, DbString>>, SignalSubscriptionValue>
      subscriptions;
  private final ColumnFamily<DbCompositeKey<DbLong, DbCompositeKey<DbString, DbString>>, DbNil>
      byElement;
  private final ColumnFamily<DbCompositeKey<DbString, DbString>, SignalSubscriptionValue> starts;
  private final ColumnFamily<DbLong, SignalValue> toDistribute;
  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbNil> pending;
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
  private final DbLong partition = new DbLong();
  private final DbCompositeKey<DbLong, DbLong> signalAndPartition =
      new DbCompositeKey<>(signal, partition);
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
    toDistribute =
        state.columnFamily(StateIds.SIGNALS_TO_DISTRIBUTE, new DbLong(), new SignalValue());
    pending =
        state.columnFamily(
            StateIds.PENDING_SIGNAL_DISTRIBUTIONS,
            new DbCompositeKey<>(new DbLong(), new DbLong()),
            nil);
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

  /** Applier: a signal broadcast here is to be taken by {@code partitionIds}. */
  public void distribute(long signalKey, SignalValue value, List<Integer> partitionIds) {
    if (partitionIds.isEmpty()) {
      return;
    }
    toDistribute.put(signal.set(signalKey), value);
    for (int partitionId : partitionIds) {
      signal.set(signalKey);
      partition.set(partitionId);
      pending.put(signalAndPartition, nil);
    }
  }

  public boolean isPending(long signalKey, int partitionId) {
    signal.set(signalKey);
    partition.set(partitionId);
    return pending.exists(signalAndPartition);
  }

  /** Applier: partition {@code partitionId} took the copy; the last one forgets the signal. */
  public void acknowledged(long signalKey, int partitionId) {
    signal.set(signalKey);
    partition.set(partitionId);
    pending.delete(signalAndPartition);
    boolean[] left = {false};
    pending.forEachWithPrefix(
        new DbLong(signalKey),
        (k, v) -> {
          left[0] = true;
          return false;
        });
    if (!left[0]) {
      toDistribute.delete(signal.set(signalKey));
    }
  }

  /** The copies still to be acknowledged, oldest signal first. */
  public List<Pending> pending() {
    List<Pending> found = new ArrayList<>();
    pending.forEach(
        (k, v) -> {
          found.add(new Pending(k.first().get(), (int) k.second().get()));
          return true;
        });
    return found;
  }

  /** The signal {@code signalKey} broadcast here, for its copies; false once all were taken. */
  public boolean toDistribute(long signalKey, SignalValue into) {
    return toDistribute.get(signal.set(signalKey), into);
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

package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Message start events: which process (the latest version of each id) starts on a message name, and
 * how each instance started by a message started. An instance started by a message with a
 * correlation key holds that key for its process id while it runs: a second message with the same
 * key waits (buffered) instead of starting a second instance.
 */
public final class MessageStartState {
  private final ColumnFamily<DbCompositeKey<DbString, DbString>, DbLong> subscriptions;
  private final ColumnFamily<DbCompositeKey<DbString, DbString>, DbLong> heldKeys;
  private final ColumnFamily<DbLong, MessageSubscriptionValue> started;
  private final DbString first = new DbString();
  private final DbString second = new DbString();
  private final DbCompositeKey<DbString, DbString> pair = new DbCompositeKey<>(first, second);
  private final DbLong key = new DbLong();
  private final DbLong number = new DbLong();
  private final MessageSubscriptionValue how = new MessageSubscriptionValue();

  public MessageStartState(PartitionState state) {
    subscriptions =
        state.columnFamily(
            StateIds.MESSAGE_START_SUBSCRIPTIONS,
            new DbCompositeKey<>(new DbString(), new DbString()),
            new DbLong());
    heldKeys =
        state.columnFamily(
            StateIds.MESSAGE_START_HELD_KEYS,
            new DbCompositeKey<>(new DbString(), new DbString()),
            new DbLong());
    started =
        state.columnFamily(
            StateIds.MESSAGE_STARTED_INSTANCES, new DbLong(), new MessageSubscriptionValue());
  }

  /** Applier: process {@code processDefinitionKey} starts on messages named {@code messageName}. */
  public void subscribe(String messageName, String bpmnProcessId, long processDefinitionKey) {
    subscriptions.put(pair(messageName, bpmnProcessId), number.set(processDefinitionKey));
  }

  /** Applier: a newer version of the process replaced this subscription. */
  public void unsubscribe(String messageName, String bpmnProcessId) {
    subscriptions.delete(pair(messageName, bpmnProcessId));
  }

  /** The processes (id to definition key) that start on messages named {@code messageName}. */
  public Map<String, Long> subscribedTo(String messageName) {
    Map<String, Long> found = new LinkedHashMap<>();
    subscriptions.forEachWithPrefix(
        new DbString(messageName),
        (k, v) -> {
          found.put(k.second().get(), v.get());
          return true;
        });
    return found;
  }

  /** Whether a running instance of the process was started by a message with this key. */
  public boolean isHeld(String bpmnProcessId, String correlationKey) {
    return heldKeys.exists(pair(bpmnProcessId, correlationKey));
  }

  /** Applier: instance {@code processInstanceKey} was started by a message, as {@code how} says. */
  public void started(long processInstanceKey, MessageSubscriptionValue how) {
    started.put(key.set(processInstanceKey), how);
    if (!how.correlationKey.isEmpty()) {
      heldKeys.put(pair(how.bpmnProcessId, how.correlationKey), number.set(processInstanceKey));
    }
  }

  /** How instance {@code processInstanceKey} was started by a message; false if it was not. */
  public boolean howStarted(long processInstanceKey, MessageSubscriptionValue into) {
    return started.get(key.set(processInstanceKey), into);
  }

  /** Applier: the instance ended; a correlation key it held is free again. */
  public void ended(long processInstanceKey) {
    if (started.get(key.set(processInstanceKey), how)) {
      started.delete(key);
      if (!how.correlationKey.isEmpty()) {
        heldKeys.delete(pair(how.bpmnProcessId, how.correlationKey));
      }
    }
  }

  private DbCompositeKey<DbString, DbString> pair(String a, String b) {
    first.set(a);
    second.set(b);
    return pair;
  }
}

package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.DbNil;
import io.tern.engine.state.DbString;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.MessageValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Buffered messages (on their correlation key's partition): by key, by name and correlation key in
 * publishing order, by deadline, by message id (for deduplication), and the processes each one was
 * correlated to (a message correlates once per process id).
 */
public final class MessageState {
  private final ColumnFamily<DbLong, MessageValue> messages;
  private final ColumnFamily<DbCompositeKey<DbString, DbCompositeKey<DbString, DbLong>>, DbNil>
      byNameAndKey;
  private final ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbNil> deadlines;
  private final ColumnFamily<DbCompositeKey<DbString, DbCompositeKey<DbString, DbString>>, DbLong>
      ids;
  private final ColumnFamily<DbCompositeKey<DbLong, DbString>, DbNil> correlated;

  private final DbLong key = new DbLong();
  private final DbString name = new DbString();
  private final DbString correlationKey = new DbString();
  private final DbString text = new DbString();
  private final DbLong time = new DbLong();
  private final DbCompositeKey<DbString, DbCompositeKey<DbString, DbLong>> nameKeyAndMessage =
      new DbCompositeKey<>(name, new DbCompositeKey<>(correlationKey, key));
  private final DbCompositeKey<DbString, DbCompositeKey<DbString, DbString>> nameKeyAndId =
      new DbCompositeKey<>(name, new DbCompositeKey<>(correlationKey, text));
  private final DbCompositeKey<DbLong, DbLong> timeAndKey = new DbCompositeKey<>(time, key);
  private final DbCompositeKey<DbLong, DbString> keyAndProcess = new DbCompositeKey<>(key, text);
  private final DbLong found = new DbLong();
  private final DbNil nil = new DbNil();

  public MessageState(PartitionState state) {
    messages = state.columnFamily(StateIds.MESSAGES, new DbLong(), new MessageValue());
    byNameAndKey =
        state.columnFamily(
            StateIds.MESSAGES_BY_NAME_AND_KEY,
            new DbCompositeKey<>(
                new DbString(), new DbCompositeKey<>(new DbString(), new DbLong())),
            nil);
    deadlines =
        state.columnFamily(
            StateIds.MESSAGE_DEADLINES, new DbCompositeKey<>(new DbLong(), new DbLong()), nil);
    ids =
        state.columnFamily(
            StateIds.MESSAGE_IDS,
            new DbCompositeKey<>(
                new DbString(), new DbCompositeKey<>(new DbString(), new DbString())),
            new DbLong());
    correlated =
        state.columnFamily(
            StateIds.MESSAGE_CORRELATED_PROCESSES,
            new DbCompositeKey<>(new DbLong(), new DbString()),
            nil);
  }

  public boolean get(long messageKey, MessageValue into) {
    return messages.get(key.set(messageKey), into);
  }

  /** Whether a live message has this name, correlation key and (non-empty) id. */
  public boolean existsWithId(String messageName, String messageCorrelationKey, String messageId) {
    name.set(messageName);
    correlationKey.set(messageCorrelationKey);
    text.set(messageId);
    return ids.get(nameKeyAndId, found);
  }

  /** Applier of PUBLISHED. */
  public void put(long messageKey, MessageValue message) {
    messages.put(key.set(messageKey), message);
    name.set(message.name);
    correlationKey.set(message.correlationKey);
    byNameAndKey.put(nameKeyAndMessage, nil);
    time.set(message.deadlineMs);
    deadlines.put(timeAndKey, nil);
    if (!message.messageId.isEmpty()) {
      text.set(message.messageId);
      ids.put(nameKeyAndId, found.set(messageKey));
    }
  }

  /** Applier of EXPIRED: the message and whom it was correlated to go. */
  public void remove(long messageKey, MessageValue message) {
    messages.delete(key.set(messageKey));
    name.set(message.name);
    correlationKey.set(message.correlationKey);
    byNameAndKey.delete(nameKeyAndMessage);
    time.set(message.deadlineMs);
    deadlines.delete(timeAndKey);
    if (!message.messageId.isEmpty()) {
      text.set(message.messageId);
      ids.delete(nameKeyAndId);
    }
    for (String process : correlatedProcesses(messageKey)) {
      key.set(messageKey);
      text.set(process);
      correlated.delete(keyAndProcess);
    }
  }

  /** The keys of the live messages with this name and correlation key, oldest first. */
  public List<Long> withNameAndKey(String messageName, String messageCorrelationKey) {
    List<Long> keys = new ArrayList<>();
    byNameAndKey.forEachWithPrefix(
        new DbCompositeKey<>(new DbString(messageName), new DbString(messageCorrelationKey)),
        (k, v) -> keys.add(k.second().second().get()));
    return keys;
  }

  public boolean isCorrelatedTo(long messageKey, String bpmnProcessId) {
    key.set(messageKey);
    text.set(bpmnProcessId);
    return correlated.exists(keyAndProcess);
  }

  /** Applier: the message went to an instance of {@code bpmnProcessId} (or no longer did). */
  public void setCorrelatedTo(long messageKey, String bpmnProcessId, boolean isCorrelated) {
    key.set(messageKey);
    text.set(bpmnProcessId);
    if (isCorrelated) {
      correlated.put(keyAndProcess, nil);
    } else {
      correlated.delete(keyAndProcess);
    }
  }

  private List<String> correlatedProcesses(long messageKey) {
    List<String> processes = new ArrayList<>();
    correlated.forEachWithPrefix(
        new DbLong(messageKey),
        (k, v) -> {
          processes.add(k.second().get());
          return true;
        });
    return processes;
  }

  /** Visits (deadline, message key), earliest first, while the visitor returns true. */
  public void forEachDeadline(JobState.DueVisitor visitor) {
    deadlines.forEach((k, v) -> visitor.visit(k.first().get(), k.second().get()));
  }
}

package io.tern.engine.workflow.state;

import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.value.MessageCorrelationValue;

/**
 * On the message's partition: the correlations (CorrelateMessage) whose offers to subscriptions
 * await their answers, by message key, with the request they answer and how many offers are
 * pending. Gone once one offer was taken or every one refused.
 */
public final class MessageCorrelationState {
  private final ColumnFamily<DbLong, MessageCorrelationValue> pending;
  private final DbLong key = new DbLong();

  public MessageCorrelationState(PartitionState state) {
    pending =
        state.columnFamily(
            StateIds.PENDING_MESSAGE_CORRELATIONS, new DbLong(), new MessageCorrelationValue());
  }

  /** The pending correlation of message {@code messageKey} into {@code into}; false if none. */
  public boolean get(long messageKey, MessageCorrelationValue into) {
    return pending.get(key.set(messageKey), into);
  }

  /** Applier of CORRELATING. */
  public void put(MessageCorrelationValue correlation) {
    pending.put(key.set(correlation.messageKey), correlation);
  }

  /** Applier of CORRELATED and NOT_CORRELATED. */
  public void remove(long messageKey) {
    pending.delete(key.set(messageKey));
  }
}

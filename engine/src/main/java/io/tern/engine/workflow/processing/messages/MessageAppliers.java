package io.tern.engine.workflow.processing.messages;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.MessageCorrelationIntent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.MessageStartEventSubscriptionIntent;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.processing.behavior.messages.ProcessMessageSubscriptions;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.MessageSubscriptionState;
import io.tern.engine.workflow.state.ProcessMessageSubscriptionState;
import io.tern.engine.workflow.state.Subscription;
import io.tern.engine.workflow.value.MessageCorrelationValue;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.MessageValue;

/** The appliers of message events, on both the message's and the process instance's partition. */
public final class MessageAppliers {
  private final WorkflowState state;
  private final MessageValue message = new MessageValue();
  private final MessageCorrelationValue correlation = new MessageCorrelationValue();
  private final MessageSubscriptionValue value = new MessageSubscriptionValue();
  private final Subscription subscription = new Subscription();

  private MessageAppliers(WorkflowState state) {
    this.state = state;
  }

  public static void register(RecordProcessors on, WorkflowState state) {
    MessageAppliers appliers = new MessageAppliers(state);
    on.onEvent(
            MessageIntent.PUBLISHED,
            event -> state.messages().put(event.key(), appliers.message.readFrom(event.value())))
        .onEvent(MessageIntent.EXPIRED, appliers::expired)
        .onEvent(
            MessageCorrelationIntent.CORRELATING,
            event -> state.correlations().put(appliers.correlation.readFrom(event.value())))
        .onEvent(
            MessageCorrelationIntent.CORRELATED, event -> state.correlations().remove(event.key()))
        .onEvent(
            MessageCorrelationIntent.NOT_CORRELATED,
            event -> state.correlations().remove(event.key()))
        .onEvent(
            MessageSubscriptionIntent.CREATED,
            event -> appliers.putMessageSide(event, MessageSubscriptionState.OPEN))
        .onEvent(MessageSubscriptionIntent.CORRELATING, appliers::correlating)
        .onEvent(MessageSubscriptionIntent.CORRELATED, appliers::correlatedOnMessageSide)
        .onEvent(MessageSubscriptionIntent.REJECTED, appliers::removeMessageSide)
        .onEvent(MessageSubscriptionIntent.DELETED, appliers::removeMessageSide)
        .onEvent(MessageSubscriptionIntent.MIGRATED, appliers::migratedOnMessageSide)
        .onEvent(MessageStartEventSubscriptionIntent.CORRELATED, appliers::startedInstance)
        .onEvent(
            ProcessMessageSubscriptionIntent.CREATING,
            event -> appliers.putProcessSide(event, ProcessMessageSubscriptionState.OPENING))
        .onEvent(
            ProcessMessageSubscriptionIntent.CREATED,
            event -> appliers.putProcessSide(event, ProcessMessageSubscriptionState.OPENED))
        .onEvent(ProcessMessageSubscriptionIntent.CORRELATED, appliers::correlatedOnProcessSide)
        .onEvent(ProcessMessageSubscriptionIntent.MIGRATED, appliers::migratedOnProcessSide)
        .onEvent(
            ProcessMessageSubscriptionIntent.MIGRATION_ACKNOWLEDGED,
            event -> appliers.putProcessSide(event, ProcessMessageSubscriptionState.OPENED))
        .onEvent(
            ProcessMessageSubscriptionIntent.DELETING,
            event -> appliers.putProcessSide(event, ProcessMessageSubscriptionState.CLOSING))
        .onEvent(
            ProcessMessageSubscriptionIntent.DELETED,
            event -> {
              appliers.value.readFrom(event.value());
              state
                  .processMessageSubscriptions()
                  .remove(appliers.value.elementInstanceKey, appliers.value.messageName);
            });
  }

  /** A message started an instance: it is taken for that process id, and holds its key. */
  private void startedInstance(LoggedRecord event) {
    value.readFrom(event.value());
    state.messages().setCorrelatedTo(value.messageKey, value.bpmnProcessId, true);
    state.messageStarts().started(value.processInstanceKey, value);
  }

  private void expired(LoggedRecord event) {
    if (state.messages().get(event.key(), message)) {
      state.messages().remove(event.key(), message);
    }
  }

  private void putMessageSide(LoggedRecord event, int subscriptionState) {
    subscription.value.readFrom(event.value());
    subscription.state = subscriptionState;
    state.messageSubscriptions().put(subscription);
  }

  private void correlating(LoggedRecord event) {
    putMessageSide(event, MessageSubscriptionState.CORRELATING);
    state
        .messages()
        .setCorrelatedTo(subscription.value.messageKey, subscription.value.bpmnProcessId, true);
  }

  /**
   * The message was taken: done, unless a non-interrupting event waits for the next one (the
   * event's value says, as the process instance partition answered).
   */
  private void correlatedOnMessageSide(LoggedRecord event) {
    value.readFrom(event.value());
    if (!state.messageSubscriptions().get(value, subscription)) {
      return;
    }
    if (value.interrupting) {
      state.messageSubscriptions().remove(value);
    } else {
      subscription.state = MessageSubscriptionState.OPEN;
      subscription.value.interrupting = false;
      subscription.value.messageKey = -1;
      subscription.value.variables = new byte[0];
      state.messageSubscriptions().put(subscription);
    }
  }

  /**
   * Its element instance was migrated: the copy takes the new values and stays where it stood.
   * Under another process id, the message it is being offered now counts for the new process only,
   * so that a REJECTED or DELETED frees it for the right one. A non-interrupting subscription may
   * have had earlier messages, and is offered the next one it has not had after each: the messages
   * of its name and correlation key that went to the old process count as gone to the new one too.
   */
  private void migratedOnMessageSide(LoggedRecord event) {
    value.readFrom(event.value());
    if (!state.messageSubscriptions().get(value, subscription)) {
      return;
    }
    String before = subscription.value.bpmnProcessId;
    if (!before.equals(value.bpmnProcessId)) {
      if (!subscription.value.interrupting) {
        for (long messageKey :
            state.messages().withNameAndKey(value.messageName, value.correlationKey)) {
          if (state.messages().isCorrelatedTo(messageKey, before)) {
            state.messages().setCorrelatedTo(messageKey, value.bpmnProcessId, true);
          }
        }
      }
      if (subscription.state == MessageSubscriptionState.CORRELATING) {
        state.messages().setCorrelatedTo(subscription.value.messageKey, value.bpmnProcessId, true);
        state.messages().setCorrelatedTo(subscription.value.messageKey, before, false);
      }
    }
    subscription.value.copyFrom(value);
    state.messageSubscriptions().put(subscription);
  }

  /** REJECTED and DELETED: a message it was being offered may go to another process instance. */
  private void removeMessageSide(LoggedRecord event) {
    value.readFrom(event.value());
    if (!state.messageSubscriptions().get(value, subscription)) {
      return;
    }
    if (subscription.state == MessageSubscriptionState.CORRELATING) {
      state
          .messages()
          .setCorrelatedTo(subscription.value.messageKey, subscription.value.bpmnProcessId, false);
    }
    state.messageSubscriptions().remove(value);
  }

  private void putProcessSide(LoggedRecord event, int subscriptionState) {
    subscription.value.readFrom(event.value());
    subscription.state = subscriptionState;
    state.processMessageSubscriptions().put(subscription);
  }

  /**
   * Its element instance was migrated: same element instance and name. An open subscription whose
   * message partition's copy must follow is MIGRATING until that partition acknowledges; otherwise
   * where it stands stays.
   */
  private void migratedOnProcessSide(LoggedRecord event) {
    value.readFrom(event.value());
    if (state
        .processMessageSubscriptions()
        .get(value.elementInstanceKey, value.messageName, subscription)) {
      if (subscription.state == ProcessMessageSubscriptionState.OPENED
          && ProcessMessageSubscriptions.changesMessageSide(
              subscription.value, value.bpmnProcessId, value.interrupting)) {
        subscription.state = ProcessMessageSubscriptionState.MIGRATING;
      }
      subscription.value.readFrom(event.value());
      state.processMessageSubscriptions().put(subscription);
    }
  }

  /**
   * Taken: an interrupting subscription is done; one that stays open remembers the message (the
   * last one, and each it took), so that the message partition's retry of it, however late, is
   * acknowledged rather than taken again.
   */
  private void correlatedOnProcessSide(LoggedRecord event) {
    value.readFrom(event.value());
    if (!state
        .processMessageSubscriptions()
        .get(value.elementInstanceKey, value.messageName, subscription)) {
      return;
    }
    if (subscription.value.interrupting) {
      state.processMessageSubscriptions().remove(value.elementInstanceKey, value.messageName);
    } else {
      subscription.value.messageKey = value.messageKey;
      state.processMessageSubscriptions().put(subscription);
      state
          .processMessageSubscriptions()
          .took(value.elementInstanceKey, value.messageName, value.messageKey);
    }
  }
}

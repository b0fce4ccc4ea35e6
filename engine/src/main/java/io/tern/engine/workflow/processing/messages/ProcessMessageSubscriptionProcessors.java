package io.tern.engine.workflow.processing.messages;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.messages.ProcessMessageSubscriptions;
import io.tern.engine.workflow.processing.behavior.triggers.CaughtEvents;
import io.tern.engine.workflow.processing.common.PartitionSender;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ProcessMessageSubscriptionState;
import io.tern.engine.workflow.state.Subscription;
import io.tern.engine.workflow.value.MessageSubscriptionValue;

/**
 * The commands the message partition sends to the process instance partition about a subscription
 * that {@link ProcessMessageSubscriptions} opened, closed or migrated: its side was created,
 * deleted or migrated, or a message is offered to it. A message taken triggers the element the
 * subscription was opened for: a catch event or receive task completes, a boundary event or an
 * event subprocess's start event is triggered on its activity or scope.
 */
public final class ProcessMessageSubscriptionProcessors {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final PartitionSender sender;
  private final CaughtEvents caughtEvents;
  private final Subscription subscription = new Subscription();
  private final MessageSubscriptionValue request = new MessageSubscriptionValue();
  private final ElementInstance instance = new ElementInstance();

  public ProcessMessageSubscriptionProcessors(
      ProcessingContext context, WorkflowState state, Behaviors behaviors) {
    this.context = context;
    this.state = state;
    this.sender = behaviors.sender();
    this.caughtEvents = behaviors.caughtEvents();
  }

  /** CREATE: the message partition created its side. */
  public void created(LoggedRecord command, ProcessingResult result) {
    request.readFrom(command.value());
    if (state
            .processMessageSubscriptions()
            .get(request.elementInstanceKey, request.messageName, subscription)
        && subscription.state == ProcessMessageSubscriptionState.OPENING) {
      result.appendEvent(
          context.nextKey(), ProcessMessageSubscriptionIntent.CREATED, subscription.value);
    }
  }

  /** DELETE: the message partition deleted its side. */
  public void deleted(LoggedRecord command, ProcessingResult result) {
    request.readFrom(command.value());
    if (state
            .processMessageSubscriptions()
            .get(request.elementInstanceKey, request.messageName, subscription)
        && subscription.state == ProcessMessageSubscriptionState.CLOSING) {
      result.appendEvent(
          context.nextKey(), ProcessMessageSubscriptionIntent.DELETED, subscription.value);
    }
  }

  /**
   * MIGRATE: the message partition updated its side (or had none left). Acknowledges the migration
   * only if the values it answers for are the subscription's: an answer to an earlier migration's
   * request, sent again, must not end a later one's.
   */
  public void migrated(LoggedRecord command, ProcessingResult result) {
    request.readFrom(command.value());
    if (state
            .processMessageSubscriptions()
            .get(request.elementInstanceKey, request.messageName, subscription)
        && subscription.state == ProcessMessageSubscriptionState.MIGRATING
        && ProcessMessageSubscriptions.sameTarget(subscription.value, request)) {
      result.appendEvent(
          context.nextKey(),
          ProcessMessageSubscriptionIntent.MIGRATION_ACKNOWLEDGED,
          subscription.value);
    }
  }

  /**
   * CORRELATE: a message for a subscription. Taken (and acknowledged) if its element still waits;
   * else rejected, so the message partition can offer the message to another subscription.
   *
   * <p>The message partition asks again until it hears that the message was taken, and its retries
   * do not wait for an answer on its way, nor survive a leader change of its answer. So a message
   * this subscription took already is acknowledged again, never taken twice nor rejected (a
   * rejection would let the message go to another instance of the process): the subscription keeps
   * the keys of the messages it took until the message partition has deleted its side, also while
   * it closes (a retry sent late may arrive after the offer of a later message).
   */
  public void correlate(LoggedRecord command, ProcessingResult result) {
    MessageSubscriptionValue message = new MessageSubscriptionValue();
    message.readFrom(command.value());
    long key = message.elementInstanceKey;
    if (tookAlready(message)) {
      message.interrupting = subscription.value.interrupting;
      result.reject(
          RejectionType.INVALID_STATE,
          "element instance " + key + " took message " + message.messageKey + " already");
      sendTaken(result, message);
      return;
    }
    String refusal = refusal(message);
    if (refusal != null) {
      result.reject(RejectionType.INVALID_STATE, refusal);
      sender.sendAfterCommit(
          result,
          sender.ofCorrelationKey(message.correlationKey),
          MessageSubscriptionIntent.REJECT,
          -1,
          message);
      return;
    }
    // Whether the subscription stays open is this side's to say: after a migration the message
    // partition's copy may not know yet.
    message.interrupting = subscription.value.interrupting;
    result.appendEvent(context.nextKey(), ProcessMessageSubscriptionIntent.CORRELATED, message);
    sendTaken(result, message);
    if (message.interrupting) {
      // Done with its message, it still remembers it, closing, until the message partition has
      // deleted its side: a DELETE that names the message taken is an answer no leader change of
      // the message partition loses, as it is sent again until acknowledged.
      MessageSubscriptionValue closing =
          new MessageSubscriptionValue().copyFrom(subscription.value);
      closing.messageKey = message.messageKey;
      closing.variables = new byte[0];
      result.appendEvent(context.nextKey(), ProcessMessageSubscriptionIntent.DELETING, closing);
      sender.sendAfterCommit(
          result,
          sender.ofCorrelationKey(closing.correlationKey),
          MessageSubscriptionIntent.DELETE,
          -1,
          closing);
    }
    ExecutableElement target =
        state.process(instance.value.processDefinitionKey).element(subscription.value.elementId);
    caughtEvents.trigger(result, key, instance, target, message.variables);
  }

  /** Whether the subscription (loaded if so) took {@code message} already. */
  private boolean tookAlready(MessageSubscriptionValue message) {
    return message.messageKey >= 0
        && state
            .processMessageSubscriptions()
            .get(message.elementInstanceKey, message.messageName, subscription)
        && (subscription.value.messageKey == message.messageKey
            || state
                .processMessageSubscriptions()
                .hasTaken(message.elementInstanceKey, message.messageName, message.messageKey));
  }

  /** Tells the message partition that {@code message} was taken, once this result commits. */
  private void sendTaken(ProcessingResult result, MessageSubscriptionValue message) {
    sender.sendAfterCommit(
        result,
        sender.ofCorrelationKey(message.correlationKey),
        MessageSubscriptionIntent.CORRELATE,
        -1,
        message);
  }

  /** Why the message cannot be taken now, or null (with the subscription and instance loaded). */
  private String refusal(MessageSubscriptionValue message) {
    long key = message.elementInstanceKey;
    if (!state.processMessageSubscriptions().get(key, message.messageName, subscription)
        || subscription.state == ProcessMessageSubscriptionState.CLOSING) {
      return "element instance "
          + key
          + " no longer waits for message '"
          + message.messageName
          + "'";
    }
    if (!state.instances().get(key, instance)
        || instance.state != ProcessInstanceIntent.ELEMENT_ACTIVATED) {
      return "element instance " + key + " is not active";
    }
    if (state.pendingBoundaries().has(key)) {
      return "element instance " + key + " is being interrupted by another event";
    }
    return null;
  }
}

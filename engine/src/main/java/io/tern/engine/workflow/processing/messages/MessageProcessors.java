package io.tern.engine.workflow.processing.messages;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.messages.MessageStartBehavior;
import io.tern.engine.workflow.processing.behavior.messages.ProcessMessageSubscriptions;
import io.tern.engine.workflow.processing.common.DueDateChecker;
import io.tern.engine.workflow.processing.common.PartitionSender;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.MessageSubscriptionState;
import io.tern.engine.workflow.state.Subscription;
import io.tern.engine.workflow.value.MessageCorrelationValue;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.MessageValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;

/**
 * The message partition: publishes and buffers messages until their time to live ends, keeps the
 * subscriptions opened on it, and offers each message to the subscriptions for its name and
 * correlation key, at most once per process id, until a process instance partition takes it. A
 * message correlated (CorrelateMessage) rather than published lives for the offers it gets at once;
 * {@link Correlations} answers it.
 */
public final class MessageProcessors {
  /** Longest accepted message name and correlation key, in characters. */
  static final int MAX_NAME_CHARS = 1024;

  private final ProcessingContext context;
  private final WorkflowState state;
  private final PartitionSender sender;
  private final MessageStartBehavior starts;
  private final MessageValue message = new MessageValue();
  private final Subscription subscription = new Subscription();
  private final DueDateChecker expiry;
  private final Correlations correlations;

  /**
   * @param correlationWaitMs how long the leader remembers a client waiting for a correlation's
   *     answer (the result await limit: its request timed out by then)
   */
  public MessageProcessors(
      ProcessingContext context, WorkflowState state, Behaviors behaviors, long correlationWaitMs) {
    this.context = context;
    this.correlations = new Correlations(context, state.correlations(), correlationWaitMs);
    this.state = state;
    this.sender = behaviors.sender();
    this.starts = behaviors.messageStarts();
    this.expiry =
        new DueDateChecker(
            context, state.messages()::forEachDeadline, MessageIntent.EXPIRE, new MessageValue());
  }

  /** This member starts processing: message deadlines are looked at afresh. */
  public void onProcessingStarted() {
    expiry.onProcessingStarted();
    correlations.clear();
  }

  public void publish(LoggedRecord command, ProcessingResult result) {
    MessageValue published = new MessageValue();
    published.readFrom(command.value());
    String problem = problemOf(published);
    if (problem != null) {
      result.reject(RejectionType.INVALID_ARGUMENT, problem);
      return;
    }
    if (!published.messageId.isEmpty()
        && state
            .messages()
            .existsWithId(published.name, published.correlationKey, published.messageId)) {
      result.reject(
          RejectionType.ALREADY_EXISTS,
          "a message named '"
              + published.name
              + "' with correlation key '"
              + published.correlationKey
              + "' and id '"
              + published.messageId
              + "' was published already and has not expired");
      return;
    }
    long key = context.nextKey();
    published.deadlineMs = context.nowMs() + published.timeToLiveMs;
    result.appendEvent(key, MessageIntent.PUBLISHED, published);
    result.respondWithLastEvent();
    offer(result, key, published);
    starts.offer(result, key, published);
    if (published.timeToLiveMs == 0) {
      // The expiry needs the key only; the variables are in this batch already.
      published.variables = new byte[0];
      result.appendEvent(key, MessageIntent.EXPIRED, published);
    } else {
      long deadlineMs = published.deadlineMs;
      result.localSideEffect(() -> expiry.scheduleAt(deadlineMs));
    }
  }

  /**
   * CORRELATE (CorrelateMessage): the message is published without time to live, offered to what
   * waits for it now, and gone. Answered with the instance it started, NOT_FOUND if nothing takes
   * it, or, when it was offered to subscriptions, once their partitions answer.
   */
  public void correlate(LoggedRecord command, ProcessingResult result) {
    MessageCorrelationValue request = new MessageCorrelationValue();
    request.readFrom(command.value());
    MessageValue published = new MessageValue();
    published.name = request.name;
    published.correlationKey = request.correlationKey;
    published.variables = request.variables;
    String problem = problemOf(published);
    if (problem != null) {
      result.reject(RejectionType.INVALID_ARGUMENT, problem);
      return;
    }
    long key = context.nextKey();
    published.deadlineMs = context.nowMs();
    result.appendEvent(key, MessageIntent.PUBLISHED, published);
    long started = starts.offer(result, key, published);
    int offers = offer(result, key, published);
    correlations.published(result, command, request, key, started, offers);
    published.variables = new byte[0];
    result.appendEvent(key, MessageIntent.EXPIRED, published);
  }

  private String problemOf(MessageValue published) {
    if (published.name.isBlank()) {
      return "a message needs a name";
    }
    if (published.name.length() > MAX_NAME_CHARS
        || published.correlationKey.length() > MAX_NAME_CHARS) {
      return "a message's name and correlation key may have at most "
          + MAX_NAME_CHARS
          + " characters";
    }
    if (published.timeToLiveMs < 0) {
      return "a message's time to live must be >= 0 ms, got " + published.timeToLiveMs;
    }
    int partition = sender.ofCorrelationKey(published.correlationKey);
    if (partition != context.partitionId()) {
      return "the message with correlation key '"
          + published.correlationKey
          + "' belongs to partition "
          + partition
          + ", not "
          + context.partitionId();
    }
    try {
      JsonDocuments.variables(published.variables);
    } catch (InvalidVariablesException e) {
      return e.getMessage();
    }
    return null;
  }

  /** Written by the deadline checker. */
  public void expire(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (state.messages().get(key, message) && message.deadlineMs <= context.nowMs()) {
      message.variables = new byte[0]; // the expiry needs the key only
      result.appendEvent(key, MessageIntent.EXPIRED, message);
    }
  }

  /**
   * Offers a message to every open subscription for it whose process has not had it yet; returns
   * how many.
   */
  private int offer(ProcessingResult result, long messageKey, MessageValue offered) {
    int offers = 0;
    for (Subscription open :
        state.messageSubscriptions().withNameAndKey(offered.name, offered.correlationKey)) {
      if (open.state == MessageSubscriptionState.OPEN
          && !state.messages().isCorrelatedTo(messageKey, open.value.bpmnProcessId)) {
        correlating(result, open.value, messageKey, offered);
        offers++;
      }
    }
    return offers;
  }

  /** Offers {@code subscription} the oldest live message it has not had, if any. */
  private void findMessageFor(ProcessingResult result, MessageSubscriptionValue subscription) {
    long nowMs = context.nowMs();
    for (long messageKey :
        state.messages().withNameAndKey(subscription.messageName, subscription.correlationKey)) {
      if (!state.messages().isCorrelatedTo(messageKey, subscription.bpmnProcessId)
          && state.messages().get(messageKey, message)
          && message.deadlineMs > nowMs) {
        correlating(result, subscription, messageKey, message);
        return;
      }
    }
  }

  private void correlating(
      ProcessingResult result,
      MessageSubscriptionValue subscription,
      long messageKey,
      MessageValue offered) {
    MessageSubscriptionValue correlating = new MessageSubscriptionValue().copyFrom(subscription);
    correlating.messageKey = messageKey;
    correlating.variables = offered.variables;
    result.appendEvent(context.nextKey(), MessageSubscriptionIntent.CORRELATING, correlating);
    sendToProcess(result, ProcessMessageSubscriptionIntent.CORRELATE, correlating);
  }

  private void sendToProcess(
      ProcessingResult result,
      ProcessMessageSubscriptionIntent intent,
      MessageSubscriptionValue subscription) {
    sender.sendAfterCommit(
        result, PartitionSender.ofKey(subscription.processInstanceKey), intent, -1, subscription);
  }

  /** CREATE, from the process instance's partition (again, if it missed the acknowledgement). */
  public void create(LoggedRecord command, ProcessingResult result) {
    MessageSubscriptionValue created = new MessageSubscriptionValue();
    created.readFrom(command.value());
    if (!state.messageSubscriptions().get(created, subscription)) {
      created.messageKey = -1;
      created.variables = new byte[0];
      result.appendEvent(context.nextKey(), MessageSubscriptionIntent.CREATED, created);
      findMessageFor(result, created);
    } else {
      result.reject(RejectionType.ALREADY_EXISTS, acknowledgedAgain(created, "exists"));
    }
    sendToProcess(result, ProcessMessageSubscriptionIntent.CREATE, created);
  }

  /**
   * CORRELATE: the process instance's partition took the message. It says whether its subscription
   * stays open: a migration may have changed that, and its MIGRATE may not be here yet.
   */
  public void correlated(LoggedRecord command, ProcessingResult result) {
    MessageSubscriptionValue taken = new MessageSubscriptionValue();
    taken.readFrom(command.value());
    if (!isCorrelating(taken)) {
      return;
    }
    subscription.value.interrupting = taken.interrupting;
    long processInstanceKey = subscription.value.processInstanceKey;
    result.appendEvent(context.nextKey(), MessageSubscriptionIntent.CORRELATED, subscription.value);
    correlations.taken(result, taken.messageKey, processInstanceKey);
    if (!subscription.value.interrupting) {
      findMessageFor(result, subscription.value); // open again: the next message may follow
    }
  }

  /** REJECT: the process instance's partition did not take it; offer it to the others. */
  public void rejected(LoggedRecord command, ProcessingResult result) {
    MessageSubscriptionValue refused = new MessageSubscriptionValue();
    refused.readFrom(command.value());
    if (!isCorrelating(refused)) {
      return;
    }
    result.appendEvent(context.nextKey(), MessageSubscriptionIntent.REJECTED, subscription.value);
    if (state.messages().get(refused.messageKey, message)) {
      offer(result, refused.messageKey, message);
    }
    correlations.refused(result, refused.messageKey);
  }

  /**
   * DELETE: the subscription's element was left, or its interrupting event took a message. It names
   * the last message the subscription took: if that is the one being offered, the answer "taken"
   * was lost on its way (in a leader change of this partition, say) and this says it again, so the
   * message stays taken for the process. Otherwise a message it was offered goes to others.
   */
  public void delete(LoggedRecord command, ProcessingResult result) {
    MessageSubscriptionValue deleted = new MessageSubscriptionValue();
    deleted.readFrom(command.value());
    if (state.messageSubscriptions().get(deleted, subscription)) {
      boolean wasCorrelating = subscription.state == MessageSubscriptionState.CORRELATING;
      long messageKey = subscription.value.messageKey;
      boolean taken = wasCorrelating && messageKey >= 0 && deleted.messageKey == messageKey;
      long processInstanceKey = subscription.value.processInstanceKey;
      if (taken) {
        result.appendEvent(
            context.nextKey(), MessageSubscriptionIntent.CORRELATED, subscription.value);
        correlations.taken(result, messageKey, processInstanceKey);
      }
      result.appendEvent(context.nextKey(), MessageSubscriptionIntent.DELETED, subscription.value);
      if (wasCorrelating && !taken) {
        if (state.messages().get(messageKey, message)) {
          offer(result, messageKey, message);
        }
        correlations.refused(result, messageKey);
      }
    } else {
      result.reject(RejectionType.NOT_FOUND, acknowledgedAgain(deleted, "is deleted"));
    }
    sendToProcess(result, ProcessMessageSubscriptionIntent.DELETE, deleted);
  }

  /**
   * MIGRATE: the subscription's element instance was migrated. The copy takes the new process id,
   * catch event and whether a message ends it, and stays OPEN or CORRELATING; no message is offered
   * to it now (under a new process id, the instance may have had the buffered ones already). Always
   * answered, also when the copy is gone (deleted, or ended by a message), so the process instance
   * partition stops asking.
   */
  public void migrate(LoggedRecord command, ProcessingResult result) {
    MessageSubscriptionValue migrated = new MessageSubscriptionValue();
    migrated.readFrom(command.value());
    if (state.messageSubscriptions().get(migrated, subscription)
        && !ProcessMessageSubscriptions.sameTarget(subscription.value, migrated)) {
      MessageSubscriptionValue moved = new MessageSubscriptionValue().copyFrom(subscription.value);
      moved.processDefinitionKey = migrated.processDefinitionKey;
      moved.bpmnProcessId = migrated.bpmnProcessId;
      moved.elementId = migrated.elementId;
      moved.interrupting = migrated.interrupting;
      result.appendEvent(context.nextKey(), MessageSubscriptionIntent.MIGRATED, moved);
    } else {
      result.reject(RejectionType.INVALID_STATE, acknowledgedAgain(migrated, "is gone or moved"));
    }
    sendToProcess(result, ProcessMessageSubscriptionIntent.MIGRATE, migrated);
  }

  /**
   * The rejection of a request this partition acknowledges again, as its first acknowledgement was
   * lost. It is written for the acknowledgement's sake: what a command writes nothing for has no
   * commit to send it after.
   */
  private static String acknowledgedAgain(MessageSubscriptionValue request, String already) {
    return "the subscription of element instance "
        + request.elementInstanceKey
        + " to message '"
        + request.messageName
        + "' "
        + already
        + " already: acknowledged again";
  }

  private boolean isCorrelating(MessageSubscriptionValue answer) {
    return state.messageSubscriptions().get(answer, subscription)
        && subscription.state == MessageSubscriptionState.CORRELATING
        && subscription.value.messageKey == answer.messageKey;
  }

  /** Offers again every message whose process instance partition has not answered yet. */
  public void retryPending() {
    for (Subscription correlating : state.messageSubscriptions().correlating()) {
      sender.send(
          PartitionSender.ofKey(correlating.value.processInstanceKey),
          ProcessMessageSubscriptionIntent.CORRELATE,
          -1,
          correlating.value);
    }
  }
}

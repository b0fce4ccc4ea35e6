package io.tern.engine.workflow.processing.messages;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.MessageCorrelationIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.state.MessageCorrelationState;
import io.tern.engine.workflow.value.MessageCorrelationValue;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The outcome of a message correlation (CorrelateMessage), on the message's partition. A message
 * that started an instance, or that nothing waits for, is answered at once. One offered to
 * subscriptions, which live on the partitions of their instances, is CORRELATING until the first
 * offer is taken (CORRELATED, naming that instance) or every one is refused (NOT_CORRELATED, and
 * the command's NOT_FOUND rejection): the offers' answers come back as MESSAGE_SUBSCRIPTION
 * commands, which tell this class.
 *
 * <p>Which correlations are pending, and how many offers each awaits, is state (events, replayed).
 * The client waiting is not: as with a create that awaits its result, an answer can only go back
 * through the connection the request came in on, which a new leader does not have, so the leader
 * keeps its waiting clients in memory, forgotten after {@code maxWaitMs}; after a leader change the
 * outcome is still logged, and the client's request times out.
 */
final class Correlations {
  private record Awaiter(int requestStreamId, long requestId) {}

  private final ProcessingContext context;
  private final MessageCorrelationState pending;
  private final long maxWaitMs;
  private final Long2ObjectHashMap<Awaiter> awaiters = new Long2ObjectHashMap<>();
  private final MessageCorrelationValue correlation = new MessageCorrelationValue();

  Correlations(ProcessingContext context, MessageCorrelationState pending, long maxWaitMs) {
    this.context = context;
    this.pending = pending;
    this.maxWaitMs = maxWaitMs;
  }

  /** This member starts processing: whoever waited, waited on another leader. */
  void clear() {
    awaiters.clear();
  }

  /**
   * CORRELATE published message {@code messageKey}, which started instance {@code
   * startedInstanceKey} (-1: none) and was offered to {@code offers} subscriptions.
   */
  void published(
      ProcessingResult result,
      LoggedRecord command,
      MessageCorrelationValue request,
      long messageKey,
      long startedInstanceKey,
      int offers) {
    request.messageKey = messageKey;
    request.requestStreamId = command.requestStreamId();
    request.requestId = command.requestId();
    request.pendingOffers = 0;
    if (startedInstanceKey >= 0) {
      request.processInstanceKey = startedInstanceKey;
      result.appendEvent(messageKey, MessageCorrelationIntent.CORRELATED, request);
      result.respondWithLastEvent();
    } else if (offers > 0) {
      request.processInstanceKey = -1;
      request.pendingOffers = offers;
      result.appendEvent(messageKey, MessageCorrelationIntent.CORRELATING, request);
      if (command.hasRequest()) {
        await(messageKey, new Awaiter(command.requestStreamId(), command.requestId()));
      }
    } else {
      result.reject(RejectionType.NOT_FOUND, nothingTakes(request));
    }
  }

  private void await(long messageKey, Awaiter awaiter) {
    awaiters.put(messageKey, awaiter);
    context.scheduler().runDelayed(maxWaitMs, commands -> awaiters.remove(messageKey, awaiter));
  }

  /** Instance {@code processInstanceKey} took message {@code messageKey}'s offer. */
  void taken(ProcessingResult result, long messageKey, long processInstanceKey) {
    if (!pending.get(messageKey, correlation)) {
      return; // published, or its correlation answered already
    }
    correlation.processInstanceKey = processInstanceKey;
    correlation.pendingOffers = 0;
    result.appendEvent(messageKey, MessageCorrelationIntent.CORRELATED, correlation);
    Awaiter awaiter = awaiters.get(messageKey);
    if (awaiter != null) {
      result.respondTo(awaiter.requestStreamId(), awaiter.requestId());
      result.sideEffect(() -> awaiters.remove(messageKey));
    }
  }

  /**
   * An offer of message {@code messageKey} was refused, or its subscription was deleted before it
   * answered: the last one ends the correlation, not found.
   */
  void refused(ProcessingResult result, long messageKey) {
    if (!pending.get(messageKey, correlation)) {
      return;
    }
    if (correlation.pendingOffers > 1) {
      correlation.pendingOffers--;
      result.appendEvent(messageKey, MessageCorrelationIntent.CORRELATING, correlation);
      return;
    }
    correlation.pendingOffers = 0;
    result.appendEvent(messageKey, MessageCorrelationIntent.NOT_CORRELATED, correlation);
    Awaiter awaiter = awaiters.get(messageKey);
    result.rejectRequest(
        MessageCorrelationIntent.CORRELATE,
        -1,
        RejectionType.NOT_FOUND,
        nothingTakes(correlation),
        correlation,
        awaiter == null ? -1 : awaiter.requestStreamId(),
        awaiter == null ? -1 : awaiter.requestId());
    if (awaiter != null) {
      result.sideEffect(() -> awaiters.remove(messageKey));
    }
  }

  private static String nothingTakes(MessageCorrelationValue message) {
    return "no process instance waits for a message named '"
        + message.name
        + "' with correlation key '"
        + message.correlationKey
        + "', and no process starts on it";
  }
}

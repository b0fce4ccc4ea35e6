package io.tern.engine.workflow.processing;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.MessageSubscriptionIntent;
import io.tern.engine.workflow.ValueTypes.ProcessInstanceIntent;
import io.tern.engine.workflow.ValueTypes.ProcessMessageSubscriptionIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ProcessMessageSubscriptionState;
import io.tern.engine.workflow.state.Subscription;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.Map;

/**
 * The process instance partition's side of message subscriptions: opened when a message catch
 * event, receive task or activity with message boundary events is entered, closed when it is left,
 * and a message from the message partition triggers the element it was opened for. Each step asks
 * the message partition (the correlation key's) to follow, and is acknowledged by it.
 */
final class ProcessMessageSubscriptions {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final VariableBehavior variables;
  private final PartitionSender sender;
  private final Subscription subscription = new Subscription();
  private final MessageSubscriptionValue request = new MessageSubscriptionValue();
  private final ElementInstance instance = new ElementInstance();
  private final ProcessInstanceValue completion = new ProcessInstanceValue();
  private BoundaryBehavior boundaries;
  private EventSubprocessBehavior eventSubprocesses;

  ProcessMessageSubscriptions(
      ProcessingContext context,
      WorkflowState state,
      VariableBehavior variables,
      PartitionSender sender) {
    this.context = context;
    this.state = state;
    this.variables = variables;
    this.sender = sender;
  }

  void setEventSubprocesses(EventSubprocessBehavior eventSubprocesses) {
    this.eventSubprocesses = eventSubprocesses;
  }

  void setBoundaries(BoundaryBehavior boundaries) {
    this.boundaries = boundaries;
  }

  /** Opens a subscription of element instance {@code key} for {@code target}'s message. */
  void open(
      ProcessingResult result,
      long key,
      ProcessInstanceValue element,
      ExecutableElement target,
      String messageName,
      String correlationKey) {
    MessageSubscriptionValue opened = new MessageSubscriptionValue();
    opened.processInstanceKey = element.processInstanceKey;
    opened.elementInstanceKey = key;
    opened.processDefinitionKey = element.processDefinitionKey;
    // Boundary events and event subprocess starts may stay open for the next message; a catch
    // event or receive task is done with its first.
    boolean staysOpenCapable =
        target.type() == BpmnElementType.BOUNDARY_EVENT
            || target.type() == BpmnElementType.START_EVENT;
    opened.interrupting = !staysOpenCapable || target.interrupting();
    opened.bpmnProcessId = element.bpmnProcessId;
    opened.messageName = messageName;
    opened.correlationKey = correlationKey;
    opened.elementId = target.id();
    result.appendEvent(
        context.nextKey(),
        ValueTypes.PROCESS_MESSAGE_SUBSCRIPTION,
        ProcessMessageSubscriptionIntent.CREATING,
        opened);
    sender.sendAfterCommit(
        result,
        sender.ofCorrelationKey(correlationKey),
        ValueTypes.MESSAGE_SUBSCRIPTION,
        MessageSubscriptionIntent.CREATE,
        -1,
        opened);
  }

  /** Closes the subscriptions of element instance {@code key}, which is left. */
  void closeAll(ProcessingResult result, long key) {
    closeAll(result, key, target -> true);
  }

  /** Closes the subscriptions of instance {@code key} for the targets {@code targets} accepts. */
  void closeAll(ProcessingResult result, long key, java.util.function.Predicate<String> targets) {
    for (Subscription open : state.processMessageSubscriptions().ofElement(key)) {
      if (open.state != ProcessMessageSubscriptionState.CLOSING
          && targets.test(open.value.elementId)) {
        result.appendEvent(
            context.nextKey(),
            ValueTypes.PROCESS_MESSAGE_SUBSCRIPTION,
            ProcessMessageSubscriptionIntent.DELETING,
            open.value);
        sender.sendAfterCommit(
            result,
            sender.ofCorrelationKey(open.value.correlationKey),
            ValueTypes.MESSAGE_SUBSCRIPTION,
            MessageSubscriptionIntent.DELETE,
            -1,
            open.value);
      }
    }
  }

  /** CREATE: the message partition created its side. */
  void created(LoggedRecord command, ProcessingResult result) {
    request.readFrom(command.value());
    if (state
            .processMessageSubscriptions()
            .get(request.elementInstanceKey, request.messageName, subscription)
        && subscription.state == ProcessMessageSubscriptionState.OPENING) {
      result.appendEvent(
          context.nextKey(),
          ValueTypes.PROCESS_MESSAGE_SUBSCRIPTION,
          ProcessMessageSubscriptionIntent.CREATED,
          subscription.value);
    }
  }

  /** DELETE: the message partition deleted its side. */
  void deleted(LoggedRecord command, ProcessingResult result) {
    request.readFrom(command.value());
    if (state
            .processMessageSubscriptions()
            .get(request.elementInstanceKey, request.messageName, subscription)
        && subscription.state == ProcessMessageSubscriptionState.CLOSING) {
      result.appendEvent(
          context.nextKey(),
          ValueTypes.PROCESS_MESSAGE_SUBSCRIPTION,
          ProcessMessageSubscriptionIntent.DELETED,
          subscription.value);
    }
  }

  /**
   * CORRELATE: a message for a subscription. Taken (and acknowledged) if its element still waits;
   * else rejected, so the message partition can offer the message to another subscription.
   */
  void correlate(LoggedRecord command, ProcessingResult result) {
    MessageSubscriptionValue message = new MessageSubscriptionValue();
    message.readFrom(command.value());
    long key = message.elementInstanceKey;
    String refusal = refusal(message);
    if (refusal != null) {
      result.reject(RejectionType.INVALID_STATE, refusal);
      sender.sendAfterCommit(
          result,
          sender.ofCorrelationKey(message.correlationKey),
          ValueTypes.MESSAGE_SUBSCRIPTION,
          MessageSubscriptionIntent.REJECT,
          -1,
          message);
      return;
    }
    result.appendEvent(
        context.nextKey(),
        ValueTypes.PROCESS_MESSAGE_SUBSCRIPTION,
        ProcessMessageSubscriptionIntent.CORRELATED,
        message);
    sender.sendAfterCommit(
        result,
        sender.ofCorrelationKey(message.correlationKey),
        ValueTypes.MESSAGE_SUBSCRIPTION,
        MessageSubscriptionIntent.CORRELATE,
        -1,
        message);
    ExecutableElement target =
        state.process(instance.value.processDefinitionKey).element(subscription.value.elementId);
    if (target.type() == BpmnElementType.BOUNDARY_EVENT) {
      boundaries.trigger(result, key, instance, target, message.variables);
      return;
    }
    if (target.type() == BpmnElementType.START_EVENT) {
      eventSubprocesses.trigger(result, key, instance, target, message.variables);
      return;
    }
    if (message.variables.length > 0) {
      Map<String, byte[]> values = JsonDocuments.variables(message.variables);
      long processInstanceKey = instance.value.processInstanceKey;
      long processDefinitionKey = instance.value.processDefinitionKey;
      if (target.outputs().isEmpty()) {
        variables.setPropagating(result, key, processInstanceKey, processDefinitionKey, values);
      } else {
        // With output mappings, the message's variables are the element's own, for them to read.
        variables.setLocal(result, key, processInstanceKey, processDefinitionKey, values);
      }
    }
    completion.copyFrom(instance.value);
    result.appendCommand(
        key, ValueTypes.PROCESS_INSTANCE, ProcessInstanceIntent.COMPLETE_ELEMENT, completion);
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

  /** Asks the message partition again for every subscription still being opened or closed. */
  void retryPending() {
    for (Subscription pending : state.processMessageSubscriptions().pending()) {
      sender.send(
          sender.ofCorrelationKey(pending.value.correlationKey),
          ValueTypes.MESSAGE_SUBSCRIPTION,
          pending.state == ProcessMessageSubscriptionState.OPENING
              ? MessageSubscriptionIntent.CREATE
              : MessageSubscriptionIntent.DELETE,
          -1,
          pending.value);
    }
  }
}

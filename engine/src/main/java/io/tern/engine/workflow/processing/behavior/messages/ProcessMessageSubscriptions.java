package io.tern.engine.workflow.processing.behavior.messages;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.common.PartitionSender;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ProcessMessageSubscriptionState;
import io.tern.engine.workflow.state.Subscription;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.util.function.Predicate;

/**
 * The process instance partition's side of message subscriptions: opened when a message catch
 * event, receive task, activity with message boundary events or scope with message event
 * subprocesses is entered, closed when it is left, moved when its element instance is migrated.
 * Each step asks the message partition (the correlation key's) to follow, and is acknowledged by it
 * ({@code ProcessMessageSubscriptionProcessors}, which also takes the messages it sends).
 */
public final class ProcessMessageSubscriptions {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final PartitionSender sender;

  public ProcessMessageSubscriptions(
      ProcessingContext context, WorkflowState state, PartitionSender sender) {
    this.context = context;
    this.state = state;
    this.sender = sender;
  }

  /** Opens a subscription of element instance {@code key} for {@code target}'s message. */
  public void open(
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
    opened.interrupting = interrupting(target);
    opened.bpmnProcessId = element.bpmnProcessId;
    opened.messageName = messageName;
    opened.correlationKey = correlationKey;
    opened.elementId = target.id();
    result.appendEvent(context.nextKey(), ProcessMessageSubscriptionIntent.CREATING, opened);
    sender.sendAfterCommit(
        result,
        sender.ofCorrelationKey(correlationKey),
        MessageSubscriptionIntent.CREATE,
        -1,
        opened);
  }

  /**
   * Whether a message for {@code target} ends its subscription. Boundary events and event
   * subprocess starts that do not interrupt stay open for the next message; a catch event or
   * receive task is done with its first.
   */
  public static boolean interrupting(ExecutableElement target) {
    boolean staysOpenCapable =
        target.type() == BpmnElementType.BOUNDARY_EVENT
            || target.type() == BpmnElementType.START_EVENT;
    return !staysOpenCapable || target.interrupting();
  }

  /**
   * Moves {@code subscription}, of an element instance migrated to {@code after}, to catch event
   * {@code target}; it keeps its message name and correlation key. The message partition keeps the
   * process id (a message goes to one instance of each process) and whether a message ends the
   * subscription: if either changes, an open subscription asks it to follow, and is MIGRATING until
   * it acknowledges. One still being opened must not change them ({@code MigrationCatchEvents}
   * refuses): its CREATE, on its way, carries the old ones.
   */
  public void migrate(
      ProcessingResult result,
      Subscription subscription,
      ProcessInstanceValue after,
      ExecutableElement target) {
    MessageSubscriptionValue migrated = new MessageSubscriptionValue().copyFrom(subscription.value);
    migrated.processDefinitionKey = after.processDefinitionKey;
    migrated.bpmnProcessId = after.bpmnProcessId;
    migrated.elementId = target.id();
    migrated.interrupting = interrupting(target);
    boolean follow =
        subscription.state == ProcessMessageSubscriptionState.OPENED
            && changesMessageSide(
                subscription.value, migrated.bpmnProcessId, migrated.interrupting);
    result.appendEvent(context.nextKey(), ProcessMessageSubscriptionIntent.MIGRATED, migrated);
    if (follow) {
      sender.sendAfterCommit(
          result,
          sender.ofCorrelationKey(migrated.correlationKey),
          MessageSubscriptionIntent.MIGRATE,
          -1,
          migrated);
    }
  }

  /**
   * Whether moving subscription {@code before} to process {@code bpmnProcessId} and a catch event
   * that is {@code interrupting} or not changes what the message partition decides by.
   */
  public static boolean changesMessageSide(
      MessageSubscriptionValue before, String bpmnProcessId, boolean interrupting) {
    return !before.bpmnProcessId.equals(bpmnProcessId) || before.interrupting != interrupting;
  }

  /** Whether two values of a subscription name the same process, catch event and interrupting. */
  public static boolean sameTarget(MessageSubscriptionValue a, MessageSubscriptionValue b) {
    return a.processDefinitionKey == b.processDefinitionKey
        && a.bpmnProcessId.equals(b.bpmnProcessId)
        && a.elementId.equals(b.elementId)
        && a.interrupting == b.interrupting;
  }

  /** Closes the subscriptions of element instance {@code key}, which is left. */
  public void closeAll(ProcessingResult result, long key) {
    closeAll(result, key, target -> true);
  }

  /** Closes the subscriptions of instance {@code key} for the targets {@code targets} accepts. */
  public void closeAll(ProcessingResult result, long key, Predicate<String> targets) {
    for (Subscription open : state.processMessageSubscriptions().ofElement(key)) {
      if (open.state != ProcessMessageSubscriptionState.CLOSING
          && targets.test(open.value.elementId)) {
        result.appendEvent(
            context.nextKey(), ProcessMessageSubscriptionIntent.DELETING, open.value);
        sender.sendAfterCommit(
            result,
            sender.ofCorrelationKey(open.value.correlationKey),
            MessageSubscriptionIntent.DELETE,
            -1,
            open.value);
      }
    }
  }

  /**
   * Asks the message partition again for every subscription still being opened, closed or migrated.
   */
  public void retryPending() {
    for (Subscription pending : state.processMessageSubscriptions().pending()) {
      sender.send(
          sender.ofCorrelationKey(pending.value.correlationKey),
          switch (pending.state) {
            case ProcessMessageSubscriptionState.OPENING -> MessageSubscriptionIntent.CREATE;
            case ProcessMessageSubscriptionState.MIGRATING -> MessageSubscriptionIntent.MIGRATE;
            default -> MessageSubscriptionIntent.DELETE;
          },
          -1,
          pending.value);
    }
  }
}

package io.tern.engine.workflow.processing.signals;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.SignalIntent;
import io.tern.engine.protocol.SignalSubscriptionIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.instances.ProcessActivation;
import io.tern.engine.workflow.processing.behavior.signals.SignalBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.CaughtEvents;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.Distribution;
import io.tern.engine.workflow.processing.common.PartitionSender;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.state.SignalState;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.SignalSubscriptionValue;
import io.tern.engine.workflow.value.SignalValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;

/**
 * BROADCAST and ACKNOWLEDGE of signals. A signal is broadcast on one partition (the gateway's
 * choice, or a throw event's own): BROADCASTED answers the client, the partition triggers what
 * waits for the signal there, and sends a copy with the same key to every other partition, again
 * until each acknowledges it (a {@link Distribution}, as deployments and resource deletions are). A
 * partition takes a copy once (it remembers the keys it took), so a copy sent twice triggers
 * nothing twice. Signal start events open on every partition but start instances only on the
 * deployment partition, so that a broadcast starts one instance per process.
 */
public final class SignalBroadcastProcessor {
  /** Where signal start events start instances: the partition that has every deployment first. */
  static final int START_PARTITION = 1;

  private final ProcessingContext context;
  private final WorkflowState state;
  private final SignalState signals;
  private final PartitionSender sender;
  private final Distribution<SignalValue> copies;
  private final SignalBehavior subscriptions;
  private final VariableBehavior variables;
  private final CaughtEvents caughtEvents;
  private final SignalValue signal = new SignalValue();
  private final ElementInstance instance = new ElementInstance();
  private final ProcessInstanceValue activation = new ProcessInstanceValue();
  private final SignalSubscriptionValue started = new SignalSubscriptionValue();

  public SignalBroadcastProcessor(
      ProcessingContext context, WorkflowState state, Behaviors behaviors) {
    this.context = context;
    this.state = state;
    this.signals = state.signals();
    this.sender = behaviors.sender();
    this.copies =
        new Distribution<>(
            sender, state.signalCopies(), SignalIntent.BROADCAST, SignalIntent.ACKNOWLEDGE);
    this.subscriptions = behaviors.signals();
    this.variables = behaviors.variables();
    this.caughtEvents = behaviors.caughtEvents();
  }

  /** BROADCAST: from the gateway or a throw event (broadcast here), or a copy from another. */
  public void broadcast(LoggedRecord command, ProcessingResult result) {
    signal.readFrom(command.value());
    if (signal.originPartitionId >= 0 && signal.originPartitionId != context.partitionId()) {
      takeCopy(command.key(), result);
      return;
    }
    if (signal.signalName.isBlank()) {
      result.reject(RejectionType.INVALID_ARGUMENT, "a signal needs a name");
      return;
    }
    try {
      JsonDocuments.variables(signal.variables);
    } catch (InvalidVariablesException e) {
      result.reject(
          RejectionType.INVALID_ARGUMENT, "signal '" + signal.signalName + "': " + e.getMessage());
      return;
    }
    long key = command.key() >= 0 ? command.key() : context.nextKey();
    signal.originPartitionId = context.partitionId();
    signal.partitionId = -1;
    result.appendEvent(key, SignalIntent.BROADCASTED, signal);
    result.respondWithLastEvent();
    trigger(result, signal);
    copies.send(
        result,
        key,
        new SignalValue().copyFrom(signal),
        Distribution.others(sender.partitionCount(), context.partitionId()));
  }

  /** A copy from the signal's partition: taken once, acknowledged every time. */
  private void takeCopy(long key, ProcessingResult result) {
    int origin = signal.originPartitionId;
    if (!signals.wasReceived(key)) {
      signal.partitionId = context.partitionId();
      result.appendEvent(key, SignalIntent.BROADCASTED, signal);
      trigger(result, signal);
    }
    SignalValue ack = new SignalValue();
    ack.originPartitionId = origin;
    ack.partitionId = context.partitionId();
    ack.signalName = signal.signalName;
    copies.acknowledge(result, origin, key, ack);
  }

  /** ACKNOWLEDGE, on the signal's partition: one more partition took its copy. */
  public void acknowledge(LoggedRecord command, ProcessingResult result) {
    signal.readFrom(command.value());
    if (!copies.isPending(command.key(), signal.partitionId)) {
      return; // acknowledged twice
    }
    result.appendEvent(command.key(), SignalIntent.ACKNOWLEDGED, signal);
  }

  /** Sends again every copy not acknowledged yet. */
  public void retryPending() {
    copies.retryPending();
  }

  /** Triggers everything on this partition that waits for the signal. */
  private void trigger(ProcessingResult result, SignalValue broadcast) {
    for (SignalSubscriptionValue waiting : signals.waitingFor(broadcast.signalName)) {
      triggerElement(result, waiting, broadcast.variables);
    }
    if (context.partitionId() == START_PARTITION) {
      for (SignalSubscriptionValue start : signals.startsOn(broadcast.signalName)) {
        startInstance(result, start, broadcast.variables);
      }
    }
  }

  /**
   * The signal triggers the event of an element instance: a catch event completes (with the
   * signal's variables), an event-based gateway takes the flow to it, a boundary event or an event
   * subprocess is triggered. A subscription that can trigger only once is closed at once.
   */
  private void triggerElement(
      ProcessingResult result, SignalSubscriptionValue waiting, byte[] variablesJson) {
    long key = waiting.elementInstanceKey;
    if (!state.instances().get(key, instance)
        || instance.state != ProcessInstanceIntent.ELEMENT_ACTIVATED) {
      return; // it is being left: its subscriptions are closing
    }
    ExecutableElement target =
        state.process(instance.value.processDefinitionKey).element(waiting.elementId);
    // A subscription that can trigger only once closes with its trigger; a non-interrupting
    // boundary event or event subprocess start stays open for the next signal.
    boolean once = caughtEvents.triggersOnce(instance, target);
    if (once) {
      subscriptions.close(result, waiting); // first: an interrupting trigger closes the others
    }
    caughtEvents.trigger(result, key, instance, target, variablesJson);
  }

  /**
   * A signal start event starts an instance of its process (the latest version), with the signal's
   * variables; TRIGGERED records which start event it begins at.
   */
  private void startInstance(
      ProcessingResult result, SignalSubscriptionValue start, byte[] variablesJson) {
    ProcessState.Deployed deployed = state.processes().byKey(start.processDefinitionKey);
    if (deployed == null) {
      return;
    }
    long processInstanceKey = context.nextKey();
    started.copyFrom(start);
    started.processInstanceKey = processInstanceKey;
    result.appendEvent(context.nextKey(), SignalSubscriptionIntent.TRIGGERED, started);
    if (variablesJson.length > 0) {
      variables.createLocal(
          result,
          processInstanceKey,
          processInstanceKey,
          deployed.key(),
          JsonDocuments.variables(variablesJson));
    }
    ProcessActivation.append(result, processInstanceKey, deployed, activation);
  }
}

package io.tern.engine.workflow.processing.signals;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.SignalIntent;
import io.tern.engine.protocol.SignalSubscriptionIntent;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.common.Distribution;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.SignalSubscriptionValue;
import io.tern.engine.workflow.value.SignalValue;

/** The appliers of signal and signal subscription events. */
public final class SignalAppliers {
  private final WorkflowState state;
  private final int partitionCount;
  private final SignalValue signal = new SignalValue();
  private final SignalSubscriptionValue subscription = new SignalSubscriptionValue();

  private SignalAppliers(WorkflowState state, int partitionCount) {
    this.state = state;
    this.partitionCount = partitionCount;
  }

  /**
   * @param partitionCount the cluster's: a signal broadcast here is remembered until every other
   *     partition took its copy
   */
  public static void register(RecordProcessors on, WorkflowState state, int partitionCount) {
    new SignalAppliers(state, partitionCount).registerAll(on);
  }

  private void registerAll(RecordProcessors on) {
    on.onEvent(
            SignalIntent.BROADCASTED,
            event -> {
              signal.readFrom(event.value());
              if (signal.partitionId < 0) {
                state
                    .signalCopies()
                    .distribute(
                        event.key(),
                        signal,
                        Distribution.others(partitionCount, signal.originPartitionId));
              } else {
                state.signals().received(event.key()); // a copy, taken here
              }
            })
        .onEvent(
            SignalIntent.ACKNOWLEDGED,
            event ->
                state
                    .signalCopies()
                    .acknowledged(
                        event.key(), signal.<SignalValue>readFrom(event.value()).partitionId))
        .onEvent(
            SignalSubscriptionIntent.CREATED,
            event -> state.signals().subscribe(subscription.readFrom(event.value())))
        .onEvent(
            SignalSubscriptionIntent.DELETED,
            event -> state.signals().unsubscribe(subscription.readFrom(event.value())))
        .onEvent(
            SignalSubscriptionIntent.TRIGGERED,
            event -> {
              subscription.readFrom(event.value());
              // A start event's: the new instance begins there.
              state.startEvents().put(subscription.processInstanceKey, subscription.elementId);
            });
  }

  /**
   * The latest version of a process is the one that starts on its signals: the previous latest
   * version's signal start events close, the new one's open. Applied with the deployment.
   */
  public static void deployed(
      WorkflowState state, ProcessState.Deployed previous, DeploymentValue.Process latest) {
    replaced(state, previous, state.processes().byKey(latest.processDefinitionKey()));
  }

  /**
   * The signal start events of {@code previous} (the latest version until now, or null) close,
   * those of {@code latest} (the latest from now on, or null) open.
   */
  public static void replaced(
      WorkflowState state, ProcessState.Deployed previous, ProcessState.Deployed latest) {
    if (previous == null && latest == null) {
      return;
    }
    String processId = previous != null ? previous.bpmnProcessId() : latest.bpmnProcessId();
    if (previous != null) {
      for (ExecutableElement start : previous.process().signalStartEvents()) {
        state
            .signals()
            .unsubscribeStart(((EventDefinition.Signal) start.event()).name(), processId);
      }
    }
    if (latest == null) {
      return;
    }
    for (ExecutableElement start : latest.process().signalStartEvents()) {
      SignalSubscriptionValue subscription = new SignalSubscriptionValue();
      subscription.processDefinitionKey = latest.key();
      subscription.bpmnProcessId = processId;
      subscription.elementId = start.id();
      subscription.signalName = ((EventDefinition.Signal) start.event()).name();
      state.signals().subscribeStart(subscription);
    }
  }
}

package io.tern.engine.workflow.processing.deployment;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.ResourceDeletionIntent;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.processing.signals.SignalAppliers;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.value.ResourceDeletionValue;

/**
 * The appliers of resource deletions: the process goes, its start events pass to the new latest.
 */
public final class ResourceDeletionAppliers {
  private final WorkflowState state;
  private final int partitionCount;
  private final ResourceDeletionValue deletion = new ResourceDeletionValue();

  private ResourceDeletionAppliers(WorkflowState state, int partitionCount) {
    this.state = state;
    this.partitionCount = partitionCount;
  }

  /**
   * @param partitionCount the cluster's: a deletion made here is remembered until every other
   *     partition took its copy
   */
  public static void register(RecordProcessors on, WorkflowState state, int partitionCount) {
    new ResourceDeletionAppliers(state, partitionCount).registerAll(on);
  }

  private void registerAll(RecordProcessors on) {
    on.onEvent(
            ResourceDeletionIntent.DELETED,
            event -> {
              deletion.readFrom(event.value());
              deleted(deletion.resourceKey);
              if (deletion.partitionId < 0) {
                state
                    .deletionCopies()
                    .distribute(
                        event.key(),
                        deletion,
                        DeploymentDistribution.otherPartitions(partitionCount));
              }
            })
        .onEvent(
            ResourceDeletionIntent.ACKNOWLEDGED,
            event ->
                state
                    .deletionCopies()
                    .acknowledged(
                        event.key(),
                        deletion.<ResourceDeletionValue>readFrom(event.value()).partitionId));
  }

  /**
   * Deletes the process; if it was the latest version, its message and signal start events close
   * and the new latest version's open.
   */
  private void deleted(long processDefinitionKey) {
    ProcessState processes = state.processes();
    if (state.decisions().isGraph(processDefinitionKey)) {
      state.decisions().delete(processDefinitionKey);
      processes.delete(processDefinitionKey); // the key stays marked: a late copy stays out
      return;
    }
    ProcessState.Deployed process = processes.byKey(processDefinitionKey);
    if (process == null || processes.isDeleted(processDefinitionKey)) {
      processes.delete(processDefinitionKey); // unknown here yet: keeps a late copy out
      return;
    }
    String processId = process.bpmnProcessId();
    ProcessState.Deployed latest = processes.byIdAndVersion(processId, -1);
    processes.delete(processDefinitionKey);
    if (latest == null || latest.key() != processDefinitionKey) {
      return;
    }
    ProcessState.Deployed next = processes.byIdAndVersion(processId, -1);
    for (String name : process.process().messageStartEvents().keySet()) {
      state.messageStarts().unsubscribe(name, processId);
    }
    if (next != null) {
      for (String name : next.process().messageStartEvents().keySet()) {
        state.messageStarts().subscribe(name, processId, next.key());
      }
    }
    SignalAppliers.replaced(state, process, next);
  }
}

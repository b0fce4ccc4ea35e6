package io.tern.engine.workflow.processing.deployment;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ResourceDeletionIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.timers.TimerStartBehavior;
import io.tern.engine.workflow.processing.common.Distribution;
import io.tern.engine.workflow.processing.common.PartitionSender;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.timer.TimerSchedule;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import io.tern.engine.workflow.value.TimerValue;

/**
 * DeleteResource of a deployed process or decision requirements graph, made on partition 1 and
 * copied to every other partition by a {@link Distribution} (sent again until each acknowledges;
 * taking a copy twice changes nothing). A deleted process starts no new instance (by key, by id, by
 * its start events) and is no longer the latest version: the previous version is, with its message,
 * signal and timer start events (its timers scheduled afresh); instances created before the
 * deletion run to their end (the process stays stored, hidden).
 */
public final class ResourceDeletionProcessor {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final PartitionSender sender;
  private final Distribution<ResourceDeletionValue> copies;
  private final TimerStartBehavior timerStarts;
  private final ResourceDeletionValue deletion = new ResourceDeletionValue();
  private final TimerValue timer = new TimerValue();

  public ResourceDeletionProcessor(
      ProcessingContext context,
      WorkflowState state,
      Behaviors behaviors,
      TimerStartBehavior timerStarts) {
    this.context = context;
    this.state = state;
    this.sender = behaviors.sender();
    this.copies =
        new Distribution<>(
            sender,
            state.deletionCopies(),
            ResourceDeletionIntent.DELETE,
            ResourceDeletionIntent.ACKNOWLEDGE);
    this.timerStarts = timerStarts;
  }

  /** DELETE: from the gateway on partition 1, or a copy from partition 1 elsewhere. */
  public void delete(LoggedRecord command, ProcessingResult result) {
    deletion.readFrom(command.value());
    boolean copy =
        deletion.originPartitionId >= 0 && deletion.originPartitionId != context.partitionId();
    if (copy) {
      takeCopy(command.key(), result);
      return;
    }
    if (context.partitionId() != DeploymentDistribution.DEPLOYMENT_PARTITION) {
      result.reject(
          RejectionType.INVALID_ARGUMENT,
          "resources are deleted on partition "
              + DeploymentDistribution.DEPLOYMENT_PARTITION
              + ", not on partition "
              + context.partitionId());
      return;
    }
    long key = deletion.resourceKey;
    ProcessState processes = state.processes();
    ProcessState.Deployed deployed = processes.byKey(key);
    if (deployed == null || processes.isDeleted(key)) {
      DeploymentValue graph = state.decisions().graph(key);
      if (graph == null) {
        result.reject(
            RejectionType.NOT_FOUND,
            "no deployed process or decision requirements graph has the key " + key);
        return;
      }
      deleteGraph(graph, result);
      return;
    }
    ProcessState.Deployed latest = processes.byIdAndVersion(deployed.bpmnProcessId(), -1);
    boolean wasLatest = latest != null && latest.key() == key;
    long deletionKey = context.nextKey();
    deletion.originPartitionId = context.partitionId();
    deletion.partitionId = -1;
    deletion.bpmnProcessId = deployed.bpmnProcessId();
    deletion.version = deployed.version();
    result.appendEvent(deletionKey, ResourceDeletionIntent.DELETED, deletion);
    result.respondWithLastEvent();
    replaceStartTimers(result, deployed, wasLatest);
    sendCopies(result, deletionKey);
  }

  /**
   * A decision requirements graph and its decisions: evaluations by id and business rule tasks take
   * the previous version from now on; the deletion's value carries the graph's id and version.
   */
  private void deleteGraph(DeploymentValue graph, ProcessingResult result) {
    long deletionKey = context.nextKey();
    deletion.originPartitionId = context.partitionId();
    deletion.partitionId = -1;
    deletion.bpmnProcessId = graph.decisions.get(0).decisionRequirementsId();
    deletion.version = graph.decisions.get(0).decisionRequirementsVersion();
    result.appendEvent(deletionKey, ResourceDeletionIntent.DELETED, deletion);
    result.respondWithLastEvent();
    sendCopies(result, deletionKey);
  }

  /** Sends the deletion in {@link #deletion} to every other partition once committed. */
  private void sendCopies(ProcessingResult result, long deletionKey) {
    copies.send(
        result,
        deletionKey,
        new ResourceDeletionValue().copyFrom(deletion),
        DeploymentDistribution.otherPartitions(sender.partitionCount()));
  }

  /** A copy from partition 1: applied once (a repeat finds the process deleted), acknowledged. */
  private void takeCopy(long deletionKey, ProcessingResult result) {
    if (!state.processes().isDeleted(deletion.resourceKey)) {
      deletion.partitionId = context.partitionId();
      result.appendEvent(deletionKey, ResourceDeletionIntent.DELETED, deletion);
    }
    ResourceDeletionValue ack = new ResourceDeletionValue().copyFrom(deletion);
    ack.partitionId = context.partitionId();
    copies.acknowledge(result, deletion.originPartitionId, deletionKey, ack);
  }

  /**
   * The deleted process's timer start events are canceled (they live on this partition); if it was
   * the latest version, the new latest version's are created.
   */
  private void replaceStartTimers(
      ProcessingResult result, ProcessState.Deployed deleted, boolean wasLatest) {
    for (long timerKey : state.timers().ofElement(-1)) {
      if (state.timers().get(timerKey, timer) && timer.processDefinitionKey == deleted.key()) {
        result.appendEvent(timerKey, TimerIntent.CANCELED, timer);
      }
    }
    if (!wasLatest) {
      return;
    }
    ProcessState.Deployed next = state.processes().byIdAndVersion(deleted.bpmnProcessId(), -1);
    if (next == null) {
      return;
    }
    try {
      // Scheduled afresh from now, as when that version was deployed: a date already past fires
      // at once, a cycle starts over.
      timerStarts.replace(result, next, timerStarts.schedule(next.process()));
    } catch (TimerSchedule.TimerException e) {
      // A timer that no longer evaluates (it did at its deployment): that version gets no start
      // timers, and its other start events still open.
      timerStarts.replace(result, next, java.util.List.of());
    }
  }

  /** ACKNOWLEDGE, on partition 1: one more partition took the deletion. */
  public void acknowledge(LoggedRecord command, ProcessingResult result) {
    deletion.readFrom(command.value());
    if (!copies.isPending(command.key(), deletion.partitionId)) {
      return; // acknowledged twice
    }
    result.appendEvent(command.key(), ResourceDeletionIntent.ACKNOWLEDGED, deletion);
  }

  /** Sends again every copy not acknowledged yet. */
  public void retryPending() {
    copies.retryPending();
  }
}

package io.tern.engine.workflow.processing;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.DeploymentDistributionIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.processing.compensation.CompensationAppliers;
import io.tern.engine.workflow.processing.decisions.DecisionAppliers;
import io.tern.engine.workflow.processing.deployment.DeploymentDistribution;
import io.tern.engine.workflow.processing.deployment.ResourceDeletionAppliers;
import io.tern.engine.workflow.processing.incidents.IncidentAppliers;
import io.tern.engine.workflow.processing.instances.InstanceAppliers;
import io.tern.engine.workflow.processing.jobs.JobAppliers;
import io.tern.engine.workflow.processing.messages.MessageAppliers;
import io.tern.engine.workflow.processing.signals.SignalAppliers;
import io.tern.engine.workflow.processing.timers.TimerAppliers;
import io.tern.engine.workflow.processing.usertasks.UserTaskAppliers;
import io.tern.engine.workflow.processing.variables.VariableAppliers;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.value.DeploymentDistributionValue;
import io.tern.engine.workflow.value.DeploymentValue;
import java.util.List;

/**
 * Every state change of the workflow engine, one applier per event intent: processing and replay
 * run the same code, so a follower's state is the leader's. The deployment appliers live here; each
 * other feature registers its own ({@link InstanceAppliers}, {@link JobAppliers}, {@link
 * VariableAppliers}, {@link IncidentAppliers}, {@link TimerAppliers}, {@link MessageAppliers}).
 */
final class EventAppliers {
  private final WorkflowState state;
  private final DeploymentValue deployment = new DeploymentValue();
  private final DeploymentDistributionValue distribution = new DeploymentDistributionValue();

  private final int partitionCount;

  private EventAppliers(WorkflowState state, int partitionCount) {
    this.state = state;
    this.partitionCount = partitionCount;
  }

  /**
   * @param partitionCount the cluster's, fixed for its life: a deployment made here is remembered
   *     until every other partition has it
   */
  static void register(RecordProcessors processors, WorkflowState state, int partitionCount) {
    new EventAppliers(state, partitionCount).registerAll(processors);
  }

  private void registerAll(RecordProcessors on) {
    on.onEvent(
            DeploymentIntent.CREATED,
            event -> {
              deployed(event);
              List<Integer> others = DeploymentDistribution.otherPartitions(partitionCount);
              if (!others.isEmpty()) {
                state.deploymentCopies().distribute(event.key(), deployment, others);
              }
            })
        .onEvent(DeploymentIntent.DISTRIBUTED, this::deployed)
        .onEvent(DeploymentIntent.FULLY_DISTRIBUTED, event -> {})
        .onEvent(
            DeploymentDistributionIntent.COMPLETED,
            event ->
                state
                    .deploymentCopies()
                    .acknowledged(
                        event.key(),
                        distribution.<DeploymentDistributionValue>readFrom(event.value())
                            .partitionId));
    InstanceAppliers.register(on, state);
    JobAppliers.register(on, state);
    UserTaskAppliers.register(on, state);
    VariableAppliers.register(on, state);
    IncidentAppliers.register(on, state);
    TimerAppliers.register(on, state);
    MessageAppliers.register(on, state);
    SignalAppliers.register(on, state, partitionCount);
    ResourceDeletionAppliers.register(on, state, partitionCount);
    DecisionAppliers.register(on);
    CompensationAppliers.register(on, state);
  }

  private void deployed(LoggedRecord event) {
    deployment.readFrom(event.value());
    DecisionAppliers.deployed(state, deployment);
    for (DeploymentValue.Process process : deployment.processes) {
      if (!process.duplicate()
          && state.processes().byKey(process.processDefinitionKey()) == null
          && !state.processes().isDeleted(process.processDefinitionKey())) {
        DeploymentValue.Resource resource =
            deployment.resources.stream()
                .filter(r -> r.name().equals(process.resourceName()))
                .findFirst()
                .orElseThrow();
        ProcessState.Deployed previous =
            state.processes().byIdAndVersion(process.bpmnProcessId(), -1);
        state.processes().put(process, resource);
        if (previous == null || process.version() > previous.version()) {
          subscribeMessageStarts(previous, process);
          SignalAppliers.deployed(state, previous, process);
        }
      }
    }
  }

  /**
   * The latest version of a process is the one that starts on its messages: the previous latest
   * version's message start events close, the new one's open.
   */
  private void subscribeMessageStarts(
      ProcessState.Deployed previous, DeploymentValue.Process latest) {
    String processId = latest.bpmnProcessId();
    if (previous != null) {
      for (String name : previous.process().messageStartEvents().keySet()) {
        state.messageStarts().unsubscribe(name, processId);
      }
    }
    ExecutableProcess process = state.process(latest.processDefinitionKey());
    for (String name : process.messageStartEvents().keySet()) {
      state.messageStarts().subscribe(name, processId, latest.processDefinitionKey());
    }
  }
}

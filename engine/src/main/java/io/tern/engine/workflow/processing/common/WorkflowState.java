package io.tern.engine.workflow.processing.common;

import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.state.CompensationState;
import io.tern.engine.workflow.state.DecisionState;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.state.IncidentState;
import io.tern.engine.workflow.state.JobState;
import io.tern.engine.workflow.state.MessageCorrelationState;
import io.tern.engine.workflow.state.MessageStartState;
import io.tern.engine.workflow.state.MessageState;
import io.tern.engine.workflow.state.MessageSubscriptionState;
import io.tern.engine.workflow.state.PendingBoundaryState;
import io.tern.engine.workflow.state.PendingCopies;
import io.tern.engine.workflow.state.ProcessMessageSubscriptionState;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.state.SignalState;
import io.tern.engine.workflow.state.StartEventState;
import io.tern.engine.workflow.state.TakenFlowState;
import io.tern.engine.workflow.state.TimerState;
import io.tern.engine.workflow.state.UserTaskState;
import io.tern.engine.workflow.state.VariableState;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import io.tern.engine.workflow.value.SignalValue;

/** The workflow engine's column families over one partition's state, opened together. */
public record WorkflowState(
    ProcessState processes,
    ElementInstanceState instances,
    JobState jobs,
    VariableState variables,
    IncidentState incidents,
    TakenFlowState takenFlows,
    TimerState timers,
    PendingBoundaryState pendingBoundaries,
    MessageState messages,
    MessageSubscriptionState messageSubscriptions,
    ProcessMessageSubscriptionState processMessageSubscriptions,
    PendingCopies<DeploymentValue> deploymentCopies,
    MessageStartState messageStarts,
    DecisionState decisions,
    StartEventState startEvents,
    SignalState signals,
    PendingCopies<SignalValue> signalCopies,
    PendingCopies<ResourceDeletionValue> deletionCopies,
    CompensationState compensations,
    UserTaskState userTasks,
    MessageCorrelationState correlations) {

  public static WorkflowState open(PartitionState state) {
    return new WorkflowState(
        new ProcessState(state),
        new ElementInstanceState(state),
        new JobState(state),
        new VariableState(state),
        new IncidentState(state),
        new TakenFlowState(state),
        new TimerState(state),
        new PendingBoundaryState(state),
        new MessageState(state),
        new MessageSubscriptionState(state),
        new ProcessMessageSubscriptionState(state),
        PendingCopies.deployments(state),
        new MessageStartState(state),
        new DecisionState(state),
        new StartEventState(state),
        new SignalState(state),
        PendingCopies.signals(state),
        PendingCopies.deletions(state),
        new CompensationState(state),
        new UserTaskState(state),
        new MessageCorrelationState(state));
  }

  /**
   * @throws IllegalStateException if it is not deployed (a state that does not match the log)
   */
  public ExecutableProcess process(long processDefinitionKey) {
    ProcessState.Deployed deployed = processes.byKey(processDefinitionKey);
    if (deployed == null) {
      throw new IllegalStateException("process " + processDefinitionKey + " is not deployed");
    }
    return deployed.process();
  }
}

package io.tern.engine.workflow.processing.deployment;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.DeploymentDistributionIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.common.Distribution;
import io.tern.engine.workflow.processing.common.PartitionSender;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.value.DeploymentDistributionValue;
import io.tern.engine.workflow.value.DeploymentValue;
import java.util.List;

/**
 * Deployments are made on the deployment partition (keys and versions are decided there) and copied
 * to every other partition, so that any partition can start instances of any process: a {@link
 * Distribution}, as signals and resource deletions are. Taking a copy twice changes nothing.
 */
public final class DeploymentDistribution {
  /** The partition that processes deployments. */
  static final int DEPLOYMENT_PARTITION = 1;

  private final ProcessingContext context;
  private final WorkflowState state;
  private final PartitionSender sender;
  private final Distribution<DeploymentValue> copies;
  private final DeploymentDistributionValue completion = new DeploymentDistributionValue();

  public DeploymentDistribution(
      ProcessingContext context, WorkflowState state, Behaviors behaviors) {
    this.context = context;
    this.state = state;
    this.sender = behaviors.sender();
    this.copies =
        new Distribution<>(
            sender,
            state.deploymentCopies(),
            DeploymentIntent.DISTRIBUTE,
            DeploymentDistributionIntent.COMPLETE);
  }

  /** The partitions a deployment made here is copied to (none with one partition). */
  public static List<Integer> otherPartitions(int partitionCount) {
    return Distribution.others(partitionCount, DEPLOYMENT_PARTITION);
  }

  /** Sends the new deployment's copies once it is committed. */
  void distribute(ProcessingResult result, long deploymentKey, DeploymentValue deployed) {
    copies.send(result, deploymentKey, deployed, otherPartitions(sender.partitionCount()));
  }

  /** DISTRIBUTE, on another partition: take the copy (once), and acknowledge. */
  public void take(LoggedRecord command, ProcessingResult result) {
    DeploymentValue copy = new DeploymentValue();
    copy.readFrom(command.value());
    boolean missing = false;
    for (DeploymentValue.Process process : copy.processes) {
      if (!process.duplicate()
          && state.processes().byKey(process.processDefinitionKey()) == null
          && !state.processes().isDeleted(process.processDefinitionKey())) {
        missing = true;
      }
    }
    if (missing) {
      result.appendEvent(command.key(), DeploymentIntent.DISTRIBUTED, copy);
    }
    DeploymentDistributionValue done = new DeploymentDistributionValue();
    done.partitionId = context.partitionId();
    copies.acknowledge(result, DEPLOYMENT_PARTITION, command.key(), done);
  }

  /** COMPLETE, on the deployment partition: one more partition has the deployment. */
  public void completed(LoggedRecord command, ProcessingResult result) {
    long deploymentKey = command.key();
    completion.readFrom(command.value());
    if (!copies.isPending(deploymentKey, completion.partitionId)) {
      return; // acknowledged twice
    }
    DeploymentValue deployment = new DeploymentValue();
    state.deploymentCopies().value(deploymentKey, deployment);
    result.appendEvent(deploymentKey, DeploymentDistributionIntent.COMPLETED, completion);
    if (state.deploymentCopies().partitionsLeft(deploymentKey) == 0) {
      result.appendEvent(deploymentKey, DeploymentIntent.FULLY_DISTRIBUTED, deployment);
    }
  }

  /** Sends again every copy not acknowledged yet. */
  public void retryPending() {
    copies.retryPending();
  }
}

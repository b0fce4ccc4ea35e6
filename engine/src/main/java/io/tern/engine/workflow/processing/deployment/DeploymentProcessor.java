package io.tern.engine.workflow.processing.deployment;

import io.tern.engine.processor.CommandProcessor;
import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.dmn.DmnResources;
import io.tern.engine.workflow.model.BpmnTransformer;
import io.tern.engine.workflow.model.DeploymentRejection;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.model.ModelLimits;
import io.tern.engine.workflow.model.ResourceScan;
import io.tern.engine.workflow.processing.behavior.timers.TimerStartBehavior;
import io.tern.engine.workflow.state.DecisionState;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.timer.TimerSchedule;
import io.tern.engine.workflow.value.DeploymentValue;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Deploys BPMN and DMN resources: each is validated (all problems reported at once, each naming its
 * element), each process gets the next version of its id, unless its resource is the same as the
 * latest version's, which is then reused as is. DMN files are {@link DecisionDeployment}'s.
 */
public final class DeploymentProcessor implements CommandProcessor {
  private final ProcessingContext context;
  private final ProcessState processes;
  private final DeploymentValue command = new DeploymentValue();
  private final DecisionDeployment decisions;
  private final DeploymentDistribution distribution;
  private final int partitionCount;
  private final TimerStartBehavior timerStarts;
  private final ModelLimits limits;

  public DeploymentProcessor(
      ProcessingContext context,
      ProcessState processes,
      DecisionState decisions,
      DeploymentDistribution distribution,
      int partitionCount,
      TimerStartBehavior timerStarts,
      ModelLimits limits) {
    this.timerStarts = timerStarts;
    this.limits = limits;
    this.context = context;
    this.processes = processes;
    this.decisions = new DecisionDeployment(context, decisions);
    this.distribution = distribution;
    this.partitionCount = partitionCount;
  }

  @Override
  public void process(LoggedRecord record, ProcessingResult result) {
    command.readFrom(record.value());
    if (partitionCount > 1
        && context.partitionId() != DeploymentDistribution.DEPLOYMENT_PARTITION) {
      result.reject(
          RejectionType.INVALID_ARGUMENT,
          "deployments are made on partition "
              + DeploymentDistribution.DEPLOYMENT_PARTITION
              + " (which copies them to the others), not on partition "
              + context.partitionId());
      return;
    }
    if (command.resources.isEmpty()) {
      result.reject(RejectionType.INVALID_ARGUMENT, "a deployment needs at least one resource");
      return;
    }
    for (DeploymentValue.Resource resource : command.resources) {
      if (!DmnResources.isDmn(resource.name()) && !isBpmn(resource.name())) {
        result.reject(
            RejectionType.INVALID_ARGUMENT,
            "'"
                + resource.name()
                + "' cannot be deployed: Tern deploys BPMN processes (names ending in .bpmn or"
                + " .xml) and DMN decisions (.dmn), and tells them apart by that ending");
        return;
      }
    }
    DeploymentValue deployed = new DeploymentValue();
    Map<String, String> resourceOfProcess = new HashMap<>();
    DecisionDeployment.Seen seenDecisions = new DecisionDeployment.Seen();
    Map<String, List<TimerStartBehavior.Scheduled>> startTimers = new HashMap<>();
    for (DeploymentValue.Resource resource : command.resources) {
      deployed.resources.add(resource);
      String checksum = checksum(resource.content());
      try {
        // Before any parser sees it: they recurse once per level of nesting.
        ResourceScan.check(resource.name(), resource.content(), limits);
        if (DmnResources.isDmn(resource.name())) {
          decisions.deploy(resource, checksum, seenDecisions, deployed);
          continue;
        }
        for (ExecutableProcess process :
            BpmnTransformer.transform(resource.name(), resource.content())) {
          String id = process.bpmnProcessId();
          String other = resourceOfProcess.putIfAbsent(id, resource.name());
          if (other != null) {
            result.reject(
                RejectionType.INVALID_ARGUMENT,
                "the process id '"
                    + id
                    + "' is defined in both '"
                    + other
                    + "' and '"
                    + resource.name()
                    + "'");
            return;
          }
          ProcessState.Deployed latest = processes.byIdAndVersion(id, -1);
          if (latest != null && latest.checksum().equals(checksum)) {
            deployed.processes.add(
                new DeploymentValue.Process(
                    latest.key(), latest.version(), true, id, resource.name(), checksum));
          } else {
            // After the highest version ever deployed: a deleted one's number is not reused.
            int version = processes.latestVersion(id) + 1;
            deployed.processes.add(
                new DeploymentValue.Process(
                    context.nextKey(), version, false, id, resource.name(), checksum));
            startTimers.put(id, timerStarts.schedule(process));
          }
        }
      } catch (DeploymentRejection e) {
        result.reject(RejectionType.INVALID_ARGUMENT, e.getMessage());
        return;
      } catch (TimerSchedule.TimerException e) {
        result.reject(
            RejectionType.INVALID_ARGUMENT,
            "'" + resource.name() + "' cannot be deployed: " + e.getMessage());
        return;
      }
    }
    long deploymentKey = context.nextKey();
    result.appendEvent(deploymentKey, DeploymentIntent.CREATED, deployed);
    result.respondWithLastEvent();
    // Timer start events live on this partition only: a new version replaces the previous one's.
    for (DeploymentValue.Process process : deployed.processes) {
      if (!process.duplicate()) {
        timerStarts.replace(
            result,
            processes.byKey(process.processDefinitionKey()),
            startTimers.get(process.bpmnProcessId()));
      }
    }
    distribution.distribute(result, deploymentKey, deployed);
  }

  private static String checksum(byte[] content) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  private static boolean isBpmn(String resourceName) {
    String name = resourceName.toLowerCase(java.util.Locale.ROOT);
    return name.endsWith(".bpmn") || name.endsWith(".xml");
  }
}

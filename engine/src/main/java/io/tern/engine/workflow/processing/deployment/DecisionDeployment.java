package io.tern.engine.workflow.processing.deployment;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.workflow.dmn.DmnResources;
import io.tern.engine.workflow.model.DeploymentRejection;
import io.tern.engine.workflow.state.DecisionState;
import io.tern.engine.workflow.value.DeploymentValue;
import java.util.HashMap;
import java.util.Map;
import org.camunda.dmn.DmnEngine;

/**
 * Deploys DMN resources, as Zeebe does: a file is a decision requirements graph (DRG). If the
 * latest version of the graph with its id has the same content, the deployment reuses it and its
 * decisions as they are; else the graph gets its next version and a new key, and each decision its
 * own next version and a new key.
 */
final class DecisionDeployment {
  private final ProcessingContext context;
  private final DecisionState decisions;
  private final DmnEngine engine = new DmnEngine.Builder().build();

  DecisionDeployment(ProcessingContext context, DecisionState decisions) {
    this.context = context;
    this.decisions = decisions;
  }

  /** Tracks the ids seen in one deployment: a graph or decision id may be in one file only. */
  static final class Seen {
    private final Map<String, String> resourceOfId = new HashMap<>();

    void add(String what, String id, String resourceName) {
      String other = resourceOfId.putIfAbsent(what + ":" + id, resourceName);
      if (other != null) {
        throw new DeploymentRejection(
            "the "
                + what
                + " id '"
                + id
                + "' is defined in both '"
                + other
                + "' and '"
                + resourceName
                + "'");
      }
    }
  }

  /**
   * Adds the resource's decisions to {@code deployed}.
   *
   * @throws DeploymentRejection naming the resource and what is wrong
   */
  void deploy(
      DeploymentValue.Resource resource, String checksum, Seen seen, DeploymentValue deployed) {
    DmnResources.Graph graph = DmnResources.parse(engine, resource.name(), resource.content());
    seen.add("decision requirements", graph.id(), resource.name());
    for (DmnResources.Decision decision : graph.decisions()) {
      seen.add("decision", decision.id(), resource.name());
    }
    DeploymentValue latest = decisions.latestGraph(graph.id());
    if (latest != null && latest.decisions.get(0).checksum().equals(checksum)) {
      for (DeploymentValue.Decision decision : latest.decisions) {
        deployed.decisions.add(
            new DeploymentValue.Decision(
                decision.decisionKey(),
                decision.decisionId(),
                decision.decisionName(),
                decision.version(),
                true,
                decision.decisionRequirementsKey(),
                decision.decisionRequirementsId(),
                decision.decisionRequirementsName(),
                decision.decisionRequirementsVersion(),
                resource.name(),
                checksum));
      }
      return;
    }
    int graphVersion = decisions.nextGraphVersion(graph.id());
    long graphKey = context.nextKey();
    for (DmnResources.Decision decision : graph.decisions()) {
      deployed.decisions.add(
          new DeploymentValue.Decision(
              context.nextKey(),
              decision.id(),
              decision.name() == null ? decision.id() : decision.name(),
              decisions.nextVersion(decision.id()),
              false,
              graphKey,
              graph.id(),
              graph.name(),
              graphVersion,
              resource.name(),
              checksum));
    }
  }
}

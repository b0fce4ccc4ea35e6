package io.tern.engine.workflow.processing.decisions;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.DecisionEvaluationIntent;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.value.DeploymentValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The appliers of decision events, and what a deployment stores of its decisions. */
public final class DecisionAppliers {
  private DecisionAppliers() {}

  public static void register(RecordProcessors on) {
    // An evaluation for EvaluateDecision changes no state.
    on.onEvent(DecisionEvaluationIntent.EVALUATED, event -> {})
        .onEvent(DecisionEvaluationIntent.FAILED, event -> {});
  }

  /** Stores each new decision requirements graph of {@code deployment} with its decisions. */
  public static void deployed(WorkflowState state, DeploymentValue deployment) {
    Map<Long, List<DeploymentValue.Decision>> byGraph = new LinkedHashMap<>();
    for (DeploymentValue.Decision decision : deployment.decisions) {
      if (!decision.duplicate()
          && state.decisions().byKey(decision.decisionKey()) == null
          // A graph deleted before its copy came: kept out.
          && !state.processes().isDeleted(decision.decisionRequirementsKey())) {
        byGraph
            .computeIfAbsent(decision.decisionRequirementsKey(), k -> new ArrayList<>())
            .add(decision);
      }
    }
    byGraph.forEach(
        (graphKey, decisions) -> {
          String resourceName = decisions.get(0).resourceName();
          DeploymentValue.Resource resource =
              deployment.resources.stream()
                  .filter(r -> r.name().equals(resourceName))
                  .findFirst()
                  .orElseThrow();
          state.decisions().put(resource, decisions);
        });
  }
}

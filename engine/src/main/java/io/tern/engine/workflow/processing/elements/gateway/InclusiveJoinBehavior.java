package io.tern.engine.workflow.processing.elements.gateway;

import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.model.InclusiveJoin;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.state.TakenFlowState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * When a joining inclusive gateway may activate: some of its incoming flows brought tokens, and no
 * other token of its scope can still reach one that did not ({@link InclusiveJoin}). A token whose
 * place is not known yet (on a flow whose target has not activated, or a triggered boundary
 * event's) holds the gateway until it is placed. So the question is asked again after every step of
 * an element of the scope ({@link #readyToJoin}), and once more when the gateway's activation is
 * processed, which drops an activation another one already joined.
 */
public final class InclusiveJoinBehavior {
  private final ElementInstanceState instances;
  private final TakenFlowState takenFlows;
  private final ElementInstance scope = new ElementInstance();
  private final ElementInstance child = new ElementInstance();
  private final Set<String> placed = new HashSet<>();
  private final Set<String> arrived = new HashSet<>();
  private long waitingTokens;

  public InclusiveJoinBehavior(WorkflowState state) {
    this.instances = state.instances();
    this.takenFlows = state.takenFlows();
  }

  /**
   * The joining inclusive gateways of scope {@code scopeKey} that may activate now, in id order:
   * none if the process has none (the common case costs nothing).
   */
  public List<String> readyToJoin(long scopeKey, ExecutableProcess process) {
    if (scopeKey < 0 || process.inclusiveJoins().isEmpty()) {
      return List.of();
    }
    List<String> ready = new ArrayList<>(1);
    for (InclusiveJoin join : process.inclusiveJoins()) {
      if (mayJoin(scopeKey, join)) {
        ready.add(join.gatewayId());
      }
    }
    return ready;
  }

  /**
   * Whether gateway {@code join} in scope {@code scopeKey} has tokens to join and no other token of
   * the scope may still reach one of its other incoming flows.
   */
  public boolean mayJoin(long scopeKey, InclusiveJoin join) {
    if (!instances.get(scopeKey, scope)) {
      return false;
    }
    placed.clear();
    arrived.clear();
    waitingTokens = 0;
    takenFlows.forEachWaiting(
        scopeKey,
        (gatewayId, flowId, count) -> {
          waitingTokens += count;
          if (gatewayId.equals(join.gatewayId())) {
            arrived.add(flowId);
          } else {
            placed.add(gatewayId); // waiting at another join
          }
        });
    if (arrived.isEmpty()) {
      return false;
    }
    List<Long> children = instances.children(scopeKey);
    for (long childKey : children) {
      if (instances.get(childKey, child)) {
        placed.add(child.value.elementId);
      }
    }
    if (scope.activeChildren > children.size() + waitingTokens) {
      return false; // a token is on its way to an element: wait until it is there
    }
    for (String flowId : join.upstream().keySet()) {
      if (arrived.contains(flowId)) {
        continue;
      }
      for (String element : placed) {
        if (join.mayReach(element, flowId)) {
          return false;
        }
      }
    }
    return true;
  }
}

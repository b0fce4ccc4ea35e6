package io.tern.engine.workflow.model;

import io.tern.engine.workflow.value.BpmnElementType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A joining inclusive gateway (more than one incoming flow) and, for each of its incoming flows,
 * the elements of its scope from which a token can still reach that flow without passing through
 * the gateway itself. The gateway joins once every incoming flow that brought no token has no token
 * upstream: a token that could only get there through the gateway does not hold it, which is what
 * lets a loop back into it work.
 *
 * @param gatewayId the gateway's element id
 * @param upstream per incoming flow id, the ids of the elements a token at which may reach it
 *     (sequence flows, a boundary event's activity, a link throw event's catch event)
 */
public record InclusiveJoin(String gatewayId, Map<String, Set<String>> upstream) {

  /** Whether a token at element {@code elementId} may still reach incoming flow {@code flowId}. */
  public boolean mayReach(String elementId, String flowId) {
    Set<String> elements = upstream.get(flowId);
    return elements != null && elements.contains(elementId);
  }

  /** Whether {@code element} joins: an inclusive gateway with more than one incoming flow. */
  public static boolean joins(ExecutableElement element) {
    return element.type() == BpmnElementType.INCLUSIVE_GATEWAY && element.incoming().size() > 1;
  }

  /** The joining inclusive gateways among {@code elements}, ordered by id (the same on replay). */
  static List<InclusiveJoin> of(Map<String, ExecutableElement> elements) {
    Map<String, String> flowSources = new HashMap<>();
    Map<String, List<String>> predecessors = new HashMap<>();
    for (ExecutableElement element : elements.values()) {
      for (ExecutableElement.Flow flow : element.outgoing()) {
        flowSources.put(flow.id(), element.id());
        predecessors.computeIfAbsent(flow.targetId(), id -> new ArrayList<>()).add(element.id());
      }
      if (element.attachedToId() != null) {
        predecessors
            .computeIfAbsent(element.id(), id -> new ArrayList<>())
            .add(element.attachedToId());
      }
      if (element.event() instanceof EventDefinition.Link link && link.catchEventId() != null) {
        predecessors
            .computeIfAbsent(link.catchEventId(), id -> new ArrayList<>())
            .add(element.id());
      }
    }
    List<InclusiveJoin> joins = new ArrayList<>();
    for (ExecutableElement gateway : elements.values()) {
      if (!joins(gateway)) {
        continue;
      }
      Map<String, Set<String>> upstream = new TreeMap<>();
      for (String flowId : gateway.incoming()) {
        upstream.put(flowId, upstreamOf(flowSources.get(flowId), gateway.id(), predecessors));
      }
      joins.add(new InclusiveJoin(gateway.id(), Map.copyOf(upstream)));
    }
    joins.sort(Comparator.comparing(InclusiveJoin::gatewayId));
    return List.copyOf(joins);
  }

  /** The elements from which {@code source} is reachable without passing through the gateway. */
  private static Set<String> upstreamOf(
      String source, String gatewayId, Map<String, List<String>> predecessors) {
    Set<String> seen = new HashSet<>();
    Deque<String> pending = new ArrayDeque<>();
    if (source != null && !source.equals(gatewayId)) {
      pending.push(source);
    }
    while (!pending.isEmpty()) {
      String element = pending.pop();
      if (seen.add(element)) {
        for (String predecessor : predecessors.getOrDefault(element, List.of())) {
          if (!predecessor.equals(gatewayId)) {
            pending.push(predecessor);
          }
        }
      }
    }
    return Set.copyOf(seen);
  }
}

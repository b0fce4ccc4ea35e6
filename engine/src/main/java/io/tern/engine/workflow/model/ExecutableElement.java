package io.tern.engine.workflow.model;

import io.tern.engine.workflow.value.BpmnElementType;
import java.util.List;

/**
 * One flow node of a deployed process, as the engine runs it.
 *
 * @param incoming the ids of its incoming sequence flows (a parallel gateway joins them all)
 * @param outgoing the ids of the elements its outgoing sequence flows lead to, with the flows' ids
 * @param jobType for service tasks, the job type ({@code zeebe:taskDefinition type})
 * @param jobRetries for service tasks, the job's retries
 * @param customHeaders for service tasks, {@code zeebe:taskHeaders} as a JSON object
 * @param defaultFlowId for exclusive gateways, the flow taken when no condition holds, or null
 */
public record ExecutableElement(
    String id,
    BpmnElementType type,
    List<String> incoming,
    List<Flow> outgoing,
    String jobType,
    int jobRetries,
    String customHeaders,
    String defaultFlowId) {

  /**
   * A sequence flow: its id, the id of the element it leads to, and its FEEL condition (with the
   * leading '=') or null.
   */
  public record Flow(String id, String targetId, String condition) {}
}

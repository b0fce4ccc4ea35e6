package io.tern.engine.workflow.value;

/** The kinds of BPMN elements the engine runs; the ordinal is stored, so only append. */
public enum BpmnElementType {
  PROCESS,
  START_EVENT,
  END_EVENT,
  SERVICE_TASK,
  SEQUENCE_FLOW,
  PARALLEL_GATEWAY,
  EXCLUSIVE_GATEWAY,
  SUB_PROCESS,
  BOUNDARY_EVENT,
  INTERMEDIATE_CATCH_EVENT,
  RECEIVE_TASK,
  CALL_ACTIVITY,
  /** The instance that holds the inner instances of a multi-instance activity. */
  MULTI_INSTANCE_BODY,
  INCLUSIVE_GATEWAY,
  /** An event subprocess: started inside its scope by its start event's timer, message or error. */
  EVENT_SUB_PROCESS,
  /** An undefined task ({@code bpmn:task}): passes through, applying its mappings. */
  TASK,
  /** A manual task: passes through, applying its mappings. */
  MANUAL_TASK,
  /** An intermediate throw event: none (passes through) or message (job-based). */
  INTERMEDIATE_THROW_EVENT,
  /** A job-based user task (job type {@code io.camunda.zeebe:userTask}). */
  USER_TASK,
  /** A script task: a FEEL expression with a result variable, or job-based. */
  SCRIPT_TASK,
  /** A send task: job-based. */
  SEND_TASK,
  /** A business rule task: a called decision with a result variable, or job-based. */
  BUSINESS_RULE_TASK,
  /** An event-based gateway: waits for the first of the catch events after it. */
  EVENT_BASED_GATEWAY;

  private static final BpmnElementType[] VALUES = values();

  public static BpmnElementType of(int ordinal) {
    if (ordinal < 0 || ordinal >= VALUES.length) {
      throw new IllegalArgumentException("Unknown BPMN element type " + ordinal);
    }
    return VALUES[ordinal];
  }
}

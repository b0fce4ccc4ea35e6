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
  /** An intermediate throw event (a link's, so far). */
  INTERMEDIATE_THROW_EVENT,
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

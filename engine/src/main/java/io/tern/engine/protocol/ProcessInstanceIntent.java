package io.tern.engine.protocol;

/** {@link ValueType#PROCESS_INSTANCE}: the lifecycle of each element instance. */
public enum ProcessInstanceIntent implements Intent {
  ACTIVATE_ELEMENT(0),
  COMPLETE_ELEMENT(1),

  /** Cancels a whole process instance (key: the process instance key). */
  CANCEL(2),

  TERMINATE_ELEMENT(3),
  ELEMENT_ACTIVATING(10),
  ELEMENT_ACTIVATED(11),
  ELEMENT_COMPLETING(12),
  ELEMENT_COMPLETED(13),
  ELEMENT_TERMINATING(14),
  ELEMENT_TERMINATED(15),
  SEQUENCE_FLOW_TAKEN(16),

  /** The element instance now runs as an element of another process definition. */
  ELEMENT_MIGRATED(17);

  private final int code;

  ProcessInstanceIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.PROCESS_INSTANCE;
  }

  @Override
  public int code() {
    return code;
  }
}

package io.tern.engine.workflow.value;

/** Why an incident was raised; the ordinal is stored, so only append. */
public enum ErrorType {
  UNKNOWN,
  /** A job failed with no retries left. */
  JOB_NO_RETRIES,
  /** A condition failed, or no outgoing flow of an exclusive gateway matched. */
  CONDITION_ERROR,
  /** An error was thrown (by a job or an error end event) and no boundary event caught it. */
  UNHANDLED_ERROR_EVENT,
  /** An expression (a timer's, a mapping's, ...) could not be evaluated. */
  EXTRACT_VALUE_ERROR,
  /** A call activity's process is not deployed. */
  CALLED_ELEMENT_ERROR,
  /** A business rule task's decision is not deployed. */
  CALLED_DECISION_ERROR,
  /** A business rule task's decision failed to evaluate. */
  DECISION_EVALUATION_ERROR;

  private static final ErrorType[] VALUES = values();

  public static ErrorType of(int ordinal) {
    return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : UNKNOWN;
  }
}

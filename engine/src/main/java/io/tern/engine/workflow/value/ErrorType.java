package io.tern.engine.workflow.value;

/** Why an incident was raised; the ordinal is stored, so only append. */
public enum ErrorType {
  UNKNOWN,
  /** A job failed with no retries left. */
  JOB_NO_RETRIES,
  /** A condition failed, or no outgoing flow of an exclusive gateway matched. */
  CONDITION_ERROR;

  private static final ErrorType[] VALUES = values();

  public static ErrorType of(int ordinal) {
    return ordinal >= 0 && ordinal < VALUES.length ? VALUES[ordinal] : UNKNOWN;
  }
}

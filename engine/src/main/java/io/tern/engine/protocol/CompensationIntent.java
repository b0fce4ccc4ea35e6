package io.tern.engine.protocol;

/** {@link ValueType#COMPENSATION_SUBSCRIPTION}. */
public enum CompensationIntent implements Intent {
  /** The activity completed: it can be compensated. */
  CREATED(0),

  /** A throw event compensates it: its handler runs (and what completed inside it is next). */
  TRIGGERED(1),

  /**
   * Its handler completed (or, for a subprocess holding compensable activities without a handler of
   * its own, the last of them was compensated).
   */
  COMPLETED(2),

  /** Its process instance ended: it can no longer be compensated. */
  DELETED(3),

  /**
   * Its process instance was migrated: it names the target definition, the activity its activity is
   * mapped to and that activity's compensation handler; its keys stay.
   */
  MIGRATED(4);

  private final int code;

  CompensationIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.COMPENSATION_SUBSCRIPTION;
  }

  @Override
  public int code() {
    return code;
  }
}

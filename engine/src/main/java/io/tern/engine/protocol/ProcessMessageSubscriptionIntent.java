package io.tern.engine.protocol;

/** {@link ValueType#PROCESS_MESSAGE_SUBSCRIPTION}, on the process instance's partition. */
public enum ProcessMessageSubscriptionIntent implements Intent {
  /** Opening: the message partition is asked to create its side. */
  CREATING(0),

  /** The message partition's acknowledgement. */
  CREATE(1),

  CREATED(2),

  /** A message from the message partition. */
  CORRELATE(3),

  CORRELATED(4),

  /** Closing: the message partition is asked to delete its side. */
  DELETING(5),

  /** The message partition's acknowledgement. */
  DELETE(6),

  DELETED(7),

  /**
   * Its element instance was migrated: the subscription triggers the target's event. If the message
   * partition's copy must follow (another process id, or the event interrupts otherwise), it is
   * asked to.
   */
  MIGRATED(8),

  /** The message partition's acknowledgement of a migration. */
  MIGRATE(9),

  MIGRATION_ACKNOWLEDGED(10);

  private final int code;

  ProcessMessageSubscriptionIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.PROCESS_MESSAGE_SUBSCRIPTION;
  }

  @Override
  public int code() {
    return code;
  }
}

package io.tern.engine.protocol;

/**
 * {@link ValueType#MESSAGE_SUBSCRIPTION}, on the message's partition. Commands come from the
 * process instance's partition; each is answered there with a command of {@link
 * ProcessMessageSubscriptionIntent}.
 */
public enum MessageSubscriptionIntent implements Intent {
  CREATE(0),
  CREATED(1),

  /** A message was sent to the process instance's partition to correlate. */
  CORRELATING(2),

  /** The process instance's partition took the message. */
  CORRELATE(3),

  CORRELATED(4),

  /** The process instance's partition did not take the message. */
  REJECT(5),

  REJECTED(6),
  DELETE(7),
  DELETED(8),

  /** Its process instance was migrated: the copy takes the new process id, event and the like. */
  MIGRATE(9),

  MIGRATED(10);

  private final int code;

  MessageSubscriptionIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.MESSAGE_SUBSCRIPTION;
  }

  @Override
  public int code() {
    return code;
  }
}

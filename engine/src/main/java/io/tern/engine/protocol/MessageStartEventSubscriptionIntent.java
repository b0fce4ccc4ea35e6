package io.tern.engine.protocol;

/** {@link ValueType#MESSAGE_START_EVENT_SUBSCRIPTION}. */
public enum MessageStartEventSubscriptionIntent implements Intent {
  /** The message starts an instance (the record's processInstanceKey) at elementId. */
  CORRELATED(0);

  private final int code;

  MessageStartEventSubscriptionIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.MESSAGE_START_EVENT_SUBSCRIPTION;
  }

  @Override
  public int code() {
    return code;
  }
}

package io.tern.engine.protocol;

/** {@link ValueType#SIGNAL_SUBSCRIPTION}. */
public enum SignalSubscriptionIntent implements Intent {
  CREATED(0),
  DELETED(1),

  /** A signal came: the subscription's event is triggered (a start event starts an instance). */
  TRIGGERED(2);

  private final int code;

  SignalSubscriptionIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.SIGNAL_SUBSCRIPTION;
  }

  @Override
  public int code() {
    return code;
  }
}

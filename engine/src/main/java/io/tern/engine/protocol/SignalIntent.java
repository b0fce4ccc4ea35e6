package io.tern.engine.protocol;

/** {@link ValueType#SIGNAL}. */
public enum SignalIntent implements Intent {
  /** From the gateway, a signal throw event, or (as a copy) another partition. */
  BROADCAST(0),

  BROADCASTED(1),

  /** On the origin partition: another partition took its copy. */
  ACKNOWLEDGE(2),

  ACKNOWLEDGED(3);

  private final int code;

  SignalIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.SIGNAL;
  }

  @Override
  public int code() {
    return code;
  }
}

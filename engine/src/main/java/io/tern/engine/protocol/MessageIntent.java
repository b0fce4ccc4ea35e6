package io.tern.engine.protocol;

/** {@link ValueType#MESSAGE}. */
public enum MessageIntent implements Intent {
  PUBLISH(0),
  PUBLISHED(1),
  EXPIRE(2),
  EXPIRED(3);

  private final int code;

  MessageIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.MESSAGE;
  }

  @Override
  public int code() {
    return code;
  }
}

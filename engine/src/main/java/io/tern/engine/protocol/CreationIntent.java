package io.tern.engine.protocol;

/** {@link ValueType#PROCESS_INSTANCE_CREATION}. */
public enum CreationIntent implements Intent {
  CREATE(0),
  CREATED(1),

  /** Create, and answer once the instance completes (or is terminated). */
  CREATE_WITH_AWAITING_RESULT(2);

  private final int code;

  CreationIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.PROCESS_INSTANCE_CREATION;
  }

  @Override
  public int code() {
    return code;
  }
}

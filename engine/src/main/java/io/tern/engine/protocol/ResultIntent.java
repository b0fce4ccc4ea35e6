package io.tern.engine.protocol;

/** {@link ValueType#PROCESS_INSTANCE_RESULT}: its value is a ProcessInstanceCreationValue. */
public enum ResultIntent implements Intent {
  COMPLETED(0),

  /** The instance was canceled: there is no result. */
  TERMINATED(1);

  private final int code;

  ResultIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.PROCESS_INSTANCE_RESULT;
  }

  @Override
  public int code() {
    return code;
  }
}

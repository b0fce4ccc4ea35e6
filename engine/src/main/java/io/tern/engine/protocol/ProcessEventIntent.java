package io.tern.engine.protocol;

/** {@link ValueType#PROCESS_EVENT}. */
public enum ProcessEventIntent implements Intent {
  /** A boundary event was triggered (activated at once, or once its activity is terminated). */
  TRIGGERED(0);

  private final int code;

  ProcessEventIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.PROCESS_EVENT;
  }

  @Override
  public int code() {
    return code;
  }
}

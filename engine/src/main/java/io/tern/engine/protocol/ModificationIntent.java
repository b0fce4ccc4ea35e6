package io.tern.engine.protocol;

/** {@link ValueType#PROCESS_INSTANCE_MODIFICATION}. */
public enum ModificationIntent implements Intent {
  MODIFY(0),
  MODIFIED(1);

  private final int code;

  ModificationIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.PROCESS_INSTANCE_MODIFICATION;
  }

  @Override
  public int code() {
    return code;
  }
}

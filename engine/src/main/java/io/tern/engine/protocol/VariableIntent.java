package io.tern.engine.protocol;

/** {@link ValueType#VARIABLE}. */
public enum VariableIntent implements Intent {
  CREATED(0),
  UPDATED(1);

  private final int code;

  VariableIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.VARIABLE;
  }

  @Override
  public int code() {
    return code;
  }
}

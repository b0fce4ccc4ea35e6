package io.tern.engine.protocol;

/** {@link ValueType#VARIABLE_DOCUMENT}. */
public enum VariableDocumentIntent implements Intent {
  UPDATE(0),
  UPDATED(1);

  private final int code;

  VariableDocumentIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.VARIABLE_DOCUMENT;
  }

  @Override
  public int code() {
    return code;
  }
}

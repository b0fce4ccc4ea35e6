package io.tern.engine.protocol;

/** {@link ValueType#RESOURCE_DELETION}. */
public enum ResourceDeletionIntent implements Intent {
  /** From the gateway (on partition 1), or as a copy to another partition. */
  DELETE(0),

  DELETED(1),

  /** On partition 1: another partition took the deletion's copy. */
  ACKNOWLEDGE(2),

  ACKNOWLEDGED(3);

  private final int code;

  ResourceDeletionIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.RESOURCE_DELETION;
  }

  @Override
  public int code() {
    return code;
  }
}

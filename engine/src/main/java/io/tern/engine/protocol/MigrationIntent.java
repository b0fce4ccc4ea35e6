package io.tern.engine.protocol;

/** {@link ValueType#PROCESS_INSTANCE_MIGRATION}. */
public enum MigrationIntent implements Intent {
  MIGRATE(0),
  MIGRATED(1);

  private final int code;

  MigrationIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.PROCESS_INSTANCE_MIGRATION;
  }

  @Override
  public int code() {
    return code;
  }
}

package io.tern.engine.protocol;

/**
 * {@link ValueType#CHECKPOINT}: a backup's checkpoint. The management API writes CREATE with the
 * backup id to every partition; the partition accepts it (CREATED, which stores the id and the
 * command's position) only if the id is above the last checkpoint's, and its leader then takes its
 * part of the backup. Only brokers may send it (see ForwardableCommands).
 */
public enum CheckpointIntent implements Intent {
  CREATE(0),
  CREATED(1);

  private final int code;

  CheckpointIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.CHECKPOINT;
  }

  @Override
  public int code() {
    return code;
  }
}

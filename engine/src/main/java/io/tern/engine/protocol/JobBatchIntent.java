package io.tern.engine.protocol;

/** {@link ValueType#JOB_BATCH}. */
public enum JobBatchIntent implements Intent {
  ACTIVATE(0),
  ACTIVATED(1);

  private final int code;

  JobBatchIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.JOB_BATCH;
  }

  @Override
  public int code() {
    return code;
  }
}

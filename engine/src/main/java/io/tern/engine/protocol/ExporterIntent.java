package io.tern.engine.protocol;

/**
 * {@link ValueType#EXPORTER}: Tern's own records of how far each exporter of a partition got. The
 * exporter director on the leader writes the command; its event stores the position (and the
 * exporter's metadata) in the partition's state, so that every member has it and a new leader's
 * director resumes there. These records are never exported.
 */
public enum ExporterIntent implements Intent {
  /** From the exporter director: an exporter acknowledged records up to a position. */
  UPDATE_POSITION(0),

  POSITION_UPDATED(1);

  private final int code;

  ExporterIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.EXPORTER;
  }

  @Override
  public int code() {
    return code;
  }
}

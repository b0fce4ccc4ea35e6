package io.tern.engine.protocol;

/** {@link ValueType#INCIDENT}. */
public enum IncidentIntent implements Intent {
  CREATED(0),
  RESOLVE(1),
  RESOLVED(2),

  /** Its element instance was migrated: the incident names the target definition and element. */
  MIGRATED(3);

  private final int code;

  IncidentIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.INCIDENT;
  }

  @Override
  public int code() {
    return code;
  }
}

package io.tern.engine.protocol;

/** {@link ValueType#TIMER}. */
public enum TimerIntent implements Intent {
  CREATED(0),

  /** Written when the timer is due; the timer's element is triggered. */
  TRIGGER(1),

  TRIGGERED(2),

  /** Its element was left before it fired. */
  CANCELED(3),

  /** Its element instance was migrated; the due date stays. */
  MIGRATED(4);

  private final int code;

  TimerIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.TIMER;
  }

  @Override
  public int code() {
    return code;
  }
}

package io.tern.engine.workflow.timer;

/**
 * How a timer's expression is read. Here, not in the model, so that the model may check timer
 * expressions with {@link TimerSchedule} at deployment while the schedule knows nothing of it.
 */
public enum TimerKind {
  /** {@code timeDuration}: fires once, that long after the element is entered. */
  DURATION,
  /** {@code timeDate}: fires once, at that date and time. */
  DATE,
  /** {@code timeCycle}: fires repeatedly ({@code R5/PT10S}). */
  CYCLE
}

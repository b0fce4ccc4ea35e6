package io.tern.engine.protocol;

/** {@link ValueType#JOB}. */
public enum JobIntent implements Intent {
  CREATED(1),
  COMPLETE(2),
  COMPLETED(3),
  FAIL(4),
  FAILED(5),
  UPDATE_RETRIES(6),
  RETRIES_UPDATED(7),
  TIME_OUT(8),
  TIMED_OUT(9),
  RECUR_AFTER_BACKOFF(10),
  RECURRED_AFTER_BACKOFF(11),

  /** The job's element was terminated. */
  CANCELED(12),

  THROW_ERROR(13),
  ERROR_THROWN(14),
  UPDATE_TIMEOUT(15),
  TIMEOUT_UPDATED(16),

  /** A job pushed to a stream that was gone is given back, to be activated again. */
  YIELD(17),

  YIELDED(18),

  /** Its element instance was migrated: the job names the target definition and element. */
  MIGRATED(19);

  private final int code;

  JobIntent(int code) {
    this.code = code;
  }

  @Override
  public ValueType valueType() {
    return ValueType.JOB;
  }

  @Override
  public int code() {
    return code;
  }
}

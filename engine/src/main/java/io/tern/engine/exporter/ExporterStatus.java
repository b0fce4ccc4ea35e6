package io.tern.engine.exporter;

/**
 * How one exporter of one partition is doing, as metrics and the management endpoint show it. It
 * outlives the director's sessions (a broker leads a partition, then follows, then leads again);
 * written by the director's thread, read from any.
 */
public final class ExporterStatus {
  /** What the exporter is doing on this broker. */
  public enum State {
    /** Exporting (or caught up): this member leads the partition. */
    RUNNING,
    /** Its last call threw: the director calls it again after a back-off. */
    RETRYING,
    /** Not open here: this member does not lead the partition (or the broker closes). */
    CLOSED
  }

  private final int partitionId;
  private final String exporterId;
  private volatile State state = State.CLOSED;
  private volatile long position = -1;
  private volatile long commitPosition = -1;
  private volatile long oldestUnexportedTimestampMs;
  private volatile long oldestUnacknowledgedTimestampMs;
  private volatile String lastError;

  ExporterStatus(int partitionId, String exporterId) {
    this.partitionId = partitionId;
    this.exporterId = exporterId;
  }

  public int partitionId() {
    return partitionId;
  }

  public String exporterId() {
    return exporterId;
  }

  public State state() {
    return state;
  }

  /** The position the exporter acknowledged (or the director passed for it), -1 if none. */
  public long position() {
    return position;
  }

  /** Committed records after {@link #position()}, as far as the director knows the commit. */
  public long lagRecords() {
    return Math.max(0, commitPosition - position);
  }

  /**
   * Seconds since the oldest committed record the exporter has not acknowledged was written: one it
   * holds unflushed, or else the next it has not been handed; 0 when it is caught up.
   */
  public double lagSeconds(long nowMs) {
    long held = oldestUnacknowledgedTimestampMs;
    long waiting = oldestUnexportedTimestampMs;
    long oldest = held <= 0 ? waiting : waiting <= 0 ? held : Math.min(held, waiting);
    return oldest <= 0 ? 0 : Math.max(0, nowMs - oldest) / 1000.0;
  }

  /** The last failure of a call into the exporter, or null. */
  public String lastError() {
    return lastError;
  }

  void state(State state) {
    this.state = state;
  }

  void position(long position) {
    this.position = position;
  }

  void commitPosition(long commitPosition) {
    this.commitPosition = commitPosition;
  }

  void oldestUnexported(long timestampMs) {
    this.oldestUnexportedTimestampMs = timestampMs;
  }

  void oldestUnacknowledged(long timestampMs) {
    this.oldestUnacknowledgedTimestampMs = timestampMs;
  }

  void lastError(String lastError) {
    this.lastError = lastError;
  }
}

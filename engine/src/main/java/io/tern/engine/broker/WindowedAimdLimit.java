package io.tern.engine.broker;

import com.netflix.concurrency.limits.limit.AbstractLimit;

/**
 * Additive increase, multiplicative decrease of the commands a partition takes in flight, with two
 * changes to the library's AIMD that keep a pause from looking like overload:
 *
 * <ul>
 *   <li><b>One decrease per congestion event.</b> A command slower than the timeout (or dropped)
 *       lowers the limit only if it was admitted after the last decrease. A stall of the machine (a
 *       long fsync, a GC pause) makes every command in flight slow at once; counted one by one, 64
 *       of them would cut the limit by 0.9^64, to its minimum, and refuse the next burst of a load
 *       the partition handles easily. Counted once, they cut it by 0.9. Sustained overload still
 *       lowers it once per round trip, as TCP lowers its window once per window of losses.
 *   <li><b>Back to the initial limit when the partition is fast again.</b> Below the initial limit,
 *       every command faster than the timeout adds one, whether or not the window is half used:
 *       otherwise a partition under a light load never regains what stalls took, and drifts down
 *       over a long run until it refuses the bursts of a steady client. Above the initial limit it
 *       grows only while the window is at least half used, as the library's does, so an idle
 *       partition does not claim capacity it never showed.
 * </ul>
 */
final class WindowedAimdLimit extends AbstractLimit {
  private final int initialLimit;
  private final int minLimit;
  private final int maxLimit;
  private final double backoffRatio;
  private final long timeoutNs;

  /** When the last decrease happened ({@link System#nanoTime} clock, as the limiter's). */
  private long lastDecreaseNs = Long.MIN_VALUE;

  private boolean decreased;

  WindowedAimdLimit(
      int initialLimit, int minLimit, int maxLimit, double backoffRatio, long timeoutNs) {
    super(initialLimit);
    if (minLimit < 1 || minLimit > initialLimit || initialLimit > maxLimit) {
      throw new IllegalArgumentException(
          "limits must satisfy 1 <= min <= initial <= max: "
              + minLimit
              + ", "
              + initialLimit
              + ", "
              + maxLimit);
    }
    if (!(backoffRatio > 0 && backoffRatio < 1) || timeoutNs <= 0) {
      throw new IllegalArgumentException(
          "backoff ratio " + backoffRatio + " or timeout " + timeoutNs + " ns out of range");
    }
    this.initialLimit = initialLimit;
    this.minLimit = minLimit;
    this.maxLimit = maxLimit;
    this.backoffRatio = backoffRatio;
    this.timeoutNs = timeoutNs;
  }

  /** Called under the lock of {@link AbstractLimit#onSample}. */
  @Override
  protected int _update(long startTimeNs, long rttNs, int inFlight, boolean didDrop) {
    int limit = getLimit();
    if (didDrop || rttNs > timeoutNs) {
      boolean sameEvent = decreased && startTimeNs - lastDecreaseNs <= 0;
      if (sameEvent) {
        return limit;
      }
      decreased = true;
      lastDecreaseNs = startTimeNs + rttNs;
      return Math.max(minLimit, (int) (limit * backoffRatio));
    }
    if (limit < initialLimit || inFlight * 2 >= limit) {
      return Math.min(maxLimit, limit + 1);
    }
    return limit;
  }
}

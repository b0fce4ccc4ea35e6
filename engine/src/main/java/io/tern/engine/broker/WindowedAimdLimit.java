package io.tern.engine.broker;

import com.netflix.concurrency.limits.limit.AbstractLimit;

/**
 * Additive increase, multiplicative decrease of the commands a partition takes in flight, decided
 * once per window of commands rather than once per command.
 *
 * <p>A window is {@value #WINDOW_COMMANDS} commands admitted after the last decision, so each
 * decision sees only commands that met the limit it set, and windows are at least a round trip
 * apart. If more than one of them was slower than the timeout (or dropped), the limit is multiplied
 * by the backoff ratio; otherwise it grows by one. The library's AIMD decides on every command
 * instead, and that breaks three ways:
 *
 * <ul>
 *   <li>A stall of the machine (a long fsync, a GC pause) makes every command in flight slow at
 *       once: counted one by one, 64 of them cut the limit by 0.9^64, to its minimum, and the next
 *       burst of a load the partition handles easily is refused. Here they make one window: one
 *       step.
 *   <li>Under overload, the commands still faster than the timeout each add one and outweigh the
 *       decreases: the limit settles where most commands wait longer than the timeout. Here a
 *       congested window only decreases.
 *   <li>A healthy partition whose slowest percent of commands passes the timeout loses a step for
 *       each of them and drifts down. Here one slow command in a window is tolerated.
 * </ul>
 *
 * <p>Below the initial limit every uncongested window grows it, so a partition under a light load
 * regains what stalls took. Above it, growth needs a busy window (half the limit in flight once),
 * so an idle partition does not claim capacity it never showed.
 */
final class WindowedAimdLimit extends AbstractLimit {
  /** Commands per decision; a window with more than one slow command among them is congested. */
  static final int WINDOW_COMMANDS = 10;

  private final int initialLimit;
  private final int minLimit;
  private final int maxLimit;
  private final double backoffRatio;
  private final long timeoutNs;

  // The window being filled; guarded by AbstractLimit.onSample's lock.
  private boolean decided;
  private long lastDecisionNs;
  private int samples;
  private int slow;
  private boolean busy;

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

  /** Called under the lock of {@link AbstractLimit#onSample}; times are {@link System#nanoTime}. */
  @Override
  protected int _update(long startTimeNs, long rttNs, int inFlight, boolean didDrop) {
    int limit = getLimit();
    if (decided && startTimeNs - lastDecisionNs < 0) {
      return limit; // admitted under an older limit: the last decision already saw its like
    }
    samples++;
    if (didDrop || rttNs > timeoutNs) {
      slow++;
    }
    if (inFlight * 2 >= limit) {
      busy = true;
    }
    if (samples < WINDOW_COMMANDS) {
      return limit;
    }
    int next;
    if (slow > 1) {
      next = Math.max(minLimit, (int) (limit * backoffRatio));
    } else if (limit < initialLimit || busy) {
      next = Math.min(maxLimit, limit + 1);
    } else {
      next = limit;
    }
    decided = true;
    lastDecisionNs = startTimeNs + rttNs;
    samples = 0;
    slow = 0;
    busy = false;
    return next;
  }
}

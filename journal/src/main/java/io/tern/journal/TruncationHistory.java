package io.tern.journal;

/**
 * The most recent truncations ({@code deleteAfter}, {@code reset}), so that a reader that has not
 * looked at the journal for a while can tell whether entries it already returned were removed.
 *
 * <p>Written by the writer under the journal's structure lock; read by readers inside an optimistic
 * read of that lock (they validate the stamp before trusting what they read).
 */
final class TruncationHistory {
  /** Truncations remembered; a reader that missed more is told its position was deleted. */
  static final int CAPACITY = 64;

  /** Returned when the history no longer covers a reader's epoch. */
  static final long UNKNOWN = Long.MIN_VALUE;

  private final long[] truncatedAfter = new long[CAPACITY];
  private volatile long epoch;

  long epoch() {
    return epoch;
  }

  void record(long afterIndex) {
    long next = epoch + 1;
    truncatedAfter[(int) (next & (CAPACITY - 1))] = afterIndex;
    epoch = next;
  }

  /**
   * The lowest index after which entries were removed by truncations since {@code sinceEpoch}, or
   * {@link #UNKNOWN} when too many happened to tell.
   */
  long lowestTruncationSince(long sinceEpoch) {
    long current = epoch;
    if (current - sinceEpoch > CAPACITY) {
      return UNKNOWN;
    }
    long lowest = Long.MAX_VALUE;
    for (long e = sinceEpoch + 1; e <= current; e++) {
      lowest = Math.min(lowest, truncatedAfter[(int) (e & (CAPACITY - 1))]);
    }
    return lowest;
  }
}

package io.tern.engine.partition;

import java.util.function.LongSupplier;

/**
 * How far a partition's processor is behind its log: the entries between the last one it read and
 * the commit index, or the last index its log held at start if that is further (a restarted member
 * learns the commit index only from the next leader, and until then would look caught up while its
 * whole local log is still to replay). A member this far behind cannot process soon: it is not
 * ready ({@code /actuator/health/readiness}) and lets caught-up members win elections first.
 *
 * <p>In entries (Raft indexes), not record positions: the positions of entries not read yet are
 * unknown. An entry is a batch of one or more records.
 */
public final class ReplayLag {
  /**
   * Behind by more entries than this, a member counts as replaying. Replay runs at roughly 10-20k
   * records a second on a busy machine, a few records per entry: some 1,000 entries is well under a
   * second of replay, far above what a follower keeping up lags by, and below the 3 s a failover
   * may take.
   */
  public static final long MAX_CAUGHT_UP_LAG_ENTRIES = 1_000;

  private final long startLastIndex;
  private final LongSupplier commitIndex;
  private final LongSupplier lastReadIndex;

  /**
   * @param startLastIndex the last index of the local log when the partition opened
   * @param commitIndex Raft's commit index as this member knows it
   * @param lastReadIndex the processor's last read entry (-1 before its state is recovered)
   */
  public ReplayLag(long startLastIndex, LongSupplier commitIndex, LongSupplier lastReadIndex) {
    this.startLastIndex = startLastIndex;
    this.commitIndex = commitIndex;
    this.lastReadIndex = lastReadIndex;
  }

  /** Entries still to read, 0 when caught up; from any thread. */
  public long entries() {
    long read = lastReadIndex.getAsLong();
    long target = Math.max(commitIndex.getAsLong(), startLastIndex);
    // Before recovery nothing is read: everything up to the target is still to replay.
    return Math.max(0, target - Math.max(read, 0));
  }

  /** Whether the processor is further behind than {@link #MAX_CAUGHT_UP_LAG_ENTRIES}. */
  public boolean replaying() {
    return entries() > MAX_CAUGHT_UP_LAG_ENTRIES;
  }
}

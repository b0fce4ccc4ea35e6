package io.tern.raft;

/**
 * Protocol settings of the Raft core. Time is counted in ticks; the driver decides how long a tick
 * lasts, so the core never reads a clock.
 *
 * @param electionTimeoutTicks a follower that hears no leader for this many ticks (randomized up to
 *     twice as many) starts an election; a leader that cannot reach a majority for this long steps
 *     down (check-quorum)
 * @param heartbeatTicks the leader sends heartbeats every this many ticks
 * @param maxInflightAppends append requests in flight per follower (pipelining)
 * @param maxAppendBatchBytes payload bytes per append request (at least one entry is sent)
 * @param preVote ask for pre-votes before incrementing the term, so a partitioned member cannot
 *     disturb a healthy leader when it comes back
 * @param checkQuorum leaders step down without a majority; followers ignore vote requests while
 *     they hear from a leader
 * @param priorityElection members defer their election while a higher-priority member may win
 * @param preferSnapshotThresholdEntries a follower found (while probing) to need entries further
 *     than this below the leader's latest snapshot gets the snapshot instead, even where the log
 *     still holds them: a replica that joins empty, or comes back far behind, installs the state
 *     instead of replaying every entry through its state machine
 */
public record RaftConfig(
    int electionTimeoutTicks,
    int heartbeatTicks,
    int maxInflightAppends,
    int maxAppendBatchBytes,
    boolean preVote,
    boolean checkQuorum,
    boolean priorityElection,
    long preferSnapshotThresholdEntries) {

  public static final int DEFAULT_ELECTION_TIMEOUT_TICKS = 10;
  public static final int DEFAULT_HEARTBEAT_TICKS = 1;
  public static final int DEFAULT_MAX_INFLIGHT_APPENDS = 4;
  public static final int DEFAULT_MAX_APPEND_BATCH_BYTES = 128 * 1024;
  public static final long DEFAULT_PREFER_SNAPSHOT_THRESHOLD_ENTRIES = 100;

  public static RaftConfig defaults() {
    return new RaftConfig(
        DEFAULT_ELECTION_TIMEOUT_TICKS,
        DEFAULT_HEARTBEAT_TICKS,
        DEFAULT_MAX_INFLIGHT_APPENDS,
        DEFAULT_MAX_APPEND_BATCH_BYTES,
        true,
        true,
        true,
        DEFAULT_PREFER_SNAPSHOT_THRESHOLD_ENTRIES);
  }

  public RaftConfig {
    if (heartbeatTicks < 1 || electionTimeoutTicks <= heartbeatTicks) {
      throw new IllegalArgumentException(
          "raft: need 1 <= heartbeatTicks < electionTimeoutTicks, got "
              + heartbeatTicks
              + " and "
              + electionTimeoutTicks);
    }
    if (maxInflightAppends < 1) {
      throw new IllegalArgumentException(
          "raft: maxInflightAppends must be >= 1, got " + maxInflightAppends);
    }
    if (preferSnapshotThresholdEntries < 0) {
      throw new IllegalArgumentException(
          "raft: preferSnapshotThresholdEntries must be >= 0, got "
              + preferSnapshotThresholdEntries);
    }
    if (maxAppendBatchBytes < 1) {
      throw new IllegalArgumentException(
          "raft: maxAppendBatchBytes must be >= 1, got " + maxAppendBatchBytes);
    }
  }
}

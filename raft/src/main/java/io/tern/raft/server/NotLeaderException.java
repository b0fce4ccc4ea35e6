package io.tern.raft.server;

/** A proposal reached a member that does not lead the partition (or stopped leading it). */
public final class NotLeaderException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int partitionId;
  private final int leaderId;

  public NotLeaderException(int partitionId, int leaderId, String detail) {
    super(
        "partition "
            + partitionId
            + ": "
            + detail
            + (leaderId < 0 ? "; no leader known" : "; the leader is member " + leaderId));
    this.partitionId = partitionId;
    this.leaderId = leaderId;
  }

  public int partitionId() {
    return partitionId;
  }

  /** The leader as far as this member knows, or -1. */
  public int leaderId() {
    return leaderId;
  }
}

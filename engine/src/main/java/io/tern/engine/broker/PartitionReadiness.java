package io.tern.engine.broker;

import io.tern.engine.partition.ReplayLag;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.raft.RaftRole;

/**
 * Whether one local partition lets its broker answer ready, and if not, why. A follower far behind
 * its commit index is not ready: it is still replaying (after a restart, a whole log since its last
 * snapshot), and as the next leader it could not process until it caught up. Calling it ready as
 * soon as it had a role let the chaos suite inject the next fault while it replayed, and made it
 * the slow new leader of 7-31 s failovers.
 */
final class PartitionReadiness {
  private PartitionReadiness() {}

  /**
   * @param lagEntries entries between the processor's last read one and the commit index (see
   *     {@link ReplayLag})
   * @return what keeps the partition from being ready, or null when it is
   */
  static String problem(
      int partitionId, RaftRole role, ProcessorPhase phase, boolean failed, long lagEntries) {
    String partition = "partition " + partitionId;
    if (phase == ProcessorPhase.FAILED || failed) {
      return partition + " failed";
    }
    if (role != RaftRole.LEADER && role != RaftRole.FOLLOWER) {
      return partition + " has no role yet (" + role + ")";
    }
    if (role == RaftRole.LEADER
        && phase != ProcessorPhase.PROCESSING
        && phase != ProcessorPhase.PAUSED) {
      return partition
          + " leads but does not process yet ("
          + phase
          + ", "
          + lagEntries
          + " entries behind the commit index)";
    }
    if (role == RaftRole.FOLLOWER && lagEntries > ReplayLag.MAX_CAUGHT_UP_LAG_ENTRIES) {
      return partition + " replaying: " + lagEntries + " entries behind the commit index";
    }
    return null;
  }
}

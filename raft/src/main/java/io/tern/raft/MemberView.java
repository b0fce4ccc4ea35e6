package io.tern.raft;

/**
 * The configuration in force as one member sees it, computed once per configuration change so that
 * the hot paths (heartbeats, commit counting) read plain arrays.
 */
final class MemberView {
  final Membership membership;

  /** Everyone but this member, voters and learners, by id: whom a leader replicates to. */
  final int[] peers;

  /** The voters but this member: whom a candidate asks for votes. */
  final int[] voterPeers;

  /** Whether this member votes, campaigns and counts for commit. */
  final boolean selfVoter;

  /** Voters with a higher priority than this member: how many election slots it lets pass first. */
  final int priorityRank;

  final boolean distinctPriorities;

  /** Reused by commit counting, which runs on every acknowledgement: one slot per voter. */
  final long[] matchedScratch;

  MemberView(Membership membership, int selfId) {
    this.membership = membership;
    this.peers = membership.peersOf(selfId);
    this.voterPeers = membership.votersBut(selfId);
    this.selfVoter = membership.isVoter(selfId);
    Member self = membership.member(selfId);
    int priority = self == null ? Integer.MIN_VALUE : self.priority();
    this.priorityRank =
        (int) membership.voters().stream().filter(m -> m.priority() > priority).count();
    this.distinctPriorities =
        membership.voters().stream().mapToInt(Member::priority).distinct().count() > 1;
    this.matchedScratch = new long[membership.voters().size()];
  }

  boolean isVoter(int id) {
    return membership.isVoter(id);
  }

  int quorum() {
    return membership.quorum();
  }
}

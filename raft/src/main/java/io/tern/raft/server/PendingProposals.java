package io.tern.raft.server;

import io.tern.raft.RaftNode;
import io.tern.raft.RaftRole;
import io.tern.raft.storage.JournalRaftLog;
import java.util.ArrayDeque;

/**
 * One partition's proposals from the Raft thread taking them to their answer: appended by the core
 * (or refused when this member does not lead in the proposal's term), then completed once their
 * entry commits, or failed when leadership is lost or their entry was replaced. Raft thread only.
 *
 * <p>An answer is only given for the entry this member appended: a leader deposed in the same step
 * that brought the commit may have had its entries replaced by the new leader's, so each proposal's
 * index is checked against the term it was appended in.
 */
final class PendingProposals {
  private final int partitionId;
  private final RaftNode node;
  private final JournalRaftLog log;
  private final RaftMetrics metrics;
  private final ArrayDeque<Proposal> awaitingCommit = new ArrayDeque<>();

  PendingProposals(int partitionId, RaftNode node, JournalRaftLog log, RaftMetrics metrics) {
    this.partitionId = partitionId;
    this.node = node;
    this.log = log;
    this.metrics = metrics;
  }

  /** Hands {@code proposal} to the core, or fails it if this member may not append it. */
  void append(Proposal proposal) {
    boolean termMatches = proposal.term == Proposal.ANY_TERM || proposal.term == node.term();
    long index = termMatches ? node.propose(proposal.asqn, proposal.data) : -1;
    if (index < 0) {
      proposal.future.completeExceptionally(
          new NotLeaderException(
              partitionId,
              node.leaderId(),
              !termMatches
                  ? "the entry was meant for term " + proposal.term + ", now " + node.term()
                  : node.role() == RaftRole.LEADER
                      ? "the leader is handing leadership over"
                      : "this member is not the leader"));
    } else {
      proposal.index = index;
      proposal.appendedTerm = node.term();
      awaitingCommit.add(proposal);
    }
  }

  /**
   * Completes the proposals at or below {@code committedIndex} whose entry is still the one this
   * member appended. A leader deposed in the same step that brought the commit may have had its
   * entries replaced by the new leader's: their indexes committed, but with other entries.
   */
  void resolve(long committedIndex) {
    long now = System.nanoTime();
    Proposal proposal;
    while ((proposal = awaitingCommit.peek()) != null && proposal.index <= committedIndex) {
      awaitingCommit.poll();
      long termNow = log.term(proposal.index);
      if (termNow == proposal.appendedTerm) {
        metrics.committed(proposal.proposedAtNs, now);
        proposal.future.complete(proposal.index);
      } else {
        proposal.future.completeExceptionally(
            new NotLeaderException(
                partitionId,
                node.leaderId(),
                termNow < 0
                    ? "leadership was lost and entry "
                        + proposal.index
                        + " was compacted into a snapshot before it could be checked; it may"
                        + " have committed"
                    : "entry "
                        + proposal.index
                        + " was replaced by the next leader's entry (term "
                        + termNow
                        + "); it did not commit"));
      }
    }
  }

  /** Fails every proposal still awaiting its commit with {@code cause}. */
  void failAll(RuntimeException cause) {
    Proposal proposal;
    while ((proposal = awaitingCommit.poll()) != null) {
      proposal.future.completeExceptionally(cause);
    }
  }
}

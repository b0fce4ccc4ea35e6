package io.tern.raft;

import java.util.List;

/** Messages between the members of one Raft group. Every message carries its sender's term. */
public sealed interface RaftMessage {
  int from();

  int to();

  long term();

  /**
   * Replicates entries after {@code prevIndex} (Raft figure 2), or is a heartbeat when empty.
   * {@code sequence} lets the leader match responses to in-flight requests of a pipeline.
   */
  record AppendRequest(
      int from,
      int to,
      long term,
      long prevIndex,
      long prevTerm,
      List<RaftEntry> entries,
      long commitIndex)
      implements RaftMessage {
    public long lastIndex() {
      return prevIndex + entries.size();
    }
  }

  /**
   * Success: the follower's log matches the leader's up to {@code index} and is persisted that far.
   * Failure: the log did not match at {@code index} (the request's prevIndex); {@code hint} is
   * where the follower suggests to retry from (its last index, or the last index before the
   * conflicting term), so the leader backs off a whole term at a time instead of one entry.
   */
  record AppendResponse(int from, int to, long term, boolean success, long index, long hint)
      implements RaftMessage {}

  /**
   * Asks for a vote. A pre-vote ({@code preVote}) asks whether the voter would vote at {@code term}
   * without changing anyone's term. {@code transfer} marks an election started by a leadership
   * transfer, which voters grant even though they heard from the leader recently.
   */
  record VoteRequest(
      int from, int to, long term, long lastIndex, long lastTerm, boolean preVote, boolean transfer)
      implements RaftMessage {}

  record VoteResponse(int from, int to, long term, boolean granted, boolean preVote)
      implements RaftMessage {}

  /** Leadership transfer: the leader tells a caught-up member to start an election at once. */
  record TimeoutNow(int from, int to, long term) implements RaftMessage {}
}

package io.tern.raft;

/** What must be durable before a member acts on it: its term and whom it voted for in it. */
public record HardState(long term, int votedFor) {
  public static final int NO_VOTE = -1;
  public static final HardState INITIAL = new HardState(0, NO_VOTE);
}

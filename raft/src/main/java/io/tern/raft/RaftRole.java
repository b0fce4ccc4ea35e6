package io.tern.raft;

public enum RaftRole {
  FOLLOWER,
  /** Asking for pre-votes; the term is not incremented until a majority would vote. */
  PRE_CANDIDATE,
  CANDIDATE,
  LEADER
}

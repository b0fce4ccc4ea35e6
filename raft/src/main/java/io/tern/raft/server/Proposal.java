package io.tern.raft.server;

import java.util.concurrent.CompletableFuture;

/** An entry on its way from a client thread to the log, and then to its commit. */
final class Proposal {
  /** The only term in which the entry may be appended, or {@link #ANY_TERM}. */
  static final long ANY_TERM = -1;

  final long term;
  final long asqn;
  final byte[] data;
  final CompletableFuture<Long> future = new CompletableFuture<>();
  final long proposedAtNs;
  long index;

  /** The leader's term when the entry was appended at {@link #index}. */
  long appendedTerm;

  Proposal(long term, long asqn, byte[] data, long proposedAtNs) {
    this.term = term;
    this.asqn = asqn;
    this.data = data;
    this.proposedAtNs = proposedAtNs;
  }
}

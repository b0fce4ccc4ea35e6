package io.tern.raft.server;

import java.util.concurrent.CompletableFuture;

/** An entry on its way from a client thread to the log, and then to its commit. */
final class Proposal {
  final long asqn;
  final byte[] data;
  final CompletableFuture<Long> future = new CompletableFuture<>();
  final long proposedAtNs;
  long index;

  Proposal(long asqn, byte[] data, long proposedAtNs) {
    this.asqn = asqn;
    this.data = data;
    this.proposedAtNs = proposedAtNs;
  }
}

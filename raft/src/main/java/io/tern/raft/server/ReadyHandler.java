package io.tern.raft.server;

import io.tern.raft.Membership;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftNode;
import io.tern.raft.RaftRole;
import io.tern.raft.Ready;
import io.tern.raft.SnapshotMeta;
import io.tern.raft.transport.RaftTransport;
import java.util.List;

/**
 * Carries out what a partition's {@link RaftNode} has ready, on the partition's Raft thread, in the
 * order {@link Ready} demands: hard state forced, then messages sent, then the log handed to the
 * flush mode, then commits applied; and publishes the resulting role, term, leader, commit and last
 * index for other threads to read, telling the state machine of each change.
 */
final class ReadyHandler {
  private static final int MAX_READY_ROUNDS = 64;

  private final int partitionId;
  private final RaftNode node;
  private final PartitionStorage storage;
  private final RaftTransport transport;
  private final StateMachine stateMachine;
  private final PartitionFlushes flushes;
  private final PartitionSnapshots snapshots;
  private final PendingProposals pending;
  private final RaftMetrics metrics;

  private volatile RaftRole role = RaftRole.FOLLOWER;
  private volatile long term;
  private volatile int leaderId = RaftNode.NO_LEADER;
  private volatile long commitIndex;
  private volatile long lastIndex;

  /** Published together: a reader must not pair a configuration with another's commit state. */
  private record Configuration(Membership membership, boolean pending) {}

  private volatile Configuration configuration;
  private long appliedCommit; // Raft thread only

  ReadyHandler(
      int partitionId,
      RaftNode node,
      PartitionStorage storage,
      RaftTransport transport,
      StateMachine stateMachine,
      PartitionFlushes flushes,
      PartitionSnapshots snapshots,
      PendingProposals pending,
      RaftMetrics metrics,
      long snapshotIndex) {
    this.partitionId = partitionId;
    this.node = node;
    this.storage = storage;
    this.transport = transport;
    this.stateMachine = stateMachine;
    this.flushes = flushes;
    this.snapshots = snapshots;
    this.pending = pending;
    this.metrics = metrics;
    this.appliedCommit = snapshotIndex;
    this.commitIndex = snapshotIndex;
    this.lastIndex = storage.log.lastIndex();
    this.configuration = new Configuration(node.membership(), node.configChangePending());
  }

  /** The configuration in force on this member, as of its last turn. */
  Membership membership() {
    return configuration.membership();
  }

  /** Whether that configuration is not committed yet. */
  boolean configChangePending() {
    return configuration.pending();
  }

  RaftRole role() {
    return role;
  }

  long term() {
    return term;
  }

  int leaderId() {
    return leaderId;
  }

  long commitIndex() {
    return commitIndex;
  }

  long lastIndex() {
    return lastIndex;
  }

  /** The highest index committed and handed to the state machine (Raft thread only). */
  long appliedCommit() {
    return appliedCommit;
  }

  /**
   * Hands out what the core has ready, round after round, until a round brings nothing new. Returns
   * false if it stopped at {@link #MAX_READY_ROUNDS} with more to do.
   */
  boolean handOut() {
    for (int round = 0; round < MAX_READY_ROUNDS; round++) {
      Ready ready = node.ready();
      // Entries appended since the last round reach the page cache (which survives a process
      // crash) before any message about them leaves, and become visible to the flush thread and
      // the state machine's readers.
      storage.journal.publish();
      boolean again = false;
      if (ready.hardState() != null) {
        storage.hardState.store(ready.hardState()); // forced before any message acts on it
      }
      List<RaftMessage> messages = ready.messages();
      for (int i = 0; i < messages.size(); i++) { // no iterator: this runs every turn
        transport.send(partitionId, messages.get(i));
      }
      if (ready.installedSnapshot() != null) {
        onSnapshotInstalled(ready.installedSnapshot());
      }
      if (ready.persistUpTo() >= 0) {
        again = flushes.persist(ready.persistUpTo());
      }
      // Commits first: a leader that lost leadership in the same turn still completes what it
      // saw commit (if the entry there is still its own), and fails only the rest.
      if (ready.commitIndex() > appliedCommit) {
        onCommitted(ready.commitIndex());
      }
      publish(ready);
      if (!again && messages.isEmpty() && ready.hardState() == null) {
        return true;
      }
    }
    return false;
  }

  private void publish(Ready ready) {
    boolean roleChanged = ready.role() != role || ready.term() != term;
    if (ready.role() != role) {
      if (ready.role() == RaftRole.CANDIDATE) {
        metrics.electionStarted();
      }
      if (role == RaftRole.LEADER) {
        pending.failAll(
            new NotLeaderException(
                partitionId,
                ready.leaderId(),
                "leadership was lost before the entry committed; it may still commit"));
      }
      role = ready.role();
    }
    if (ready.leaderId() != leaderId) {
      if (ready.leaderId() != RaftNode.NO_LEADER) {
        metrics.leaderChanged();
      }
      leaderId = ready.leaderId();
    }
    term = ready.term();
    Configuration known = configuration;
    if (known.membership() != ready.membership()
        || known.pending() != ready.configChangePending()) {
      configuration = new Configuration(ready.membership(), ready.configChangePending());
    }
    long appendedBefore = lastIndex;
    lastIndex = node.lastIndex();
    if (roleChanged) {
      stateMachine.onRoleChange(role, term, lastIndex);
    } else if (role == RaftRole.LEADER && lastIndex > appendedBefore) {
      stateMachine.onAppended(lastIndex); // published at the start of this turn
    }
  }

  private void onCommitted(long newCommitIndex) {
    pending.resolve(newCommitIndex);
    appliedCommit = newCommitIndex;
    commitIndex = newCommitIndex;
    stateMachine.onCommit(newCommitIndex);
  }

  private void onSnapshotInstalled(SnapshotMeta meta) {
    snapshots.onInstalled(meta);
    pending.resolve(meta.index());
    appliedCommit = meta.index();
    commitIndex = meta.index();
    stateMachine.onSnapshotInstalled(meta, storage.snapshots.latestDirectory());
  }
}

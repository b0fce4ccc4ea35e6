package io.tern.raft.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tern.raft.ConfigChange;
import io.tern.raft.Member;
import io.tern.raft.Membership;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.SnapshotChunk;
import io.tern.raft.RaftNode;
import io.tern.raft.RaftRole;
import io.tern.raft.Ready;
import io.tern.raft.SnapshotMeta;
import io.tern.raft.transport.RaftTransport;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member of one partition's Raft group: the pure {@link RaftNode} driven by one of the broker's
 * Raft threads (a {@link DutyLoop} it shares with other partitions), over the partition's journal,
 * snapshots and durable term/vote, sending through the broker's shared transport. Only that thread
 * touches the core; other threads talk to it through queues (inbound messages, proposals, commands)
 * and read published state.
 *
 * <p>Each turn: take what arrived, report flushed entries, tick when due, then carry out {@link
 * Ready} in the order it demands: hard state forced, then messages sent, then the log handed to the
 * flush mode, then commits applied. A turn does a bounded amount of work, so partitions sharing a
 * thread take turns fairly.
 *
 * <p>This class is the turn and the published state; the jobs around it have their own classes:
 * {@link PartitionInbox} (what other threads hand in), {@link PendingProposals} (proposals until
 * their answer), {@link ReadyHandler} (carrying out what the core has ready, and the state it
 * publishes), {@link PartitionFlushes} (the flush mode), {@link PartitionSnapshots} (taking and
 * receiving snapshots), {@link RaftMetrics} and {@link PartitionShutdown} (closing without pulling
 * the storage from under a running turn).
 */
public final class RaftPartition implements DutyLoop.Duty, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RaftPartition.class);
  private static final int MAX_DRAIN_PER_TURN = 4096;

  private final int partitionId;
  private final int memberId;
  private final RaftTransport transport;
  private final StateMachine stateMachine;
  private final PartitionStorage storage;
  private final RaftNode node;
  private final RaftMetrics metrics;
  private final PartitionInbox inbox;
  private final PendingProposals pending;
  private final PartitionFlushes flushes;
  private final PartitionSnapshots snapshots;
  private final PartitionShutdown shutdown;
  private final ReadyHandler readyHandler;
  private boolean readyPending; // Raft thread only: the core may have something to hand out
  private final DutyLoop loop;
  private final long tickNs;

  private volatile Throwable failure;

  // Raft thread only.
  private boolean started;
  private long nextTickNs;

  RaftPartition(
      int partitionId,
      int memberId,
      List<Member> members,
      RaftServerConfig config,
      RaftTransport transport,
      StateMachine stateMachine,
      MeterRegistry registry,
      long seed,
      DutyLoop loop,
      Supplier<DutyLoop> flushLoop) {
    this.partitionId = partitionId;
    this.memberId = memberId;
    this.transport = transport;
    this.stateMachine = stateMachine;
    this.tickNs = TimeUnit.MILLISECONDS.toNanos(config.tickMs());
    Tags tags = Tags.of("partition", Integer.toString(partitionId));
    this.storage = new PartitionStorage(config, partitionId, registry, tags);
    long snapshotIndex = storage.snapshotIndex();
    this.node =
        new RaftNode(
            config.raftConfig(),
            memberId,
            members,
            storage.log,
            storage.snapshots,
            storage.hardState.load(),
            storage.log.lastIndex(),
            snapshotIndex,
            new Random(seed));
    this.metrics = new RaftMetrics(registry, tags, this, node.peers());
    this.loop = loop;
    this.flushes =
        new PartitionFlushes(config, members.size(), storage.journal, node, flushLoop, loop::wake);
    this.inbox =
        new PartitionInbox(
            partitionId, config.maxPendingProposals(), loop, metrics, this::closedException);
    this.pending = new PendingProposals(partitionId, node, storage.log, metrics);
    this.snapshots = new PartitionSnapshots(partitionId, memberId, config, storage, node, metrics);
    this.shutdown = new PartitionShutdown(partitionId, loop, inbox, flushes, storage);
    this.readyHandler =
        new ReadyHandler(
            partitionId,
            node,
            storage,
            transport,
            stateMachine,
            flushes,
            snapshots,
            pending,
            metrics,
            snapshotIndex);
    loop.add(this);
  }

  // ---------------------------------------------------------------- API for other threads

  /**
   * Proposes an entry; the future completes with its index once committed, or fails with {@link
   * NotLeaderException} if this member does not lead (or stops leading before the commit: the entry
   * may then still commit under the next leader), or {@link IllegalStateException} when the
   * proposal queue is full. The log takes {@code data} as it is, without a copy (recent entries are
   * sent to followers from it): it must not be modified after this call.
   */
  public CompletableFuture<Long> propose(long asqn, byte[] data) {
    return propose(Proposal.ANY_TERM, asqn, data);
  }

  /**
   * Proposes an entry that may only be appended while this member leads in {@code term}; fails with
   * {@link NotLeaderException} otherwise. A writer that numbers entries (the log stream's
   * positions) learned the numbering in that term, so an entry accepted in a later term could clash
   * with what another leader wrote in between.
   */
  public CompletableFuture<Long> propose(long term, long asqn, byte[] data) {
    Proposal proposal = new Proposal(term, asqn, data, System.nanoTime());
    inbox.offer(proposal);
    return proposal.future;
  }

  /** Proposes an entry without an application sequence number. */
  public CompletableFuture<Long> propose(byte[] data) {
    return propose(RaftEntry.NO_ASQN, data);
  }

  /**
   * Starts handing leadership to {@code target}. Completes with false if this member does not lead
   * or {@code target} is not a member; with true once the transfer started (not finished: watch
   * {@link #leaderId()}).
   */
  public CompletableFuture<Boolean> transferLeadership(int target) {
    CompletableFuture<Boolean> result = new CompletableFuture<>();
    inbox.submit(() -> result.complete(node.transferLeadership(target)), result);
    return result;
  }

  /**
   * Proposes a change of this partition's configuration (see {@link RaftNode#proposeConfigChange}
   * and docs/raft.md, "Membership changes"): completes with what the core answered, {@link
   * ConfigChange.Status#ACCEPTED} with the index of the configuration entry, or why not. An
   * accepted change is committed once {@link #configChangePending()} reads false with {@link
   * #membership()} showing it (or {@link #commitIndex()} reaches its index).
   */
  public CompletableFuture<ConfigChange.Result> changeMembership(ConfigChange change) {
    CompletableFuture<ConfigChange.Result> result = new CompletableFuture<>();
    inbox.submit(() -> result.complete(node.proposeConfigChange(change)), result);
    return result;
  }

  /**
   * What this member knows of its group, read together on the Raft thread (so that the
   * configuration and whether it is committed belong together).
   *
   * @param leading whether this member leads
   * @param membership the configuration in force on this member
   * @param pending whether it is not committed yet
   * @param peerMatchIndex as leader, how far {@code peer}'s log is known to match (how far a
   *     learner caught up); -1 otherwise
   * @param commitIndex this member's commit index
   */
  public record MembershipView(
      boolean leading,
      Membership membership,
      boolean pending,
      long peerMatchIndex,
      long commitIndex) {}

  /** This member's {@link MembershipView}, with {@code peer}'s match index. */
  public CompletableFuture<MembershipView> membershipView(int peer) {
    CompletableFuture<MembershipView> result = new CompletableFuture<>();
    inbox.submit(
        () ->
            result.complete(
                new MembershipView(
                    node.role() == io.tern.raft.RaftRole.LEADER,
                    node.membership(),
                    node.configChangePending(),
                    node.matchIndex(peer),
                    node.commitIndex())),
        result);
    return result;
  }

  /**
   * Takes a snapshot of the state after entry {@code index} (committed and applied by the caller),
   * written by {@code content}, then compacts the log keeping {@code compactionTailEntries}. Runs
   * on the Raft thread, which it blocks while {@code content} writes, together with the other
   * partitions sharing that thread: {@code content} should move files prepared (and forced)
   * beforehand into place. A leader blocked for an election timeout lets a follower take over.
   */
  public CompletableFuture<SnapshotMeta> takeSnapshot(long index, SnapshotContent content) {
    CompletableFuture<SnapshotMeta> result = new CompletableFuture<>();
    inbox.submit(
        () -> result.complete(snapshots.take(index, content, readyHandler.appliedCommit())),
        result);
    return result;
  }

  /**
   * Bounds the compaction after each snapshot: no entry after the index {@code bound} answers is
   * deleted (the state machine still needs them, e.g. for exporters that have not acknowledged
   * them). Called on the Raft thread when a snapshot was taken; {@code Long.MAX_VALUE}, the
   * default, leaves compaction to the snapshots and {@code compactionTailEntries}, 0 keeps the
   * whole log.
   */
  public void setCompactionBound(java.util.function.LongSupplier bound) {
    snapshots.setCompactionBound(bound);
  }

  /**
   * Defers this member's elections while {@code deferred} answers true (see {@link
   * RaftNode#deferElectionWhile}); {@code deferred} is called on the Raft thread on every tick and
   * must be cheap and thread-safe.
   */
  public void deferElectionWhile(java.util.function.BooleanSupplier deferred) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    inbox.submit(
        () -> {
          node.deferElectionWhile(deferred);
          done.complete(null);
        },
        done);
  }

  /**
   * The core's view of replication (see {@link RaftNode#describeReplication()}), read on the Raft
   * thread; for diagnosing stalls, not for parsing.
   */
  public CompletableFuture<String> describeReplication() {
    CompletableFuture<String> result = new CompletableFuture<>();
    inbox.submit(() -> result.complete(node.describeReplication()), result);
    return result;
  }

  /** Called by the transport's threads; drops the message if the partition is overwhelmed. */
  void deliver(RaftMessage message) {
    inbox.deliver(message);
  }

  public int partitionId() {
    return partitionId;
  }

  public int memberId() {
    return memberId;
  }

  public RaftRole role() {
    return readyHandler.role();
  }

  public long term() {
    return readyHandler.term();
  }

  /** The leader this member knows of, or -1. */
  public int leaderId() {
    return readyHandler.leaderId();
  }

  public long commitIndex() {
    return readyHandler.commitIndex();
  }

  public long lastIndex() {
    return readyHandler.lastIndex();
  }

  /**
   * The configuration in force on this member as of its last turn (voters and learners); a replica
   * added to a group shows the bootstrap group until the leader's log or snapshot reaches it.
   */
  public Membership membership() {
    return readyHandler.membership();
  }

  /** Whether {@link #membership()} is not committed yet (as this member knows). */
  public boolean configChangePending() {
    return readyHandler.configChangePending();
  }

  /** Why the partition stopped, or null while it runs. */
  public Throwable failure() {
    return failure;
  }

  /** The journal holding this partition's log (for readers such as the stream processor). */
  public io.tern.journal.Journal journal() {
    return storage.journal;
  }

  /** Whether a file of the latest snapshot failed its CRC while being sent to a follower. */
  public boolean latestSnapshotIsCorrupt() {
    return storage.snapshots.latestIsCorrupt();
  }

  /** The latest snapshot's directory, to recover the state machine from at start, or null. */
  public Path latestSnapshotDirectory() {
    return storage.snapshots.latestDirectory();
  }

  // ---------------------------------------------------------------- the Raft thread

  @Override
  public int doWork(long nowNs) {
    if (!inbox.isRunning()) {
      return 0; // closing: the loop drops this partition before its next turn
    }
    if (!started) {
      started = true;
      nextTickNs = nowNs + tickNs;
      readyPending = !readyHandler.handOut(); // the state recovered from disk, before any message
    }
    int work = drainInbound() + drainProposals() + inbox.runCommands() + flushes.reportFlushed();
    if (nowNs - nextTickNs >= 0) {
      node.tick();
      nextTickNs = nowNs + tickNs;
      metrics.followerLag(node);
      work++;
    }
    // The core changes only when fed (above): a turn that fed it nothing has nothing to hand out.
    // Skipping it matters with many partitions per thread, where every wake-up of the thread gives
    // each of them a turn, and idle turns' Ready objects and iterators were most of the garbage.
    if (work > 0 || readyPending) {
      readyPending = !readyHandler.handOut();
      if (readyPending) {
        work++; // more rounds due: take another turn rather than park
      }
    }
    flushes.checkFailure();
    return work;
  }

  @Override
  public long deadlineNs() {
    return nextTickNs; // set by the first turn, which always comes before this is asked
  }

  @Override
  public boolean hasPendingWork() {
    return readyPending || !inbox.isEmpty() || flushes.flushedAhead();
  }

  @Override
  public void onFailure(Throwable cause) {
    LOG.error("Raft partition {} on member {} failed and stopped", partitionId, memberId, cause);
    failure = cause;
    inbox.stop();
  }

  @Override
  public void onRemoved() {
    pending.failAll(closedException());
    inbox.dropQueued();
  }

  private int drainInbound() {
    int count = 0;
    RaftMessage message;
    while (count < MAX_DRAIN_PER_TURN && (message = inbox.pollMessage()) != null) {
      count++;
      try {
        if (message instanceof AppendRequest request && !request.entries().isEmpty()) {
          long start = System.nanoTime();
          node.step(message); // copies the entries into the journal: the core keeps none
          metrics.appended(System.nanoTime() - start);
        } else {
          if (message instanceof SnapshotChunk chunk) {
            snapshots.onChunk(chunk);
          }
          node.step(message);
        }
      } finally {
        message.release();
      }
    }
    return count;
  }

  private int drainProposals() {
    int count = 0;
    Proposal proposal;
    while (count < MAX_DRAIN_PER_TURN && (proposal = inbox.pollProposal()) != null) {
      count++;
      pending.append(proposal);
    }
    return count;
  }

  private IllegalStateException closedException() {
    return new IllegalStateException(
        "partition " + partitionId + " on member " + memberId + " is closed", failure);
  }

  /**
   * Stops this partition's turns on its Raft thread and closes the partition's storage. A turn
   * still running {@link CloseWaits#CLOSE_WAIT_NS} after closing began keeps the storage open: it
   * is closed once that turn ends, not under it.
   */
  @Override
  public void close() {
    close(CloseWaits.CLOSE_WAIT_NS);
  }

  /** As {@link #close()}, waiting at most {@code turnWaitNs} for a running turn (tests: less). */
  void close(long turnWaitNs) {
    shutdown.close(this, turnWaitNs);
  }

  @Override
  public String toString() {
    return "RaftPartition{" + partitionId + "@" + memberId + " " + role() + " term=" + term() + "}";
  }
}

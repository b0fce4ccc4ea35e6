package io.tern.raft.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tern.raft.Member;
import io.tern.raft.RaftEntry;
import io.tern.raft.RaftMessage;
import io.tern.raft.RaftMessage.AppendRequest;
import io.tern.raft.RaftMessage.SnapshotChunk;
import io.tern.raft.RaftNode;
import io.tern.raft.RaftRole;
import io.tern.raft.Ready;
import io.tern.raft.SnapshotMeta;
import io.tern.raft.snapshot.SnapshotWriter;
import io.tern.raft.transport.RaftTransport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
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
 */
public final class RaftPartition implements DutyLoop.Duty, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RaftPartition.class);
  private static final int INBOUND_QUEUE_CAPACITY = 16 * 1024;
  private static final int MAX_READY_ROUNDS = 64;
  private static final int MAX_DRAIN_PER_TURN = 4096;

  private final int partitionId;
  private final int memberId;
  private final RaftServerConfig config;
  private final RaftTransport transport;
  private final StateMachine stateMachine;
  private final PartitionStorage storage;
  private final RaftNode node;
  private final Flusher flusher;
  private final boolean flushesInline;
  private final RaftMetrics metrics;
  private final int[] peers;
  private final ManyToOneConcurrentArrayQueue<RaftMessage> inbound =
      new ManyToOneConcurrentArrayQueue<>(INBOUND_QUEUE_CAPACITY);
  private final ManyToOneConcurrentArrayQueue<Proposal> proposals;
  private final ConcurrentLinkedQueue<Command> commands = new ConcurrentLinkedQueue<>();
  // Messages, proposals and commands being handed in by other threads right now (see close()).
  private final AtomicInteger handOffsInProgress = new AtomicInteger();
  private boolean readyPending; // Raft thread only: the core may have something to hand out
  private final ArrayDeque<Proposal> awaitingCommit = new ArrayDeque<>();
  private final DutyLoop loop;
  private final long tickNs;

  private volatile boolean running = true;
  private volatile RaftRole role = RaftRole.FOLLOWER;
  private volatile long term;
  private volatile int leaderId = RaftNode.NO_LEADER;
  private volatile long commitIndex;
  private volatile long lastIndex;
  private volatile Throwable failure;

  // Raft thread only.
  private boolean started;
  private long nextTickNs;
  private long appliedCommit;
  private long snapshotReceiveStartNs;
  private long snapshotReceivedBytes;

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
    this.config = config;
    this.transport = transport;
    this.stateMachine = stateMachine;
    this.proposals = new ManyToOneConcurrentArrayQueue<>(config.maxPendingProposals());
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
    this.appliedCommit = snapshotIndex;
    this.commitIndex = snapshotIndex;
    this.lastIndex = storage.log.lastIndex();
    this.peers = node.peers();
    this.metrics = new RaftMetrics(registry, tags, this, peers);
    this.loop = loop;
    // A group of one has no follower to keep replicating to while a flush runs, so in sync mode its
    // Raft thread flushes itself: handing each flush to a thread and back only adds two wake-ups
    // (about 0.2 ms per created instance in the one-at-a-time load benchmark on a 2-core VM).
    this.flushesInline = config.flushMode() == FlushMode.SYNC && members.size() == 1;
    this.flusher =
        config.flushMode() == FlushMode.OFF || flushesInline
            ? null
            : new Flusher(
                flushLoop.get(),
                storage.journal,
                // Async acknowledges without waiting, so its background flushes need not chase
                // every append: pacing them by the delay saves a core's worth of msync calls.
                config.flushMode() == FlushMode.SYNC ? 0 : config.flushDelayMs(),
                this::wake);
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
    handOffsInProgress.incrementAndGet(); // before `running` is read: see close()
    try {
      offer(proposal);
    } finally {
      handOffsInProgress.decrementAndGet();
    }
    return proposal.future;
  }

  private void offer(Proposal proposal) {
    if (!running) {
      proposal.future.completeExceptionally(closedException());
    } else if (!proposals.offer(proposal)) {
      metrics.proposalRefused();
      proposal.future.completeExceptionally(
          new IllegalStateException(
              "partition "
                  + partitionId
                  + ": "
                  + proposals.capacity()
                  + " proposals are already queued (maxPendingProposals, rounded up to a power"
                  + " of two); retry later"));
    } else {
      wake();
    }
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
    submit(() -> result.complete(node.transferLeadership(target)), result);
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
    submit(() -> result.complete(snapshotNow(index, content)), result);
    return result;
  }

  /**
   * The core's view of replication (see {@link RaftNode#describeReplication()}), read on the Raft
   * thread; for diagnosing stalls, not for parsing.
   */
  public CompletableFuture<String> describeReplication() {
    CompletableFuture<String> result = new CompletableFuture<>();
    submit(() -> result.complete(node.describeReplication()), result);
    return result;
  }

  /** Work for the Raft thread and the future it completes (failed if the partition stops first). */
  private record Command(Runnable body, CompletableFuture<?> result) {
    void run() {
      try {
        body.run();
      } catch (RuntimeException e) {
        result.completeExceptionally(e);
      } catch (Error e) {
        result.completeExceptionally(e);
        throw e; // the partition stops (see onFailure)
      }
    }
  }

  private void submit(Runnable body, CompletableFuture<?> result) {
    handOffsInProgress.incrementAndGet(); // before `running` is read: see close()
    try {
      if (!running) {
        result.completeExceptionally(closedException());
        return;
      }
      commands.add(new Command(body, result));
      wake();
    } finally {
      handOffsInProgress.decrementAndGet();
    }
  }

  /** Called by the transport's threads; drops the message if the partition is overwhelmed. */
  void deliver(RaftMessage message) {
    // Counted before `running` is read, so that close() (which clears `running` first, then waits
    // for this count to reach 0) either makes this call drop the message or drains it after.
    handOffsInProgress.incrementAndGet();
    try {
      if (!running) {
        message.release();
      } else if (inbound.offer(message)) {
        wake();
      } else {
        metrics.inboundDropped(); // Raft retransmits; dropping keeps memory bounded
        message.release();
      }
    } finally {
      handOffsInProgress.decrementAndGet();
    }
  }

  private void wake() {
    loop.wake();
  }

  public int partitionId() {
    return partitionId;
  }

  public int memberId() {
    return memberId;
  }

  public RaftRole role() {
    return role;
  }

  public long term() {
    return term;
  }

  /** The leader this member knows of, or -1. */
  public int leaderId() {
    return leaderId;
  }

  public long commitIndex() {
    return commitIndex;
  }

  public long lastIndex() {
    return lastIndex;
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
    if (!running) {
      return 0; // closing: the loop drops this partition before its next turn
    }
    if (!started) {
      started = true;
      nextTickNs = nowNs + tickNs;
      readyPending = !handleReady(); // the state recovered from disk, before any message
    }
    int work = drainInbound() + drainProposals() + drainCommands() + reportFlushed();
    if (nowNs - nextTickNs >= 0) {
      node.tick();
      nextTickNs = nowNs + tickNs;
      publishFollowerLag();
      work++;
    }
    // The core changes only when fed (above): a turn that fed it nothing has nothing to hand out.
    // Skipping it matters with many partitions per thread, where every wake-up of the thread gives
    // each of them a turn, and idle turns' Ready objects and iterators were most of the garbage.
    if (work > 0 || readyPending) {
      readyPending = !handleReady();
      if (readyPending) {
        work++; // more rounds due: take another turn rather than park
      }
    }
    if (flusher != null && flusher.failure() != null) {
      throw new IllegalStateException("the journal flush failed", flusher.failure());
    }
    return work;
  }

  @Override
  public long deadlineNs() {
    return nextTickNs; // set by the first turn, which always comes before this is asked
  }

  @Override
  public boolean hasPendingWork() {
    return readyPending
        || !inbound.isEmpty()
        || !proposals.isEmpty()
        || !commands.isEmpty()
        || flushedAhead();
  }

  @Override
  public void onFailure(Throwable cause) {
    LOG.error("Raft partition {} on member {} failed and stopped", partitionId, memberId, cause);
    failure = cause;
    running = false;
  }

  @Override
  public void onRemoved() {
    failAwaiting(closedException());
    dropQueued();
  }

  /**
   * Once no turn will run again: fails the proposals and commands handed in but not taken (their
   * callers would otherwise wait forever) and gives back what queued messages borrow.
   */
  private void dropQueued() {
    RuntimeException cause = closedException();
    Proposal proposal;
    while ((proposal = proposals.poll()) != null) {
      proposal.future.completeExceptionally(cause);
    }
    Command command;
    while ((command = commands.poll()) != null) {
      command.result().completeExceptionally(cause);
    }
    releaseInbound();
  }

  private int drainInbound() {
    int count = 0;
    RaftMessage message;
    while (count < MAX_DRAIN_PER_TURN && (message = inbound.poll()) != null) {
      count++;
      try {
        if (message instanceof AppendRequest request && !request.entries().isEmpty()) {
          long start = System.nanoTime();
          node.step(message); // copies the entries into the journal: the core keeps none
          metrics.appended(System.nanoTime() - start);
        } else {
          if (message instanceof SnapshotChunk chunk) {
            onSnapshotChunk(chunk);
          }
          node.step(message);
        }
      } finally {
        message.release();
      }
    }
    return count;
  }

  /** Gives back what queued messages borrow from the transport, once no turn will take them. */
  private void releaseInbound() {
    RaftMessage message;
    while ((message = inbound.poll()) != null) {
      message.release();
    }
  }

  private void onSnapshotChunk(SnapshotChunk chunk) {
    if (chunk.chunkIndex() == 0) {
      snapshotReceiveStartNs = System.nanoTime();
      snapshotReceivedBytes = 0;
    }
    snapshotReceivedBytes += chunk.data().length;
  }

  private int drainProposals() {
    int count = 0;
    Proposal proposal;
    while (count < MAX_DRAIN_PER_TURN && (proposal = proposals.poll()) != null) {
      count++;
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
    return count;
  }

  private int drainCommands() {
    int count = 0;
    Command command;
    while ((command = commands.poll()) != null) {
      command.run();
      count++;
    }
    return count;
  }

  /** Safe modes: tell the core how far the flusher got. */
  private int reportFlushed() {
    if (flushedAhead()) {
      node.onPersisted(storage.journal.getLastFlushedIndex());
      return 1;
    }
    return 0;
  }

  private boolean flushedAhead() {
    return config.flushMode().waitsForFlush()
        && storage.journal.getLastFlushedIndex() > node.persistedIndex();
  }

  /**
   * Hands out what the core has ready, round after round, until a round brings nothing new. Returns
   * false if it stopped at {@link #MAX_READY_ROUNDS} with more to do.
   */
  private boolean handleReady() {
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
        again = persist(ready.persistUpTo());
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

  /** Hands appended entries to the flush mode; true if the core was told they are persisted. */
  private boolean persist(long upTo) {
    switch (config.flushMode()) {
      case SYNC, DELAYED -> {
        if (flushesInline) {
          storage.journal.flush();
          node.onPersisted(storage.journal.getLastFlushedIndex());
          return true;
        }
        flusher.request(upTo);
        return false;
      }
      case ASYNC -> {
        flusher.request(upTo);
        node.onPersisted(upTo);
        return true;
      }
      case OFF -> {
        node.onPersisted(upTo);
        return true;
      }
    }
    throw new AssertionError(config.flushMode());
  }

  private void publish(Ready ready) {
    boolean roleChanged = ready.role() != role || ready.term() != term;
    if (ready.role() != role) {
      if (ready.role() == RaftRole.CANDIDATE) {
        metrics.electionStarted();
      }
      if (role == RaftRole.LEADER) {
        failAwaiting(
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
    long appendedBefore = lastIndex;
    lastIndex = node.lastIndex();
    if (roleChanged) {
      stateMachine.onRoleChange(role, term, lastIndex);
    } else if (role == RaftRole.LEADER && lastIndex > appendedBefore) {
      stateMachine.onAppended(lastIndex); // published at the start of this turn
    }
  }

  private void onCommitted(long newCommitIndex) {
    resolveAwaiting(newCommitIndex);
    appliedCommit = newCommitIndex;
    commitIndex = newCommitIndex;
    stateMachine.onCommit(newCommitIndex);
  }

  /**
   * Completes the proposals at or below {@code committedIndex} whose entry is still the one this
   * member appended. A leader deposed in the same step that brought the commit may have had its
   * entries replaced by the new leader's: their indexes committed, but with other entries.
   */
  private void resolveAwaiting(long committedIndex) {
    long now = System.nanoTime();
    Proposal proposal;
    while ((proposal = awaitingCommit.peek()) != null && proposal.index <= committedIndex) {
      awaitingCommit.poll();
      long termNow = storage.log.term(proposal.index);
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

  private void onSnapshotInstalled(SnapshotMeta meta) {
    metrics.snapshotInstalled(System.nanoTime() - snapshotReceiveStartNs, snapshotReceivedBytes);
    LOG.info(
        "Partition {} member {} installed snapshot {}@{} ({} bytes) from the leader",
        partitionId,
        memberId,
        meta.index(),
        meta.term(),
        snapshotReceivedBytes);
    resolveAwaiting(meta.index());
    appliedCommit = meta.index();
    commitIndex = meta.index();
    stateMachine.onSnapshotInstalled(meta, storage.snapshots.latestDirectory());
  }

  private SnapshotMeta snapshotNow(long index, SnapshotContent content) {
    if (index > appliedCommit) {
      throw new IllegalArgumentException(
          "partition "
              + partitionId
              + ": cannot snapshot at "
              + index
              + ", beyond the commit index "
              + appliedCommit);
    }
    // The snapshot must not claim entries the log could still lose; with flush mode off this is
    // the only flush there is.
    storage.journal.flush();
    long snapshotTerm = storage.log.term(index);
    SnapshotMeta meta;
    try (SnapshotWriter writer = storage.snapshots.newSnapshot(index, snapshotTerm)) {
      content.writeTo(writer.directory());
      meta = writer.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "partition " + partitionId + ": writing the snapshot at " + index + " failed", e);
    }
    node.onSnapshotTaken(index, Math.max(0, index - config.compactionTailEntries()));
    return meta;
  }

  private void publishFollowerLag() {
    long last = node.lastIndex();
    for (int i = 0; i < peers.length; i++) {
      long match = node.matchIndex(peers[i]);
      metrics.followerLag(i, match < 0 ? 0 : last - match);
    }
  }

  private void failAwaiting(RuntimeException cause) {
    Proposal proposal;
    while ((proposal = awaitingCommit.poll()) != null) {
      proposal.future.completeExceptionally(cause);
    }
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
    running = false;
    CompletableFuture<Void> removed = loop.remove(this);
    boolean stopped = awaitRemoval(removed, turnWaitNs);
    if (flusher != null) {
      flusher.close(); // a turn still running only wakes the flush loop, which no longer flushes
    }
    if (stopped) {
      closeStorage();
      return;
    }
    // Closing the storage now would leave the running turn writing to an unmapped journal: the
    // loop closes it instead, once it drops this partition (after the turn, or when the loop
    // itself ends). A turn that never ends keeps the storage open: a leak, not a corruption.
    LOG.error(
        "Partition {}: its Raft turn did not end within {} ms of closing; its storage stays open"
            + " and is flushed and closed when that turn ends",
        partitionId,
        TimeUnit.NANOSECONDS.toMillis(turnWaitNs));
    removed.whenComplete(
        (result, error) -> {
          try {
            closeStorage();
          } catch (RuntimeException e) {
            LOG.error(
                "Partition {}: closing its storage after its last turn failed", partitionId, e);
          }
        });
  }

  private boolean awaitRemoval(CompletableFuture<Void> removed, long turnWaitNs) {
    if (loop.isLoopThread()) {
      // Closed from one of this loop's own turns (a callback): this turn is the last one, and
      // the journal's writer is the caller itself.
      return true;
    }
    // Also when this thread is interrupted: closing the storage under a turn still running would
    // leave that turn writing to an unmapped journal, and proposals queued meanwhile unanswered.
    return CloseWaits.await(removed, turnWaitNs);
  }

  /** Once no turn will run again: answers what was handed in, then flushes and closes storage. */
  private void closeStorage() {
    // What arrived between the last turn and `running` going false, and what a thread that had
    // already read `running` is still handing in.
    while (handOffsInProgress.get() != 0) {
      Thread.onSpinWait();
    }
    dropQueued();
    try {
      storage.journal.publish(); // the Raft thread, the writer, no longer runs this partition
      storage.journal.flush(); // a clean shutdown loses nothing, whatever the flush mode
    } catch (RuntimeException e) {
      LOG.warn("Partition {}: final flush failed", partitionId, e);
    }
    storage.close();
  }

  @Override
  public String toString() {
    return "RaftPartition{" + partitionId + "@" + memberId + " " + role + " term=" + term + "}";
  }
}

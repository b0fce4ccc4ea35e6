package io.tern.raft.server;

import io.tern.raft.RaftMessage;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * What other threads hand to one partition's Raft thread: messages from the transport, proposals,
 * and commands (work to run on the Raft thread with the future it completes). Any thread adds; only
 * the Raft thread takes, or the closing thread once no turn will run again.
 *
 * <p>Kept apart from the turn so that closing can answer everything handed in: each hand-off is
 * counted while in progress, and the count is raised before the running flag is read, so that
 * closing (which clears the flag first, then waits for the count to reach 0) either makes the
 * hand-off refuse or finds what it added.
 */
final class PartitionInbox {
  private static final int INBOUND_QUEUE_CAPACITY = 16 * 1024;

  private final int partitionId;
  private final DutyLoop loop;
  private final RaftMetrics metrics;
  private final Supplier<IllegalStateException> closedException;
  private final ManyToOneConcurrentArrayQueue<RaftMessage> inbound =
      new ManyToOneConcurrentArrayQueue<>(INBOUND_QUEUE_CAPACITY);
  private final ManyToOneConcurrentArrayQueue<Proposal> proposals;
  private final ConcurrentLinkedQueue<Command> commands = new ConcurrentLinkedQueue<>();
  // Messages, proposals and commands being handed in by other threads right now.
  private final AtomicInteger handOffsInProgress = new AtomicInteger();
  private volatile boolean running = true;

  PartitionInbox(
      int partitionId,
      int maxPendingProposals,
      DutyLoop loop,
      RaftMetrics metrics,
      Supplier<IllegalStateException> closedException) {
    this.partitionId = partitionId;
    this.proposals = new ManyToOneConcurrentArrayQueue<>(maxPendingProposals);
    this.loop = loop;
    this.metrics = metrics;
    this.closedException = closedException;
  }

  /** Work for the Raft thread and the future it completes (failed if the partition stops first). */
  record Command(Runnable body, CompletableFuture<?> result) {
    void run() {
      try {
        body.run();
      } catch (RuntimeException e) {
        result.completeExceptionally(e);
      } catch (Error e) {
        result.completeExceptionally(e);
        throw e; // the partition stops (see RaftPartition.onFailure)
      }
    }
  }

  /** Whether the partition still takes hand-offs and runs turns. */
  boolean isRunning() {
    return running;
  }

  /** From now on, hand-offs are refused and turns do nothing (closing, or the partition failed). */
  void stop() {
    running = false;
  }

  /**
   * Queues a proposal, or fails its future: closed if the partition stopped, {@link
   * IllegalStateException} if the queue is full.
   */
  void offer(Proposal proposal) {
    handOffsInProgress.incrementAndGet(); // before `running` is read (see the class comment)
    try {
      if (!running) {
        proposal.future.completeExceptionally(closedException.get());
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
        loop.wake();
      }
    } finally {
      handOffsInProgress.decrementAndGet();
    }
  }

  /** Queues {@code body} to run on the Raft thread; {@code result} fails if it never will. */
  void submit(Runnable body, CompletableFuture<?> result) {
    handOffsInProgress.incrementAndGet(); // before `running` is read (see the class comment)
    try {
      if (!running) {
        result.completeExceptionally(closedException.get());
        return;
      }
      commands.add(new Command(body, result));
      loop.wake();
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
        loop.wake();
      } else {
        metrics.inboundDropped(); // Raft retransmits; dropping keeps memory bounded
        message.release();
      }
    } finally {
      handOffsInProgress.decrementAndGet();
    }
  }

  /** The next message, or null; the caller releases it. Raft thread only. */
  RaftMessage pollMessage() {
    return inbound.poll();
  }

  /** The next proposal, or null. Raft thread only. */
  Proposal pollProposal() {
    return proposals.poll();
  }

  /** Runs the queued commands; returns how many. Raft thread only. */
  int runCommands() {
    int count = 0;
    Command command;
    while ((command = commands.poll()) != null) {
      command.run();
      count++;
    }
    return count;
  }

  boolean isEmpty() {
    return inbound.isEmpty() && proposals.isEmpty() && commands.isEmpty();
  }

  /**
   * Once no turn will run again, waits for what a thread that had already read `running` is still
   * handing in.
   */
  void awaitHandOffs() {
    while (handOffsInProgress.get() != 0) {
      Thread.onSpinWait();
    }
  }

  /**
   * Once no turn will run again: fails the proposals and commands handed in but not taken (their
   * callers would otherwise wait forever) and gives back what queued messages borrow.
   */
  void dropQueued() {
    RuntimeException cause = closedException.get();
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

  /** Gives back what queued messages borrow from the transport, once no turn will take them. */
  private void releaseInbound() {
    RaftMessage message;
    while ((message = inbound.poll()) != null) {
      message.release();
    }
  }
}

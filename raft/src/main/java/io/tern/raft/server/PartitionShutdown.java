package io.tern.raft.server;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closing one partition: its turns stop, then what was handed in is answered and its storage is
 * flushed and closed, but never under a turn still running. A turn that outlasts the wait keeps the
 * storage open until it ends (closing it then would leave the turn writing to an unmapped journal),
 * so that a stuck turn costs a leak, not a corruption.
 */
final class PartitionShutdown {
  // The partition's logger: what it says is about the partition.
  private static final Logger LOG = LoggerFactory.getLogger(RaftPartition.class);

  private final int partitionId;
  private final DutyLoop loop;
  private final PartitionInbox inbox;
  private final PartitionFlushes flushes;
  private final PartitionStorage storage;

  PartitionShutdown(
      int partitionId,
      DutyLoop loop,
      PartitionInbox inbox,
      PartitionFlushes flushes,
      PartitionStorage storage) {
    this.partitionId = partitionId;
    this.loop = loop;
    this.inbox = inbox;
    this.flushes = flushes;
    this.storage = storage;
  }

  /** Stops {@code partition}'s turns, waiting at most {@code turnWaitNs} for a running one. */
  void close(DutyLoop.Duty partition, long turnWaitNs) {
    inbox.stop();
    CompletableFuture<Void> removed = loop.remove(partition);
    boolean stopped = awaitRemoval(removed, turnWaitNs);
    flushes.close(); // a turn still running only wakes the flush loop, which no longer flushes
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
    inbox.awaitHandOffs();
    inbox.dropQueued();
    try {
      storage.journal.publish(); // the Raft thread, the writer, no longer runs this partition
      storage.journal.flush(); // a clean shutdown loses nothing, whatever the flush mode
    } catch (RuntimeException e) {
      LOG.warn("Partition {}: final flush failed", partitionId, e);
    }
    storage.close();
  }
}

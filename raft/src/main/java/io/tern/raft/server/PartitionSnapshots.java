package io.tern.raft.server;

import io.tern.raft.Membership;
import io.tern.raft.RaftMessage.SnapshotChunk;
import io.tern.raft.RaftNode;
import io.tern.raft.SnapshotMeta;
import io.tern.raft.snapshot.SnapshotWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition's snapshots as the Raft thread sees them: taking one on request (the state
 * machine's content written under the store, then the log compacted), and following one received
 * from the leader, chunk by chunk, to report its size and duration once installed. Raft thread
 * only.
 */
final class PartitionSnapshots {
  // The partition's logger: what it says is about the partition.
  private static final Logger LOG = LoggerFactory.getLogger(RaftPartition.class);

  private final int partitionId;
  private final int memberId;
  private final RaftServerConfig config;
  private final PartitionStorage storage;
  private final RaftNode node;
  private final RaftMetrics metrics;
  private volatile LongSupplier compactionBound = () -> Long.MAX_VALUE;
  private long receiveStartNs;
  private long receivedBytes;

  PartitionSnapshots(
      int partitionId,
      int memberId,
      RaftServerConfig config,
      PartitionStorage storage,
      RaftNode node,
      RaftMetrics metrics) {
    this.partitionId = partitionId;
    this.memberId = memberId;
    this.config = config;
    this.storage = storage;
    this.node = node;
    this.metrics = metrics;
  }

  /** A chunk from the leader, before the core takes it. */
  void onChunk(SnapshotChunk chunk) {
    if (chunk.chunkIndex() == 0) {
      receiveStartNs = System.nanoTime();
      receivedBytes = 0;
    }
    receivedBytes += chunk.data().length;
  }

  /** The core installed the snapshot received from the leader. */
  void onInstalled(SnapshotMeta meta) {
    metrics.snapshotInstalled(System.nanoTime() - receiveStartNs, receivedBytes);
    LOG.info(
        "Partition {} member {} installed snapshot {}@{} ({} bytes) from the leader",
        partitionId,
        memberId,
        meta.index(),
        meta.term(),
        receivedBytes);
  }

  /**
   * Writes a snapshot of the state after entry {@code index}, which must not be beyond {@code
   * appliedCommit}, and compacts the log behind it.
   */
  SnapshotMeta take(long index, SnapshotContent content, long appliedCommit) {
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
    // The configuration as of the index, so that a member restarted from or installing this
    // snapshot knows the group's members. None for an index the store refuses anyway (not newer
    // than its latest snapshot, whose index is where the core's knowledge starts).
    SnapshotMeta latest = storage.snapshots.latest();
    Membership membership =
        latest != null && index <= latest.index() ? null : node.membershipAt(index);
    try (SnapshotWriter writer = storage.snapshots.newSnapshot(index, snapshotTerm, membership)) {
      content.writeTo(writer.directory());
      meta = writer.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "partition " + partitionId + ": writing the snapshot at " + index + " failed", e);
    }
    long compactUpTo = Math.max(0, index - config.compactionTailEntries());
    long bound;
    try {
      bound = compactionBound.getAsLong();
    } catch (RuntimeException e) {
      LOG.warn("Partition {}: no compaction bound, the log is kept whole", partitionId, e);
      bound = 0;
    }
    if (bound < compactUpTo) {
      LOG.debug(
          "Partition {}: compacting up to {} only, not {}: the state machine needs the entries"
              + " after it",
          partitionId,
          Math.max(0, bound),
          compactUpTo);
      compactUpTo = Math.max(0, bound);
    }
    node.onSnapshotTaken(index, compactUpTo);
    return meta;
  }

  /** See {@link RaftPartition#setCompactionBound}. */
  void setCompactionBound(LongSupplier bound) {
    this.compactionBound = bound;
  }
}

package io.tern.raft;

/**
 * Where a member's snapshots live, as the Raft core sees them. The state machine creates snapshots
 * (outside the core) and the core sends the latest one, chunk by chunk, to followers that are
 * behind the leader's first log index; a follower receives chunks into a pending area and installs
 * the snapshot only once it is complete and verified.
 *
 * <p>Like {@link RaftLog}, this is storage the core calls synchronously on its own thread.
 */
public interface SnapshotStore {

  /** The latest complete snapshot, or null if there is none. */
  SnapshotMeta latest();

  /**
   * Chunk {@code chunkIndex} (0 <= chunkIndex < meta.chunkCount()) of snapshot {@code meta}, or
   * null if that snapshot is gone (a newer one replaced it) or cannot be sent (a store may refuse a
   * snapshot whose files it found damaged).
   */
  Chunk readChunk(SnapshotMeta meta, int chunkIndex);

  /** Starts receiving {@code meta}, discarding any other snapshot being received. */
  void beginReceive(SnapshotMeta meta);

  /**
   * Writes the next chunk of the snapshot being received. Returns false, writing nothing, if the
   * chunk is damaged (its CRC32C does not match) or names a file or offset the store refuses.
   */
  boolean writeChunk(SnapshotMeta meta, int chunkIndex, Chunk chunk);

  /**
   * Discards the snapshot being received, if any, with everything written of it. The core calls
   * this once the leader has moved on (it replicates entries to this member again, or this member
   * leads), so an abandoned transfer does not hold disk space until the next one starts.
   */
  void abortReceive();

  /**
   * Verifies the received snapshot against {@code meta.checksum()}, makes it durable and atomically
   * makes it the latest snapshot (older ones may then be deleted). Returns false, and discards what
   * was received, if verification fails.
   */
  boolean completeReceive(SnapshotMeta meta);

  /** A piece of one snapshot file: bytes {@code [fileOffset, fileOffset + data.length)}. */
  record Chunk(String fileName, long fileOffset, byte[] data, int crc32c) {}
}

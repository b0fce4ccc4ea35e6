package io.tern.raft;

/**
 * Identifies a snapshot: the state after applying every entry up to {@code index} (whose term is
 * {@code term}). {@code checksum} covers the snapshot's content and is verified before a received
 * snapshot is installed; {@code chunkCount} is how many chunks the store splits it into for
 * sending. {@code membership} is the group's configuration as of {@code index}; null for a snapshot
 * stored before configurations were recorded (and for groups that never changed theirs): then the
 * bootstrap configuration the member was started with is in force at {@code index}.
 */
public record SnapshotMeta(
    long index, long term, long checksum, int chunkCount, Membership membership) {
  /** A snapshot that records no configuration (see the class comment). */
  public SnapshotMeta(long index, long term, long checksum, int chunkCount) {
    this(index, term, checksum, chunkCount, null);
  }

  public SnapshotMeta {
    if (index < 1 || term < 1 || chunkCount < 1) {
      throw new IllegalArgumentException(
          "snapshot needs index >= 1, term >= 1 and at least one chunk, got index "
              + index
              + " term "
              + term
              + " chunks "
              + chunkCount);
    }
  }
}

package io.tern.raft;

/**
 * Identifies a snapshot: the state after applying every entry up to {@code index} (whose term is
 * {@code term}). {@code checksum} covers the snapshot's content and is verified before a received
 * snapshot is installed; {@code chunkCount} is how many chunks the store splits it into for
 * sending.
 */
public record SnapshotMeta(long index, long term, long checksum, int chunkCount) {
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

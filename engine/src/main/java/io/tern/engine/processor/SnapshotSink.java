package io.tern.engine.processor;

import io.tern.raft.SnapshotMeta;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * Where the processor hands a staged state snapshot: Raft, which moves the files into its snapshot
 * store, records checksums, compacts the log and sends it to lagging followers.
 */
@FunctionalInterface
public interface SnapshotSink {
  /**
   * Makes the files in {@code stagingDirectory} the snapshot at log entry {@code index} (the
   * directory may be emptied by the move).
   */
  CompletableFuture<SnapshotMeta> commit(long index, Path stagingDirectory);

  /**
   * True if the latest snapshot was found damaged: then a snapshot at the same index is taken again
   * to replace it (an idle partition has no newer index, and followers need a sound one).
   */
  default boolean latestIsDamaged() {
    return false;
  }
}

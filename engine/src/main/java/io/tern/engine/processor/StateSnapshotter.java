package io.tern.engine.processor;

import io.tern.engine.state.PartitionState;
import io.tern.raft.SnapshotMeta;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes state snapshots for the stream processor, on its thread. A RocksDB checkpoint is staged at
 * once; it is handed to Raft only when everything the state reflects is committed: on a leader the
 * state runs ahead of the log by the result batches not yet committed, and a snapshot must not hold
 * effects that a leader change could erase.
 */
final class StateSnapshotter {
  private static final Logger LOG = LoggerFactory.getLogger(StateSnapshotter.class);
  static final String STAGING_PREFIX = "snapshot-staging-";

  private record Staged(
      long index,
      Path directory,
      long committedPositionNeeded,
      CompletableFuture<SnapshotMeta> done) {}

  private final int partitionId;
  private final Path partitionDirectory;
  private final SnapshotSink sink;
  private final Consumer<Runnable> onProcessorThread;
  private Staged staged;
  private boolean committing;
  private long lastSnapshotIndex;

  StateSnapshotter(
      int partitionId, Path partitionDirectory, SnapshotSink sink, Consumer<Runnable> onThread) {
    this.partitionId = partitionId;
    this.partitionDirectory = partitionDirectory;
    this.sink = sink;
    this.onProcessorThread = onThread;
  }

  void recovered(long snapshotIndex) {
    lastSnapshotIndex = snapshotIndex;
  }

  /**
   * Stages a snapshot of {@code state}, which reflects the log up to entry {@code index} and, on a
   * leader, result batches up to {@code committedPositionNeeded} (-1 if none in flight).
   */
  void start(
      PartitionState state,
      long index,
      long lastLogPosition,
      long lastProcessedPosition,
      long committedPositionNeeded,
      CompletableFuture<SnapshotMeta> done) {
    if (sink == null || partitionDirectory == null) {
      done.completeExceptionally(
          new IllegalStateException("partition " + partitionId + " takes no snapshots"));
      return;
    }
    if (staged != null || committing) {
      done.completeExceptionally(
          new IllegalStateException(
              "partition " + partitionId + ": a snapshot is already being taken"));
      return;
    }
    if (index < lastSnapshotIndex || (index == lastSnapshotIndex && !sink.latestIsDamaged())) {
      done.complete(null); // nothing new since the last snapshot
      return;
    }
    Path directory = partitionDirectory.resolve(STAGING_PREFIX + index);
    deleteRecursively(directory);
    try {
      Files.createDirectories(partitionDirectory);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    state.checkpoint(directory);
    new SnapshotProperties(index, lastLogPosition, lastProcessedPosition).writeTo(directory);
    staged = new Staged(index, directory, committedPositionNeeded, done);
  }

  /** Hands the staged snapshot to Raft once {@code committedPosition} covers what it needs. */
  void maybeCommit(long committedPosition) {
    if (staged == null || committedPosition < staged.committedPositionNeeded) {
      return;
    }
    Staged snapshot = staged;
    staged = null;
    committing = true;
    sink.commit(snapshot.index, snapshot.directory)
        .whenComplete(
            (meta, error) ->
                onProcessorThread.accept(
                    () -> {
                      committing = false;
                      deleteRecursively(snapshot.directory);
                      if (error != null) {
                        LOG.warn(
                            "Partition {}: snapshot {} failed", partitionId, snapshot.index, error);
                        snapshot.done.completeExceptionally(error);
                      } else {
                        lastSnapshotIndex = Math.max(lastSnapshotIndex, snapshot.index);
                        snapshot.done.complete(meta);
                      }
                    }));
  }

  /** Drops a staged snapshot whose batches may now never commit (leadership ended). */
  void discard(String why) {
    if (staged != null) {
      deleteRecursively(staged.directory);
      staged.done.completeExceptionally(
          new IllegalStateException("partition " + partitionId + ": snapshot dropped, " + why));
      staged = null;
    }
  }

  static void deleteRecursively(Path directory) {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + directory, e);
    }
  }
}

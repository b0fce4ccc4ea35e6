package io.tern.raft.snapshot;

import io.tern.raft.SnapshotMeta;
import java.nio.file.Path;

/**
 * A snapshot the state machine is taking: it writes its files (flat, any names but {@code
 * MANIFEST}) into {@link #directory()}, then calls {@link #commit()} or {@link #abort()}. Until
 * committed, the files live under a pending name that no reader trusts and open removes.
 *
 * <p>A writer is used by one thread; {@link #close()} aborts it unless it was committed, so
 * try-with-resources never leaves a pending directory behind.
 */
public final class SnapshotWriter implements AutoCloseable {
  private final FileSnapshotStore store;
  private final Path directory;
  private final long index;
  private final long term;

  /** The configuration as of {@code index}, recorded in the manifest; null for none. */
  private final io.tern.raft.Membership membership;

  private boolean finished;

  SnapshotWriter(
      FileSnapshotStore store,
      Path directory,
      long index,
      long term,
      io.tern.raft.Membership membership) {
    this.store = store;
    this.directory = directory;
    this.index = index;
    this.term = term;
    this.membership = membership;
  }

  /** Where to write the snapshot's files. */
  public Path directory() {
    return directory;
  }

  public long index() {
    return index;
  }

  public long term() {
    return term;
  }

  /**
   * Checksums and forces the files, writes the manifest and atomically makes this the store's
   * latest snapshot, deleting older ones. The writer is finished afterwards, whether or not the
   * commit succeeded: on failure its files are deleted.
   *
   * @throws IllegalStateException if the store already has a snapshot at this index or later, or
   *     the directory holds something a snapshot may not (a subdirectory, link, MANIFEST, or a file
   *     name a receiver would refuse)
   * @throws java.io.UncheckedIOException if the file system fails; the message names the path
   */
  public SnapshotMeta commit() {
    if (finished) {
      throw new IllegalStateException("Snapshot " + index + "-" + term + " is already finished");
    }
    finished = true;
    try {
      // Checked before the expensive part; install checks again, as a receive may win meanwhile.
      store.checkNewerThanLatest(index, term);
      Manifest manifest = Manifest.build(directory, index, term).withMembership(membership);
      manifest.write(directory);
      SnapshotFiles.syncDirectory(directory);
      return store.installTaken(directory, manifest);
    } catch (RuntimeException e) {
      try {
        SnapshotFiles.deleteRecursively(directory);
      } catch (RuntimeException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
  }

  /** Deletes what was written; does nothing if the writer is already finished. */
  public void abort() {
    if (!finished) {
      finished = true;
      SnapshotFiles.deleteRecursively(directory);
    }
  }

  @Override
  public void close() {
    abort();
  }
}

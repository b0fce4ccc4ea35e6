package io.tern.raft.snapshot;

import io.tern.raft.SnapshotMeta;
import io.tern.raft.SnapshotStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots on the file system, one directory each under a root:
 *
 * <ul>
 *   <li>{@code <index>-<term>/}: a complete snapshot: the files the state machine wrote (flat) and
 *       our {@code MANIFEST}. A snapshot retaken at the same index to replace a damaged latest (see
 *       {@link #latestIsCorrupt()}) is {@code <index>-<term>-<generation>/}. Only the latest is
 *       kept; a directory gets this name only by an atomic rename once everything in it is durable,
 *       so a final name never holds a partial snapshot.
 *   <li>{@code pending-<index>-<term>-taken/} and {@code pending-<index>-<term>-received/}: a
 *       snapshot being written by the state machine ({@link #newSnapshot}) or received from the
 *       leader. Removed on open.
 *   <li>{@code *.deleted}: a snapshot being deleted (renamed first, then removed). Removed on open.
 * </ul>
 *
 * <p>The {@code MANIFEST} and the content checksum ({@link SnapshotMeta#checksum()}) are described
 * in {@link Manifest}.
 *
 * <p>On open the complete snapshot with the highest index whose manifest verifies (CRC, its own
 * index and term, and the files present with the listed sizes) becomes the latest; others with a
 * damaged manifest are logged, kept for inspection, and listed by {@link #corruptDirectories()}.
 *
 * <p>Sending: the latest snapshot is split into chunks of at most {@code chunkBytes}: files in name
 * order, each into consecutive pieces; an empty file is one empty chunk; a snapshot without files
 * is one empty chunk with file name "". The manifest is not sent: the receiver rebuilds it from the
 * files and installs only if the content checksum matches the leader's. The chunk count is each
 * store's own: after a receive, {@link #latest()} counts chunks of this store's {@code chunkBytes},
 * which equals the leader's meta when both use the same size.
 *
 * <p>A received snapshot that verifies becomes the latest even if its index is not above the
 * current latest's: the core receives a snapshot only when the follower lacks committed entries the
 * leader has compacted, so its index is above the follower's commit index, and the follower's own
 * snapshots never go beyond that. After the install the core resets the log to start after it, so
 * the received snapshot is the one consistent with the log. The one exception: a snapshot with the
 * latest's index and term is the same committed state (Raft's log matching), so the existing one is
 * kept and the receive reports success.
 *
 * <p>The Raft core calls the {@link SnapshotStore} methods on its own thread and the state machine
 * commits snapshots on another, so the store is synchronized; a commit checksums and forces its
 * files without holding the lock and takes it only to install. I/O failures throw {@link
 * UncheckedIOException} naming the path; the core treats them as fatal.
 */
public final class FileSnapshotStore implements SnapshotStore, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FileSnapshotStore.class);

  public static final int DEFAULT_CHUNK_BYTES = 1024 * 1024;
  public static final int MIN_CHUNK_BYTES = 1024;

  /** The longest snapshot file name, in UTF-8 bytes, a store writes or accepts. */
  public static final int MAX_FILE_NAME_BYTES = SnapshotFiles.MAX_FILE_NAME_BYTES;

  /** Chunks travel in one message each; larger ones would strain the transport's frames. */
  public static final int MAX_CHUNK_BYTES = 64 * 1024 * 1024;

  private final Path root;
  private final int chunkBytes;
  private final List<Path> corruptDirectories;
  private StoredSnapshot latest;
  private SnapshotReceiver receiver;
  private long lastReceivedBytes;
  private volatile boolean latestIsCorrupt;
  private boolean closed;

  public FileSnapshotStore(Path root) {
    this(root, DEFAULT_CHUNK_BYTES);
  }

  /**
   * Opens (creating if needed) the store under {@code root}, removing leftovers of interrupted
   * work.
   *
   * @param chunkBytes the largest chunk {@link #readChunk} returns, in [{@value #MIN_CHUNK_BYTES},
   *     {@value #MAX_CHUNK_BYTES}]
   * @throws UncheckedIOException if {@code root} is not a directory or cannot be read
   */
  public FileSnapshotStore(Path root, int chunkBytes) {
    if (chunkBytes < MIN_CHUNK_BYTES || chunkBytes > MAX_CHUNK_BYTES) {
      throw new IllegalArgumentException(
          "Snapshot chunkBytes must be in ["
              + MIN_CHUNK_BYTES
              + ", "
              + MAX_CHUNK_BYTES
              + "], got "
              + chunkBytes);
    }
    this.root = root;
    this.chunkBytes = chunkBytes;
    SnapshotRecovery.Result recovered = SnapshotRecovery.recover(root);
    this.corruptDirectories = List.copyOf(recovered.corruptDirectories());
    if (recovered.latest() != null) {
      this.latest = new StoredSnapshot(recovered.latestDirectory(), recovered.latest(), chunkBytes);
    }
  }

  public Path root() {
    return root;
  }

  public int chunkBytes() {
    return chunkBytes;
  }

  /** Snapshot directories found on open whose manifest did not verify; they were ignored. */
  public List<Path> corruptDirectories() {
    return corruptDirectories;
  }

  @Override
  public synchronized SnapshotMeta latest() {
    return latest == null ? null : latest.meta();
  }

  /** The latest complete snapshot's directory, for the state machine to recover from, or null. */
  public synchronized Path latestDirectory() {
    return latest == null ? null : latest.directory();
  }

  /** Total bytes of the latest snapshot's files (without the manifest); 0 if there is none. */
  public synchronized long latestSizeBytes() {
    return latest == null ? 0 : latest.sizeBytes();
  }

  /** Bytes written so far by the receive in progress, or by the last one if none is. */
  public synchronized long receivedBytes() {
    return receiver == null ? lastReceivedBytes : receiver.receivedBytes();
  }

  /**
   * Starts taking a snapshot of the state after entry {@code index} (of term {@code term}).
   *
   * @throws IllegalStateException if the store has a snapshot at this index or later, or one at
   *     this index and term is already being taken
   */
  public synchronized SnapshotWriter newSnapshot(long index, long term) {
    return newSnapshot(index, term, null);
  }

  /**
   * The same, for a snapshot that records {@code membership}, the group's configuration as of
   * {@code index} ({@link io.tern.raft.RaftNode#membershipAt}); null records none.
   */
  public synchronized SnapshotWriter newSnapshot(
      long index, long term, io.tern.raft.Membership membership) {
    if (index < 1 || term < 1) {
      throw new IllegalArgumentException(
          "Snapshot needs index >= 1 and term >= 1, got index " + index + " term " + term);
    }
    checkNewerThanLatest(index, term);
    Path directory = root.resolve(SnapshotFiles.pendingName(index, term, SnapshotFiles.TAKEN));
    try {
      Files.createDirectory(directory);
    } catch (FileAlreadyExistsException e) {
      throw new IllegalStateException("Snapshot " + directory + " is already being taken", e);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to create snapshot directory " + directory, e);
    }
    return new SnapshotWriter(this, directory, index, term, membership);
  }

  synchronized void checkNewerThanLatest(long index, long term) {
    ensureOpen();
    // A damaged latest may be replaced by a snapshot at the same index: an idle partition has no
    // newer entries to snapshot, and its lagging followers would otherwise wait forever.
    boolean replacesDamaged = latestIsCorrupt && latest != null && index == latest.meta().index();
    if (latest != null && index <= latest.meta().index() && !replacesDamaged) {
      throw new IllegalStateException(
          "Refusing snapshot "
              + SnapshotFiles.finalName(index, term)
              + ": its index "
              + index
              + " is not above the latest snapshot's index "
              + latest.meta().index());
    }
  }

  /** Installs a committed {@link SnapshotWriter}'s directory, whose manifest is durable. */
  synchronized SnapshotMeta installTaken(Path pending, Manifest manifest) {
    checkNewerThanLatest(manifest.index(), manifest.term());
    return install(pending, manifest);
  }

  /**
   * {@inheritDoc}
   *
   * <p>Also null once a file of the snapshot failed its manifest CRC while being read (see {@link
   * StoredSnapshot}): sending it would only make followers fail verification and ask for it again.
   * That is logged once as an error and shown by {@link #latestIsCorrupt()}; the snapshot stays the
   * latest (the log was compacted up to it) until the state machine takes a newer one, which is
   * sent instead.
   */
  @Override
  public synchronized Chunk readChunk(SnapshotMeta meta, int chunkIndex) {
    ensureOpen();
    if (latest == null || !latest.meta().equals(meta) || latestIsCorrupt) {
      return null;
    }
    try {
      return latest.readChunk(chunkIndex);
    } catch (CorruptSnapshotException | UncheckedIOException e) {
      // Changed bytes, or a file gone or shorter than its manifest says.
      latestIsCorrupt = true;
      LOG.error(
          "Snapshot {} will not be sent to followers until a newer one is taken: {}",
          meta,
          e.getMessage(),
          e instanceof UncheckedIOException ? e : null);
      return null;
    }
  }

  /**
   * Whether a file of the latest snapshot was found damaged (not matching its manifest CRC, shorter
   * than listed, or unreadable) while being sent; false again once another snapshot replaces it,
   * which may then have the same index (see {@link #checkNewerThanLatest}). Kept in memory only:
   * after a restart the first send finds the damage again. Safe to call from any thread (metrics).
   */
  public boolean latestIsCorrupt() {
    return latestIsCorrupt;
  }

  @Override
  public synchronized void beginReceive(SnapshotMeta meta) {
    ensureOpen();
    discardReceive();
    lastReceivedBytes = 0;
    Path directory =
        root.resolve(SnapshotFiles.pendingName(meta.index(), meta.term(), SnapshotFiles.RECEIVED));
    for (Path stale : SnapshotFiles.list(root)) {
      String name = stale.getFileName().toString();
      if (name.startsWith(SnapshotFiles.PENDING_PREFIX)
          && name.endsWith("-" + SnapshotFiles.RECEIVED)) {
        SnapshotFiles.deleteRecursively(stale);
      }
    }
    try {
      Files.createDirectory(directory);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to create snapshot directory " + directory, e);
    }
    receiver = new SnapshotReceiver(meta, directory);
  }

  @Override
  public synchronized boolean writeChunk(SnapshotMeta meta, int chunkIndex, Chunk chunk) {
    ensureOpen();
    return receiver != null && receiver.meta().equals(meta) && receiver.write(chunkIndex, chunk);
  }

  @Override
  public synchronized void abortReceive() {
    ensureOpen();
    if (receiver != null) {
      LOG.info(
          "Discarding snapshot {}, partly received: the leader no longer sends it",
          receiver.meta());
      discardReceive();
    }
  }

  /** Whether a snapshot is being received (chunks written, not yet completed or discarded). */
  public synchronized boolean isReceiving() {
    return receiver != null;
  }

  @Override
  public synchronized boolean completeReceive(SnapshotMeta meta) {
    ensureOpen();
    if (receiver == null || !receiver.meta().equals(meta)) {
      return false;
    }
    SnapshotReceiver received = receiver;
    receiver = null;
    lastReceivedBytes = received.receivedBytes();
    if (!received.isComplete()) {
      LOG.warn(
          "Discarding snapshot {}: completed before all {} chunks arrived",
          meta,
          meta.chunkCount());
      received.discard();
      return false;
    }
    Manifest manifest;
    try {
      manifest = received.finish();
    } catch (RuntimeException e) {
      received.discard();
      throw e;
    }
    if (manifest.checksum() != meta.checksum()) {
      LOG.warn(
          "Discarding received snapshot {}: content checksum {} differs from the leader's",
          meta,
          manifest.checksum());
      received.discard();
      return false;
    }
    if (latest != null
        && latest.meta().index() == meta.index()
        && latest.meta().term() == meta.term()) {
      received.discard(); // the same committed state; keep ours (see the class comment)
      return true;
    }
    manifest.write(received.directory());
    SnapshotFiles.syncDirectory(received.directory());
    install(received.directory(), manifest);
    return true;
  }

  /**
   * Renames the durable {@code pending} directory to its final name, makes it the latest and
   * deletes every other snapshot. The caller has checked whether it may replace the latest.
   */
  private SnapshotMeta install(Path pending, Manifest manifest) {
    int generation = 0;
    if (latest != null
        && latest.meta().index() == manifest.index()
        && latest.meta().term() == manifest.term()) {
      // Retaken to replace the damaged latest: a new name, so that the damaged one is deleted only
      // once its replacement is durable (a directory cannot be renamed over a non-empty one).
      generation =
          SnapshotFiles.parseFinalName(latest.directory().getFileName().toString()).generation()
              + 1;
    }
    Path target =
        root.resolve(SnapshotFiles.finalName(manifest.index(), manifest.term(), generation));
    StoredSnapshot installed = new StoredSnapshot(target, manifest, chunkBytes);
    if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      // Not the latest (ruled out above), so something open found invalid.
      LOG.warn("Replacing {}, which holds no valid snapshot", target);
      Path deleted = SnapshotFiles.markDeleted(target);
      SnapshotFiles.syncDirectory(root);
      SnapshotFiles.deleteRecursively(deleted);
    }
    SnapshotFiles.moveAtomically(pending, target);
    SnapshotFiles.syncDirectory(root);
    StoredSnapshot previous = latest;
    latest = installed;
    latestIsCorrupt = false;
    if (previous != null) {
      closeQuietly(previous);
    }
    SnapshotFiles.deleteAllBut(root, target);
    return installed.meta();
  }

  private void discardReceive() {
    if (receiver != null) {
      SnapshotReceiver discarded = receiver;
      receiver = null;
      discarded.discard();
    }
  }

  private static void closeQuietly(StoredSnapshot snapshot) {
    try {
      snapshot.close();
    } catch (UncheckedIOException e) {
      LOG.warn("Failed to close replaced snapshot {}", snapshot.directory(), e);
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("Snapshot store " + root + " is closed");
    }
  }

  /** Closes the latest snapshot's files and discards any snapshot being received. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      discardReceive();
    } finally {
      if (latest != null) {
        latest.close();
      }
    }
  }
}

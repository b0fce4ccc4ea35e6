package io.tern.raft.snapshot;

import io.tern.raft.SnapshotMeta;
import io.tern.raft.SnapshotStore.Chunk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * One snapshot being received into its pending directory. Chunks must arrive in order: chunk
 * indexes consecutive from 0, files in name order, each file's bytes in order. Anything else is
 * refused before it touches the disk, so a refused chunk never changes what was received.
 *
 * <p>Each chunk's CRC is checked on arrival and each file's CRC is computed as it is written (see
 * {@link ReceivedFile}, which also explains the direct I/O), so {@link #finish} builds the manifest
 * without reading the snapshot back: a gigabyte written with direct I/O is not in the page cache,
 * and reading it back from disk would cost seconds.
 */
final class SnapshotReceiver implements AutoCloseable {
  private final SnapshotMeta meta;
  private final Path directory;
  private final List<Manifest.FileEntry> finishedFiles = new ArrayList<>();
  private final ReceivedFile.DirectBuffer staging = new ReceivedFile.DirectBuffer();
  private int nextChunkIndex;
  private String currentFile;
  private ReceivedFile current;
  private long receivedBytes;

  SnapshotReceiver(SnapshotMeta meta, Path directory) {
    this.meta = meta;
    this.directory = directory;
  }

  SnapshotMeta meta() {
    return meta;
  }

  Path directory() {
    return directory;
  }

  long receivedBytes() {
    return receivedBytes;
  }

  boolean isComplete() {
    return nextChunkIndex == meta.chunkCount();
  }

  /** Writes {@code chunk} if it is the next one and intact; false, writing nothing, otherwise. */
  boolean write(int chunkIndex, Chunk chunk) {
    if (chunkIndex != nextChunkIndex
        || chunkIndex >= meta.chunkCount()
        || chunk == null
        || chunk.data() == null
        || chunk.fileName() == null
        || !crcMatches(chunk)) {
      return false;
    }
    String name = chunk.fileName();
    if (name.isEmpty()) {
      // The one chunk of a snapshot without files carries nothing to write.
      boolean onlyChunkOfEmptySnapshot =
          meta.chunkCount() == 1 && chunk.fileOffset() == 0 && chunk.data().length == 0;
      if (onlyChunkOfEmptySnapshot) {
        nextChunkIndex++;
      }
      return onlyChunkOfEmptySnapshot;
    }
    if (!SnapshotFiles.isSafeFileName(name)) {
      return false;
    }
    boolean sameFile = name.equals(currentFile);
    boolean nextFile = currentFile == null || name.compareTo(currentFile) > 0;
    long currentFileBytes = current == null ? 0 : current.sizeBytes();
    if (!(sameFile && chunk.fileOffset() == currentFileBytes)
        && !(nextFile && chunk.fileOffset() == 0)) {
      return false;
    }
    Path path;
    try {
      path = directory.resolve(name);
    } catch (InvalidPathException e) {
      return false; // a name this file system cannot hold
    }
    try {
      if (!sameFile) {
        finishCurrentFile();
        current = new ReceivedFile(path, staging);
        currentFile = name;
      }
      current.append(chunk.data());
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write received snapshot file " + path, e);
    }
    receivedBytes += chunk.data().length;
    nextChunkIndex++;
    return true;
  }

  /**
   * Forces everything received and returns its manifest, built from the CRCs computed on the way;
   * the receiver is closed afterwards.
   *
   * @throws IllegalStateException if chunks are missing
   */
  Manifest finish() {
    if (!isComplete()) {
      throw new IllegalStateException(
          "Snapshot " + meta + ": only " + nextChunkIndex + " chunks received");
    }
    try {
      finishCurrentFile();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to close received snapshot file " + currentFile, e);
    }
    return Manifest.of(meta.index(), meta.term(), finishedFiles).withMembership(meta.membership());
  }

  private void finishCurrentFile() throws IOException {
    if (current != null) {
      ReceivedFile file = current;
      current = null;
      try (file) {
        finishedFiles.add(file.finish());
      }
    }
  }

  private static boolean crcMatches(Chunk chunk) {
    CRC32C crc = new CRC32C();
    crc.update(chunk.data());
    return (int) crc.getValue() == chunk.crc32c();
  }

  /** Stops writing, without forcing; the received files stay in {@link #directory()}. */
  @Override
  public void close() {
    if (current != null) {
      ReceivedFile file = current;
      current = null;
      try {
        file.close();
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Failed to close received snapshot file " + directory.resolve(currentFile), e);
      }
    }
  }

  /** Stops writing and deletes everything received. */
  void discard() {
    try {
      close();
    } catch (UncheckedIOException e) {
      // deleted below anyway
    } finally {
      SnapshotFiles.deleteRecursively(directory);
    }
  }
}

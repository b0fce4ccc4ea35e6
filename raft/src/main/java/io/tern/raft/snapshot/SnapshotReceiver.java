package io.tern.raft.snapshot;

import io.tern.raft.SnapshotMeta;
import io.tern.raft.SnapshotStore.Chunk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * One snapshot being received into its pending directory. Chunks must arrive in order: chunk
 * indexes consecutive from 0, files in name order, each file's bytes in order. Anything else is
 * refused before it touches the disk, so a refused chunk never changes what was received.
 */
final class SnapshotReceiver implements AutoCloseable {
  private final SnapshotMeta meta;
  private final Path directory;
  private int nextChunkIndex;
  private String currentFile;
  private FileChannel currentChannel;
  private long currentFileBytes;
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
        closeCurrentFile();
        currentChannel =
            FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        currentFile = name;
        currentFileBytes = 0;
      }
      ByteBuffer data = ByteBuffer.wrap(chunk.data());
      while (data.hasRemaining()) {
        currentChannel.write(data, currentFileBytes + data.position());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to write received snapshot file " + path, e);
    }
    currentFileBytes += chunk.data().length;
    receivedBytes += chunk.data().length;
    nextChunkIndex++;
    return true;
  }

  private static boolean crcMatches(Chunk chunk) {
    CRC32C crc = new CRC32C();
    crc.update(chunk.data());
    return (int) crc.getValue() == chunk.crc32c();
  }

  /**
   * Closes the file being written. Not forced here: {@link Manifest#build} forces every file when
   * it verifies the snapshot.
   */
  private void closeCurrentFile() throws IOException {
    if (currentChannel != null) {
      FileChannel channel = currentChannel;
      currentChannel = null;
      channel.close();
    }
  }

  /** Stops writing; the received files stay in {@link #directory()}. */
  @Override
  public void close() {
    try {
      closeCurrentFile();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Failed to close received snapshot file " + directory.resolve(currentFile), e);
    }
  }

  /** Stops writing and deletes everything received. */
  void discard() {
    try {
      close();
    } finally {
      SnapshotFiles.deleteRecursively(directory);
    }
  }
}

package io.tern.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on {@code <name>.lock} in the journal directory, held while the journal is
 * open. Two writers on one journal would interleave frames and corrupt it; the second open fails
 * instead. The OS releases the lock when the process dies, so a crash never leaves it stale.
 */
final class DirectoryLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private DirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  static DirectoryLock acquire(Path file) {
    FileChannel channel = null;
    try {
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        throw new JournalException(
            "Journal lock " + file + " is held by another process: the journal is already open");
      }
      return new DirectoryLock(channel, lock);
    } catch (OverlappingFileLockException e) {
      closeQuietly(channel);
      throw new JournalException(
          "Journal lock " + file + " is held in this process: the journal is already open");
    } catch (IOException e) {
      closeQuietly(channel);
      throw new UncheckedIOException("Failed to lock journal " + file, e);
    } catch (RuntimeException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // already failing; the original error is what matters
      }
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
      channel.close();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to release journal lock", e);
    }
  }
}

package io.tern.engine.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on {@code broker.lock} in {@code data.directory}, held from the broker's start
 * to the end of its close. A second broker on the same data is refused before it binds a port or
 * opens a journal, with one line naming the directory, the lock and the process holding it (each
 * journal's own lock would only fail later, deep in a partition's start). The OS releases the lock
 * when the process dies, so a crash never leaves it stale; the file stays and is reused.
 */
final class DataDirectoryLock implements AutoCloseable {
  static final String FILE_NAME = "broker.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private DataDirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** Another broker, in this process or another, holds the data directory. */
  static final class InUseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    InUseException(Path directory, Path file, String holder) {
      super(
          "data.directory "
              + directory
              + " is in use by another broker"
              + holder
              + " (it holds the lock "
              + file
              + "): stop it, or give this broker its own data.directory");
    }
  }

  /**
   * @throws InUseException when another broker holds it
   * @throws UncheckedIOException when the directory or the lock file cannot be made
   */
  static DataDirectoryLock acquire(Path directory) {
    Path file = directory.resolve(FILE_NAME);
    FileChannel channel = null;
    try {
      Files.createDirectories(directory);
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        throw new InUseException(directory, file, " in this process");
      }
      if (lock == null) {
        throw new InUseException(directory, file, holder(channel));
      }
      // Who holds it, for the message a second broker prints.
      channel.truncate(0);
      channel.write(
          ByteBuffer.wrap(
              Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII)),
          0);
      return new DataDirectoryLock(channel, lock);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new UncheckedIOException("cannot lock data.directory " + directory, e);
    } catch (RuntimeException e) {
      closeQuietly(channel);
      throw e;
    }
  }

  /** " (process 1234)" from the pid the holder wrote, or "" when it cannot be read. */
  private static String holder(FileChannel channel) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(32);
    channel.read(buffer, 0);
    String pid =
        new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).strip();
    return pid.matches("\\d{1,19}") ? " (process " + pid + ")" : "";
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
      throw new UncheckedIOException("cannot release the data.directory lock", e);
    }
  }
}

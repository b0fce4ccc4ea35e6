package io.tern.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Makes the creations, renames and deletions in a directory durable ({@code fsync} on it). */
public final class DirectorySync {
  private static final Logger LOG = LoggerFactory.getLogger(DirectorySync.class);

  private DirectorySync() {}

  /**
   * Forces {@code directory}. A file system that cannot open directories is tolerated (nothing more
   * can be done there); a failed fsync is not: what depends on the entries being durable must not
   * go on.
   *
   * @throws UncheckedIOException if the fsync fails
   */
  public static void sync(Path directory) {
    // The channel is interruptible: an interrupted caller would have the fsync fail. The flag is
    // set aside for the call and restored.
    boolean interrupted = Thread.interrupted();
    try {
      FileChannel channel;
      try {
        channel = FileChannel.open(directory, StandardOpenOption.READ);
      } catch (IOException e) {
        LOG.debug("Could not open directory {} to fsync it: {}", directory, e.toString());
        return;
      }
      try (channel) {
        channel.force(true);
      } catch (IOException e) {
        throw new UncheckedIOException("Failed to fsync directory " + directory, e);
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

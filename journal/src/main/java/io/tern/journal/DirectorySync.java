package io.tern.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Makes the creations, renames and deletions in a directory durable ({@code fsync} on it). */
public final class DirectorySync {
  private static final Logger LOG = LoggerFactory.getLogger(DirectorySync.class);

  private DirectorySync() {}

  /** EINVAL or ENOTSUP from fsync: the file system does not sync directories, not an I/O error. */
  private static boolean isUnsupported(IOException e) {
    String message = e.getMessage();
    return message != null
        && (message.contains("Invalid argument") || message.contains("not supported"));
  }

  /**
   * Forces {@code directory}. A file system that cannot open or sync directories is tolerated
   * (nothing more can be done there); a failed fsync (an I/O error) is not: what depends on the
   * entries being durable must not go on.
   *
   * @throws UncheckedIOException if the fsync fails
   */
  public static void sync(Path directory) {
    // Interrupt-safe: an interrupted caller must not have the fsync fail.
    InterruptSafeChannel channel;
    try {
      channel = InterruptSafeChannel.open(directory, StandardOpenOption.READ);
    } catch (IOException e) {
      LOG.debug("Could not open directory {} to fsync it: {}", directory, e.toString());
      return;
    }
    try (channel) {
      channel.force(true);
    } catch (IOException e) {
      if (isUnsupported(e)) {
        // Some mounts (FUSE, some bind mounts) open directories but refuse to sync them.
        LOG.debug("Directory {} cannot be fsynced here: {}", directory, e.toString());
        return;
      }
      throw new UncheckedIOException("Failed to fsync directory " + directory, e);
    }
  }
}

package io.tern.benchmark.chaos;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The disk-full fault's tool: fills the small file system of one broker's data with a file of zeros
 * until it is full, and removes it at the heal. Refuses a file system larger than {@link
 * #MAX_FILE_SYSTEM_BYTES}, so that a mistyped directory never fills a real disk.
 */
final class DiskFiller {
  /** The largest file system the suite fills. */
  static final long MAX_FILE_SYSTEM_BYTES = 32L << 30;

  /** The filler's name in the directory. */
  static final String FILLER = "chaos-disk-filler";

  private static final int CHUNK_BYTES = 1 << 20;

  private DiskFiller() {}

  /**
   * Why {@code dir} cannot take the fault, or null: it must be a directory on a file system of its
   * own of at most {@link #MAX_FILE_SYSTEM_BYTES}, not the one of {@code clusterDir}.
   */
  static String unusable(Path dir, Path clusterDir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return dir + " is not a directory";
    }
    FileStore store = Files.getFileStore(dir);
    if (store.getTotalSpace() > MAX_FILE_SYSTEM_BYTES) {
      return dir
          + " is on a file system of "
          + (store.getTotalSpace() >> 30)
          + " GiB; the suite fills only small ones (at most "
          + (MAX_FILE_SYSTEM_BYTES >> 30)
          + " GiB), made for it";
    }
    Path existing = clusterDir;
    while (existing != null && !Files.exists(existing)) {
      existing = existing.getParent();
    }
    if (existing != null && Files.getFileStore(existing).equals(store)) {
      return dir + " is on the same file system as the cluster's other data (" + clusterDir + ")";
    }
    return null;
  }

  /** Writes zeros to {@code dir}/{@value #FILLER} until the disk is full; returns the bytes. */
  static long fill(Path dir) throws IOException {
    Path filler = dir.resolve(FILLER);
    ByteBuffer zeros = ByteBuffer.allocateDirect(CHUNK_BYTES);
    long written = 0;
    try (FileChannel channel =
        FileChannel.open(
            filler,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      while (written < MAX_FILE_SYSTEM_BYTES) {
        zeros.clear();
        try {
          while (zeros.hasRemaining()) {
            written += channel.write(zeros);
          }
        } catch (IOException full) {
          break; // no space left: what the fault is for
        }
      }
      try {
        channel.force(false);
      } catch (IOException full) {
        // written as far as it goes
      }
    }
    return written;
  }

  /** Removes the filler: the disk has room again. */
  static void release(Path dir) throws IOException {
    Files.deleteIfExists(dir.resolve(FILLER));
  }
}

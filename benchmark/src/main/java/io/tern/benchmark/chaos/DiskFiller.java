package io.tern.benchmark.chaos;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

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

  /** File systems in memory: filling them fills RAM. */
  private static final java.util.Set<String> MEMORY_FILE_SYSTEMS =
      java.util.Set.of("tmpfs", "ramfs", "devtmpfs");

  private DiskFiller() {}

  /**
   * Why {@code dir} cannot take the fault, or null: it must be the mount point of a disk-backed
   * file system of its own (not tmpfs: that would fill memory) of at most {@link
   * #MAX_FILE_SYSTEM_BYTES}, not the one of {@code clusterDir}, and hold nothing but what the suite
   * puts there.
   */
  static String unusable(Path dir, Path clusterDir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return dir + " is not a directory";
    }
    FileStore store = Files.getFileStore(dir);
    Path parent = dir.toAbsolutePath().normalize().getParent();
    if (parent == null || Files.getFileStore(parent).equals(store)) {
      return dir + " is not the mount point of a file system of its own";
    }
    if (MEMORY_FILE_SYSTEMS.contains(store.type())) {
      return dir + " is on " + store.type() + ", which would fill memory, not a disk";
    }
    try (java.util.stream.Stream<Path> entries = Files.list(dir)) {
      List<String> others =
          entries
              .map(entry -> entry.getFileName().toString())
              .filter(name -> !name.equals("lost+found") && !name.startsWith("broker-"))
              .filter(name -> !name.equals(FILLER))
              .toList();
      if (!others.isEmpty()) {
        return dir + " holds other files (" + others + "): give it an empty file system";
      }
    }
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

  /**
   * Writes zeros to {@code dir}/{@value #FILLER} until the disk is full; returns the bytes. Checks
   * again first that {@code dir} is still the file system it was (a loop mount that went away would
   * leave its mount point on the disk below).
   */
  static long fill(Path dir, FileStore expected) throws IOException {
    if (!Files.getFileStore(dir).equals(expected)) {
      throw new IOException(dir + " is no longer on the file system it was on: not filling it");
    }
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

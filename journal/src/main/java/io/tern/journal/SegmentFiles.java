package io.tern.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * File names and file-system operations of one journal directory.
 *
 * <ul>
 *   <li>{@code <name>-<id>.log}: segments, ids increasing with indexes
 *   <li>{@code <name>.spare}: the next segment, preallocated ahead of time
 *   <li>{@code <name>.lock}: held while the journal is open ({@link DirectoryLock})
 *   <li>{@code *.deleted}: a segment being deleted; renamed first so that a crash never leaves a
 *       half-deleted segment that looks live, removed on open
 * </ul>
 */
final class SegmentFiles {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentFiles.class);
  private static final String DELETED_SUFFIX = ".deleted";
  private static final int ZERO_CHUNK_BYTES = 1024 * 1024;

  private final Path directory;
  private final String name;
  private final Pattern segmentPattern;
  private final LongSupplier usableSpace;

  SegmentFiles(Path directory, String name) {
    this(directory, name, null);
  }

  /**
   * @param usableSpace free bytes for new segments; null: the file store's (tests supply their own
   *     to run out of space on demand)
   */
  SegmentFiles(Path directory, String name, LongSupplier usableSpace) {
    this.directory = directory;
    this.name = name;
    this.segmentPattern = Pattern.compile(Pattern.quote(name) + "-(\\d+)\\.log");
    this.usableSpace = usableSpace;
  }

  Path directory() {
    return directory;
  }

  Path segmentPath(long id) {
    return directory.resolve(name + "-" + id + ".log");
  }

  Path sparePath() {
    return directory.resolve(name + ".spare");
  }

  Path lockPath() {
    return directory.resolve(name + ".lock");
  }

  /** Segment files by id. */
  TreeMap<Long, Path> listSegments() {
    TreeMap<Long, Path> segments = new TreeMap<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      for (Path path : stream) {
        Matcher matcher = segmentPattern.matcher(path.getFileName().toString());
        if (matcher.matches()) {
          try {
            segments.put(Long.parseLong(matcher.group(1)), path);
          } catch (NumberFormatException e) {
            // Not ours: ids are longs. Left alone rather than deleted.
            LOG.warn("Ignoring {} in the journal directory: its segment id is out of range", path);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to list journal directory " + directory, e);
    }
    return segments;
  }

  /** Removes segments whose deletion was interrupted by a crash. */
  void removeInterruptedDeletions() {
    List<Path> leftovers = new ArrayList<>();
    try (DirectoryStream<Path> stream =
        Files.newDirectoryStream(directory, name + "-*.log" + DELETED_SUFFIX)) {
      stream.forEach(leftovers::add);
      for (Path leftover : leftovers) {
        LOG.info("Removing journal segment {} whose deletion was interrupted", leftover);
        Files.deleteIfExists(leftover);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to clean journal directory " + directory, e);
    }
    if (!leftovers.isEmpty()) {
      syncDirectory();
    }
  }

  /** Deletes a segment file crash-safely: rename, then unlink. A live mapping stays valid. */
  void delete(Path segment) {
    Path deleted = segment.resolveSibling(segment.getFileName() + DELETED_SUFFIX);
    try {
      Files.move(segment, deleted, StandardCopyOption.ATOMIC_MOVE);
      Files.delete(deleted);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to delete journal segment " + segment, e);
    }
  }

  void rename(Path from, Path to) {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to rename " + from + " to " + to, e);
    }
  }

  /**
   * Creates {@code file} with {@code sizeBytes} of allocated, zeroed blocks: natively with
   * posix_fallocate where possible, else by writing zeros. Allocating for real (not a sparse file)
   * matters: a write through a mapping into a hole on a full disk kills the process with SIGBUS.
   */
  void createPreallocated(Path file, int sizeBytes, boolean preallocate) {
    try {
      Files.deleteIfExists(file);
      if (preallocate && NativeIo.fallocate(file, sizeBytes)) {
        return;
      }
      Files.deleteIfExists(file); // a failed fallocate may have created it

      try (FileChannel channel =
          FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        if (!preallocate) {
          channel.truncate(sizeBytes);
          channel.write(ByteBuffer.allocate(1), sizeBytes - 1);
          return;
        }
        ByteBuffer zeros = ByteBuffer.allocateDirect(Math.min(ZERO_CHUNK_BYTES, sizeBytes));
        long position = 0;
        while (position < sizeBytes) {
          zeros.clear();
          zeros.limit((int) Math.min(zeros.capacity(), sizeBytes - position));
          position += channel.write(zeros, position);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to create journal segment file " + file, e);
    }
  }

  /** Makes creations, renames and deletions in the directory durable. */
  void syncDirectory() {
    DirectorySync.sync(directory);
  }

  long usableSpace() {
    if (usableSpace != null) {
      return usableSpace.getAsLong();
    }
    try {
      return Files.getFileStore(directory).getUsableSpace();
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to read free space of " + directory, e);
    }
  }
}

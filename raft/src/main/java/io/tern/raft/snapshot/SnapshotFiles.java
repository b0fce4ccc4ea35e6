package io.tern.raft.snapshot;

import io.tern.journal.DirectorySync;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Names under the snapshot root and the file-system steps that make snapshots crash-safe.
 *
 * <ul>
 *   <li>{@code <index>-<term>}: a complete snapshot; only ever created by an atomic rename
 *   <li>{@code pending-<index>-<term>-taken|received}: a snapshot being written; removed on open
 *   <li>{@code *.deleted}: a snapshot being deleted; renamed first so that a crash never leaves a
 *       half-deleted snapshot under a final name, removed on open
 * </ul>
 */
final class SnapshotFiles {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotFiles.class);

  static final String MANIFEST = "MANIFEST";
  static final String PENDING_PREFIX = "pending-";
  static final String DELETED_SUFFIX = ".deleted";
  static final String TAKEN = "taken";
  static final String RECEIVED = "received";

  /** The longest file name most file systems accept (ext4, xfs, btrfs: 255 bytes). */
  static final int MAX_FILE_NAME_BYTES = 255;

  // No leading zeros, so that one (index, term, generation) has exactly one directory name. The
  // generation (absent: 0) counts snapshots retaken at the same index to replace a damaged one.
  private static final Pattern FINAL_NAME =
      Pattern.compile("([1-9][0-9]{0,18})-([1-9][0-9]{0,18})(?:-([1-9][0-9]{0,8}))?");

  private SnapshotFiles() {}

  /** Index, term and generation of a snapshot, as encoded in its directory name. */
  record SnapshotId(long index, long term, int generation) {}

  static String finalName(long index, long term) {
    return finalName(index, term, 0);
  }

  static String finalName(long index, long term, int generation) {
    return generation == 0 ? index + "-" + term : index + "-" + term + "-" + generation;
  }

  static String pendingName(long index, long term, String purpose) {
    return PENDING_PREFIX + index + "-" + term + "-" + purpose;
  }

  /** The id encoded in a complete snapshot's directory name, or null if it is no such name. */
  static SnapshotId parseFinalName(String name) {
    Matcher matcher = FINAL_NAME.matcher(name);
    if (!matcher.matches()) {
      return null;
    }
    try {
      String generation = matcher.group(3);
      return new SnapshotId(
          Long.parseLong(matcher.group(1)),
          Long.parseLong(matcher.group(2)),
          generation == null ? 0 : Integer.parseInt(generation));
    } catch (NumberFormatException tooLarge) {
      return null;
    }
  }

  /**
   * True if {@code name} may name a file inside a snapshot: a single path element that cannot
   * escape the snapshot directory, clash with our manifest, or be refused by the file system for
   * its length. Names from the network pass through here before they touch the disk.
   */
  static boolean isSafeFileName(String name) {
    if (name == null
        || name.isEmpty()
        || name.equals(".")
        || name.equals("..")
        || name.equals(MANIFEST)
        || name.indexOf('/') >= 0
        || name.indexOf('\\') >= 0
        || name.indexOf('\0') >= 0) {
      return false;
    }
    // canEncode rejects unpaired surrogates, which would not survive the UTF-8 round trip.
    return StandardCharsets.UTF_8.newEncoder().canEncode(name)
        && name.getBytes(StandardCharsets.UTF_8).length <= MAX_FILE_NAME_BYTES;
  }

  static boolean isDirectory(Path path) {
    return Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS);
  }

  /** Makes creations, renames and deletions in {@code directory} durable. */
  static void syncDirectory(Path directory) {
    DirectorySync.sync(directory);
  }

  static void moveAtomically(Path from, Path to) {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to rename " + from + " to " + to, e);
    }
  }

  /**
   * First step of a crash-safe deletion: renames {@code directory} to {@code *.deleted}, which open
   * removes if the deletion does not finish. The caller syncs the parent, then calls {@link
   * #deleteRecursively}.
   */
  static Path markDeleted(Path directory) {
    Path deleted = directory.resolveSibling(directory.getFileName() + DELETED_SUFFIX);
    if (Files.exists(deleted, LinkOption.NOFOLLOW_LINKS)) {
      deleteRecursively(deleted); // garbage from an earlier failed deletion
    }
    moveAtomically(directory, deleted);
    return deleted;
  }

  /** Deletes {@code path} and, if it is a directory, everything in it; never follows links. */
  static void deleteRecursively(Path path) {
    try {
      Files.walkFileTree(
          path,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
                throws IOException {
              Files.deleteIfExists(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path directory, IOException failure)
                throws IOException {
              if (failure != null) {
                throw failure;
              }
              Files.deleteIfExists(directory);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (NoSuchFileException alreadyGone) {
      // Nothing left to delete.
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to delete " + path, e);
    }
  }

  /** The entries of {@code directory}, in no particular order. */
  static List<Path> list(Path directory) {
    List<Path> paths = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory)) {
      stream.forEach(paths::add);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to list snapshot directory " + directory, e);
    } catch (DirectoryIteratorException e) {
      throw new UncheckedIOException(
          "Failed to list snapshot directory " + directory, e.getCause());
    }
    return paths;
  }

  /**
   * Deletes every snapshot directory under {@code root} but {@code keep}: all are renamed to {@code
   * *.deleted} and the root synced before any is removed, so that no crash brings back a snapshot
   * that was replaced (which, after installing an older received one, open would otherwise pick).
   */
  static void deleteAllBut(Path root, Path keep) {
    List<Path> marked = new ArrayList<>();
    for (Path path : list(root)) {
      if (!path.equals(keep)
          && parseFinalName(path.getFileName().toString()) != null
          && isDirectory(path)) {
        marked.add(markDeleted(path));
      }
    }
    if (!marked.isEmpty()) {
      syncDirectory(root);
      marked.forEach(SnapshotFiles::deleteRecursively);
    }
  }
}

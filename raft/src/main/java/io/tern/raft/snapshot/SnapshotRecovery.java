package io.tern.raft.snapshot;

import io.tern.raft.snapshot.SnapshotFiles.SnapshotId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What open finds under the snapshot root: removes leftovers of interrupted work (pending and
 * {@code *.deleted} directories) and picks the complete snapshot with the highest index whose
 * manifest verifies. A snapshot directory whose manifest does not verify is logged and kept for
 * inspection; no valid snapshot is ever deleted here.
 */
final class SnapshotRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(SnapshotRecovery.class);

  /**
   * @param latestDirectory the latest valid snapshot, or null if there is none
   * @param latest its manifest, or null
   * @param corruptDirectories snapshot directories whose manifest did not verify
   */
  record Result(Path latestDirectory, Manifest latest, List<Path> corruptDirectories) {}

  private SnapshotRecovery() {}

  static Result recover(Path root) {
    prepareRoot(root);
    List<Path> candidates = new ArrayList<>();
    Map<Path, SnapshotId> ids = new HashMap<>();
    for (Path path : SnapshotFiles.list(root)) {
      String name = path.getFileName().toString();
      if (name.startsWith(SnapshotFiles.PENDING_PREFIX)) {
        LOG.info("Removing snapshot {}: it was never completed", path);
        SnapshotFiles.deleteRecursively(path);
      } else if (name.endsWith(SnapshotFiles.DELETED_SUFFIX)) {
        LOG.info("Removing snapshot {} whose deletion was interrupted", path);
        SnapshotFiles.deleteRecursively(path);
      } else {
        SnapshotId id = SnapshotFiles.parseFinalName(name);
        if (id != null && SnapshotFiles.isDirectory(path)) {
          candidates.add(path);
          ids.put(path, id);
        } else {
          LOG.warn("Ignoring {}: not a snapshot directory", path);
        }
      }
    }
    // Newest first; at one index the latest generation, which replaced a damaged one (and a crash
    // may have come before the damaged one was deleted).
    candidates.sort(
        Comparator.comparingLong((Path path) -> ids.get(path).index())
            .thenComparingInt(path -> ids.get(path).generation())
            .reversed());
    List<Path> corrupt = new ArrayList<>();
    for (Path candidate : candidates) {
      try {
        Manifest manifest = Manifest.read(candidate);
        verify(candidate, ids.get(candidate), manifest);
        return new Result(candidate, manifest, corrupt);
      } catch (IOException | UncheckedIOException e) {
        LOG.warn(
            "Ignoring snapshot {}: its manifest does not verify ({})", candidate, e.toString());
        corrupt.add(candidate);
      }
    }
    return new Result(null, null, corrupt);
  }

  private static void prepareRoot(Path root) {
    if (Files.exists(root, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(root)) {
      throw new UncheckedIOException(
          "Snapshot root " + root + " is not a directory",
          new NotDirectoryException(root.toString()));
    }
    try {
      Files.createDirectories(root);
    } catch (IOException e) {
      throw new UncheckedIOException("Failed to create snapshot root " + root, e);
    }
  }

  /**
   * Checks that the manifest belongs to this directory and matches the files present, by name and
   * size. The content CRCs are not recomputed: that would read every snapshot byte on each open; a
   * follower that receives this snapshot verifies them anyway.
   */
  private static void verify(Path directory, SnapshotId id, Manifest manifest) throws IOException {
    if (manifest.index() != id.index() || manifest.term() != id.term()) {
      throw new IOException("manifest is for snapshot " + manifest.index() + "-" + manifest.term());
    }
    List<String> present = new ArrayList<>();
    for (Path path : SnapshotFiles.list(directory)) {
      String name = path.getFileName().toString();
      if (!name.equals(SnapshotFiles.MANIFEST)) {
        present.add(name);
      }
    }
    present.sort(null);
    List<String> listed = manifest.files().stream().map(Manifest.FileEntry::name).toList();
    if (!present.equals(listed)) {
      throw new IOException("files " + present + " differ from the manifest's " + listed);
    }
    for (Manifest.FileEntry file : manifest.files()) {
      Path path = directory.resolve(file.name());
      if (!Files.isRegularFile(path, LinkOption.NOFOLLOW_LINKS)
          || Files.size(path) != file.sizeBytes()) {
        throw new IOException(
            path + " is not a file of " + file.sizeBytes() + " bytes, as the manifest says");
      }
    }
  }
}

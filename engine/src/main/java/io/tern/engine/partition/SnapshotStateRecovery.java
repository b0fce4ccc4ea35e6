package io.tern.engine.partition;

import io.tern.engine.processor.SnapshotProperties;
import io.tern.engine.processor.StateRecovery;
import io.tern.engine.state.PartitionState;
import io.tern.engine.state.StateResources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Recovery from the latest snapshot: the runtime directory (maybe on tmpfs) is emptied and filled
 * with a copy of the snapshot's RocksDB files, or left empty if there is no snapshot. A copy, not
 * links: RocksDB appends to its MANIFEST file, which would change the snapshot under Raft.
 */
final class SnapshotStateRecovery implements StateRecovery {
  private static final int ATTEMPTS = 3;
  private static final String RAFT_MANIFEST = "MANIFEST";

  private final Path runtimeDirectory;
  private final Supplier<Path> latestSnapshot;
  private final StateResources resources;

  SnapshotStateRecovery(
      Path runtimeDirectory, Supplier<Path> latestSnapshot, StateResources resources) {
    this.runtimeDirectory = runtimeDirectory;
    this.latestSnapshot = latestSnapshot;
    this.resources = resources;
  }

  @Override
  public Recovered recover() {
    for (int attempt = 1; ; attempt++) {
      Path snapshot = latestSnapshot.get();
      try {
        deleteRecursively(runtimeDirectory);
        if (snapshot == null) {
          return new Recovered(new PartitionState(runtimeDirectory, resources), 1, 0);
        }
        SnapshotProperties properties = SnapshotProperties.readFrom(snapshot);
        copyStateFiles(snapshot, runtimeDirectory);
        return new Recovered(
            new PartitionState(runtimeDirectory, resources),
            properties.index() + 1,
            properties.lastLogPosition());
      } catch (NoSuchFileException e) {
        // A newer snapshot replaced this one while we copied it: take the newer one.
        if (attempt == ATTEMPTS) {
          throw new UncheckedIOException("Cannot copy the snapshot " + snapshot, e);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot recover the state from " + snapshot + " into " + runtimeDirectory, e);
      }
    }
  }

  private static void copyStateFiles(Path snapshot, Path target) throws IOException {
    Files.createDirectories(target);
    try (DirectoryStream<Path> files = Files.newDirectoryStream(snapshot)) {
      for (Path file : files) {
        String name = file.getFileName().toString();
        if (!name.equals(RAFT_MANIFEST) && !name.equals(SnapshotProperties.FILE_NAME)) {
          Files.copy(file, target.resolve(name));
        }
      }
    }
  }

  static void deleteRecursively(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(directory)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}

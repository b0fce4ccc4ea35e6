package io.tern.engine.scaling;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Deleting what a dropped replica left on disk. */
public final class ReplicaFiles {
  private ReplicaFiles() {}

  /** Deletes {@code root} and everything under it; nothing if it does not exist. */
  public static void delete(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}

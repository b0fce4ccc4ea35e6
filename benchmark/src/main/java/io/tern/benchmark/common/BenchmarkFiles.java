package io.tern.benchmark.common;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Where benchmarks put their results and how they clean up their data. */
public final class BenchmarkFiles {
  private BenchmarkFiles() {}

  /**
   * {@code name} next to the jar (benchmark/target/ when run as documented; classes run from an IDE
   * live in target/classes, whose parent is target/ too), else in the working directory.
   */
  public static Path defaultJsonOut(String name) {
    try {
      Path location =
          Path.of(BenchmarkFiles.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      Path target = location.getParent();
      if (target != null && Files.isDirectory(target)) {
        return target.resolve(name);
      }
    } catch (URISyntaxException | SecurityException | NullPointerException e) {
      // Fall through: an unusual class loader; the working directory is a fine default.
    }
    return Path.of(name);
  }

  /** A benchmark body that works in a scratch directory. */
  @FunctionalInterface
  public interface InScratch {
    void run(Path root) throws Exception;
  }

  /**
   * Runs {@code body} in a fresh directory under {@code parent} (named {@code prefix...}), after
   * checking that the disk has {@code requiredFreeBytes}; the directory is deleted afterwards, also
   * when the JVM is interrupted, so that a run never leaves gigabytes behind.
   *
   * @return the process exit code: 0, or 1 when the disk is too full
   */
  public static int runInScratch(Path parent, String prefix, long requiredFreeBytes, InScratch body)
      throws Exception {
    Files.createDirectories(parent);
    Path root = Files.createTempDirectory(parent, prefix);
    Thread cleanup = new Thread(() -> deleteQuietly(root), prefix + "cleanup");
    Runtime.getRuntime().addShutdownHook(cleanup);
    try {
      long usableBytes = Files.getFileStore(root).getUsableSpace();
      if (usableBytes < requiredFreeBytes) {
        System.err.printf(
            "Not enough free disk in %s: %d MiB usable, %d MiB needed%n",
            root, usableBytes >> 20, requiredFreeBytes >> 20);
        return 1;
      }
      body.run(root);
      return 0;
    } finally {
      deleteQuietly(root);
    }
  }

  /** Deletes a benchmark's data directory; a failure is reported, not thrown. */
  public static void deleteQuietly(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      System.err.println("Could not delete " + dir + ": " + e);
    }
  }
}

package io.tern.engine.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * The topology a data directory was made under ({@code topology.properties}: cluster size,
 * partitions, replication factor), written on the first start and checked on every later one.
 * Partition membership is computed from these three at start (PartitionDistribution): a broker
 * restarted with another value would silently take replicas of partitions whose data it does not
 * have, and drop those it has. Until the cluster can be scaled online, such a start is refused.
 */
final class StoredTopology {
  static final String FILE_NAME = "topology.properties";

  private StoredTopology() {}

  /** The configuration names a topology other than the one the data was written under. */
  static final class MismatchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MismatchException(Path file, String stored, String configured) {
      super(
          "the data in "
              + file.getParent()
              + " belongs to a cluster of "
              + stored
              + " (recorded in "
              + file
              + "), but this broker is configured for "
              + configured
              + ": partition membership follows from these values, so starting would move"
              + " replicas away from their data. Tern cannot change the topology of an existing"
              + " cluster yet: set cluster.clusterSize, cluster.partitionsCount and"
              + " cluster.replicationFactor back to the stored values; to run with the new ones,"
              + " take a backup, start every broker on empty data directories and restore or"
              + " replay the load (docs/deploy.md, Changing the cluster size)");
    }
  }

  /**
   * Records the configured topology in {@code config.dataDirectory()} when none is recorded yet;
   * otherwise compares.
   *
   * @throws MismatchException when the recorded topology differs from the configuration
   * @throws UncheckedIOException when the file cannot be read or written
   */
  static void verifyOrRecord(BrokerConfig config) {
    Path file = config.dataDirectory().resolve(FILE_NAME);
    String configured =
        describe(config.clusterSize(), config.partitionsCount(), config.replicationFactor());
    try {
      if (Files.exists(file)) {
        Properties stored = new Properties();
        try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
          stored.load(in);
        }
        String recorded =
            describe(
                number(stored, file, "clusterSize"),
                number(stored, file, "partitionsCount"),
                number(stored, file, "replicationFactor"));
        if (!recorded.equals(configured)) {
          throw new MismatchException(file, recorded, configured);
        }
        return;
      }
      // Written whole to a temporary file and moved: a crash never leaves a half file behind.
      Path temporary = file.resolveSibling(FILE_NAME + ".tmp");
      Files.writeString(
          temporary,
          "# The topology this data directory was made under; a broker configured otherwise"
              + " refuses to start.\n"
              + "clusterSize="
              + config.clusterSize()
              + "\npartitionsCount="
              + config.partitionsCount()
              + "\nreplicationFactor="
              + config.replicationFactor()
              + "\n",
          StandardCharsets.UTF_8);
      Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or record the topology in " + file, e);
    }
  }

  private static int number(Properties stored, Path file, String key) {
    String value = stored.getProperty(key);
    try {
      return Integer.parseInt(value == null ? "" : value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalStateException(
          file + " has no valid " + key + " (" + value + "): restore the file or remove it", e);
    }
  }

  private static String describe(int clusterSize, int partitionsCount, int replicationFactor) {
    return "clusterSize "
        + clusterSize
        + ", partitionsCount "
        + partitionsCount
        + ", replicationFactor "
        + replicationFactor;
  }
}

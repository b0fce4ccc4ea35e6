package io.tern.engine.broker;

import io.tern.engine.scaling.Topology;
import io.tern.engine.scaling.TopologyStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * The topology a data directory was made under ({@code topology.properties}: cluster size,
 * partitions, replication factor), written on the first start and checked on every later one, and
 * the cluster topology that grew from it ({@code cluster-topology.json}, see {@link
 * TopologyStore}).
 *
 * <p>The replicas a broker opens follow the stored cluster topology, not the configuration: the
 * first start records the configured values and the round-robin placement they give; a cluster
 * changed through {@code /actuator/cluster} stores its new placement. A later start is accepted
 * when its cluster size and replication factor are those recorded at first, or those of the cluster
 * as changed (an operator updating the configuration after a change); any other value, or another
 * partition count, would name a placement that is not where the data is, and is refused.
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
              + " replicas away from their data. Set cluster.clusterSize, cluster.partitionsCount"
              + " and cluster.replicationFactor back to the stored values; change the brokers or"
              + " the replication factor of a running cluster through POST"
              + " /actuator/cluster/brokers (docs/scaling.md); the partition count cannot change");
    }
  }

  /**
   * Records the configured topology in {@code config.dataDirectory()} when none is recorded yet;
   * otherwise compares.
   *
   * @throws MismatchException when the recorded topology differs from the configuration
   * @throws UncheckedIOException when the file cannot be read or written
   */
  static TopologyStore open(BrokerConfig config) {
    Topology changed = TopologyStore.readIfPresent(config.dataDirectory());
    if (changed == null || changed.version() == 0) {
      verifyOrRecord(config);
    } else {
      verifyChanged(config, changed);
    }
    Path file = config.dataDirectory().resolve(FILE_NAME);
    Properties recorded = load(file);
    Topology initial =
        Topology.initial(
            number(recorded, file, "clusterSize"),
            number(recorded, file, "partitionsCount"),
            number(recorded, file, "replicationFactor"));
    return TopologyStore.open(config.dataDirectory(), initial);
  }

  /** A data directory whose cluster was changed: the configuration may name either shape. */
  private static void verifyChanged(BrokerConfig config, Topology changed) {
    Path file = config.dataDirectory().resolve(FILE_NAME);
    Properties recorded = load(file);
    int clusterSize = number(recorded, file, "clusterSize");
    int replication = number(recorded, file, "replicationFactor");
    boolean sizeFits =
        config.clusterSize() == clusterSize || config.clusterSize() == changed.brokers().size();
    boolean factorFits =
        config.replicationFactor() == replication
            || config.replicationFactor() == changed.replicationFactor();
    if (config.partitionsCount() != changed.partitionsCount() || !sizeFits || !factorFits) {
      throw new MismatchException(
          file,
          describe(clusterSize, changed.partitionsCount(), replication)
              + " at first, changed online to "
              + describe(
                  changed.brokers().size(), changed.partitionsCount(), changed.replicationFactor())
              + " ("
              + TopologyStore.FILE_NAME
              + ")",
          describe(config.clusterSize(), config.partitionsCount(), config.replicationFactor()));
    }
  }

  private static Properties load(Path file) {
    Properties stored = new Properties();
    try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      stored.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the topology in " + file, e);
    }
    return stored;
  }

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

package io.tern.engine.scaling;

import io.tern.journal.DirectorySync;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's copy of the cluster {@link Topology}: in memory, and in {@code
 * <data.directory>/cluster-topology.json}, forced to disk before anyone else hears of a version
 * (written whole to a temporary file, forced, renamed, directory forced). A version newer than the
 * one held replaces it, wherever it comes from (gossip, the coordinator); an older or equal one is
 * ignored, so versions only move forward on every broker.
 */
public final class TopologyStore {
  private static final Logger LOG = LoggerFactory.getLogger(TopologyStore.class);
  public static final String FILE_NAME = "cluster-topology.json";

  private final Path file;
  private final List<Consumer<Topology>> listeners = new CopyOnWriteArrayList<>();
  private volatile Topology current;
  private volatile String json;

  private TopologyStore(Path file, Topology current) {
    this.file = file;
    this.current = current;
    this.json = current.toJson();
  }

  /** The stored topology of {@code dataDirectory}, or {@code initial} (then written) if none. */
  public static TopologyStore open(Path dataDirectory, Topology initial) {
    Path file = dataDirectory.resolve(FILE_NAME);
    if (Files.exists(file)) {
      return new TopologyStore(file, read(file));
    }
    TopologyStore store = new TopologyStore(file, initial);
    store.write(initial);
    return store;
  }

  /** The topology stored in {@code dataDirectory}, or null if none is. */
  public static Topology readIfPresent(Path dataDirectory) {
    Path file = dataDirectory.resolve(FILE_NAME);
    return Files.exists(file) ? read(file) : null;
  }

  private static Topology read(Path file) {
    try {
      return Topology.fromJson(Files.readString(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the cluster topology in " + file, e);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          file + ": " + e.getMessage() + " (restore the file from another broker's copy)", e);
    }
  }

  public Topology current() {
    return current;
  }

  /**
   * {@link #current()} as JSON (what the broker's state carries; kept so as not to write it each
   * time).
   */
  public String json() {
    return json;
  }

  /** Told of each new version, on the thread that stored it. */
  public void addListener(Consumer<Topology> listener) {
    listeners.add(listener);
  }

  /** Takes {@code other} if it is newer than the one held; returns whether it did. */
  public boolean adopt(Topology other) {
    synchronized (this) {
      if (other.version() <= current.version()) {
        return false;
      }
      write(other);
    }
    LOG.info("Cluster topology version {}: {}", other.version(), other.describePlacement());
    listeners.forEach(listener -> listener.accept(other));
    return true;
  }

  /**
   * Stores {@code update} applied to the current topology (the coordinator's changes), if the
   * current one is still of version {@code expectedVersion}; returns the stored one, or null if
   * another version came in meanwhile.
   */
  public Topology update(long expectedVersion, UnaryOperator<Topology> update) {
    Topology next;
    synchronized (this) {
      if (current.version() != expectedVersion) {
        return null;
      }
      next = update.apply(current);
      if (next.version() <= current.version()) {
        throw new IllegalStateException("a topology update must raise the version");
      }
      write(next);
    }
    LOG.info("Cluster topology version {}: {}", next.version(), next.describePlacement());
    listeners.forEach(listener -> listener.accept(next));
    return next;
  }

  private void write(Topology topology) {
    String text = topology.toJson();
    Path temporary = file.resolveSibling(FILE_NAME + ".tmp");
    try {
      Files.writeString(temporary, text, StandardCharsets.UTF_8);
      try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
        channel.force(true);
      }
      Files.move(
          temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      DirectorySync.sync(file.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot store the cluster topology in " + file, e);
    }
    current = topology;
    json = text;
  }
}

package io.tern.engine.processor;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What a state snapshot says about itself, in a small file next to the RocksDB checkpoint: the log
 * entry it reflects (replay continues after it) and the last position in the log at that entry
 * (where a new leader continues numbering if nothing follows in the log).
 */
public record SnapshotProperties(long index, long lastLogPosition, long lastProcessedPosition) {
  public static final String FILE_NAME = "tern-snapshot.properties";

  public void writeTo(Path directory) {
    Properties properties = new Properties();
    properties.setProperty("index", Long.toString(index));
    properties.setProperty("lastLogPosition", Long.toString(lastLogPosition));
    properties.setProperty("lastProcessedPosition", Long.toString(lastProcessedPosition));
    try (Writer writer = Files.newBufferedWriter(directory.resolve(FILE_NAME))) {
      properties.store(writer, "Tern partition state snapshot");
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + FILE_NAME + " in " + directory, e);
    }
  }

  /**
   * @throws IllegalStateException naming the file if it is missing or malformed
   */
  public static SnapshotProperties readFrom(Path directory) {
    Path file = directory.resolve(FILE_NAME);
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file)) {
      properties.load(reader);
      return new SnapshotProperties(
          Long.parseLong(properties.getProperty("index")),
          Long.parseLong(properties.getProperty("lastLogPosition")),
          Long.parseLong(properties.getProperty("lastProcessedPosition")));
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException("The snapshot file " + file + " is missing or malformed", e);
    }
  }
}

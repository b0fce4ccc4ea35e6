package io.tern.raft.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.tern.raft.SnapshotMeta;
import io.tern.raft.SnapshotStore.Chunk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Test helpers: taking snapshots with given files, and moving one between stores chunk by chunk.
 */
final class Transfers {
  static final int CHUNK_BYTES = FileSnapshotStore.MIN_CHUNK_BYTES;

  private Transfers() {}

  static byte[] randomBytes(int length, long seed) {
    byte[] bytes = new byte[length];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  static SnapshotMeta take(
      FileSnapshotStore store, long index, long term, Map<String, byte[]> files) {
    try (SnapshotWriter writer = store.newSnapshot(index, term)) {
      for (Map.Entry<String, byte[]> file : files.entrySet()) {
        Files.write(writer.directory().resolve(file.getKey()), file.getValue());
      }
      return writer.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Chunk> readAll(FileSnapshotStore store, SnapshotMeta meta) {
    List<Chunk> chunks = new ArrayList<>();
    for (int i = 0; i < meta.chunkCount(); i++) {
      chunks.add(store.readChunk(meta, i));
    }
    return chunks;
  }

  /** Sends every chunk of {@code from}'s latest snapshot to {@code to}, asserting each is taken. */
  static void sendAll(FileSnapshotStore from, FileSnapshotStore to, SnapshotMeta meta) {
    to.beginReceive(meta);
    List<Chunk> chunks = readAll(from, meta);
    for (int i = 0; i < chunks.size(); i++) {
      assertThat(to.writeChunk(meta, i, chunks.get(i))).as("chunk %d", i).isTrue();
    }
  }

  /** The snapshot files in {@code directory}, without the manifest, by name. */
  static Map<String, byte[]> contents(Path directory) {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> paths = Files.list(directory)) {
      for (Path path : (Iterable<Path>) paths::iterator) {
        String name = path.getFileName().toString();
        if (!name.equals(SnapshotFiles.MANIFEST)) {
          files.put(name, Files.readAllBytes(path));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  static List<String> rootEntries(Path root) {
    try (Stream<Path> paths = Files.list(root)) {
      return paths.map(path -> path.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

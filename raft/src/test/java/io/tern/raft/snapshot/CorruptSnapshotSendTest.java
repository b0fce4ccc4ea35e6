package io.tern.raft.snapshot;

import static io.tern.raft.snapshot.Transfers.CHUNK_BYTES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.raft.SnapshotMeta;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A leader must not send a snapshot whose files rotted on disk after it was taken. */
class CorruptSnapshotSendTest {
  @TempDir Path root;

  private static Map<String, byte[]> files() {
    Map<String, byte[]> files = new TreeMap<>();
    files.put("a", Transfers.randomBytes(2 * CHUNK_BYTES + 10, 1)); // chunks 0, 1, 2
    files.put("b", Transfers.randomBytes(CHUNK_BYTES, 2)); // chunk 3
    return files;
  }

  @Test
  void aFileThatNoLongerMatchesItsManifestIsWithheldOnceItsEndIsRead() throws Exception {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      SnapshotMeta meta = Transfers.take(store, 10, 2, files());
      flipByte(store.latestDirectory().resolve("a"), CHUNK_BYTES + 3);

      assertThat(store.readChunk(meta, 0)).isNotNull();
      assertThat(store.readChunk(meta, 1)).as("the damage is in here, unseen so far").isNotNull();
      assertThat(store.latestIsCorrupt()).isFalse();
      assertThat(store.readChunk(meta, 2)).as("the end of file a: its CRC is compared").isNull();
      assertThat(store.latestIsCorrupt()).isTrue();
      assertThat(store.readChunk(meta, 0)).as("withheld from every follower").isNull();
      assertThat(store.readChunk(meta, 3)).isNull();
      assertThat(store.latest())
          .as("still the latest: the log was compacted to it")
          .isEqualTo(meta);

      SnapshotMeta newer = Transfers.take(store, 20, 2, files());
      assertThat(store.latestIsCorrupt()).isFalse();
      assertThat(Transfers.readAll(store, newer)).doesNotContainNull();
    }
  }

  @Test
  void intactFilesReadOutOfOrderAreNotTakenForCorrupt() {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      SnapshotMeta meta = Transfers.take(store, 10, 2, files());
      // Two followers at different places, a resend after a gap, a second pass over everything.
      int[] order = {0, 1, 0, 3, 2, 1, 2, 3, 0, 1, 2, 3};
      for (int chunk : order) {
        assertThat(store.readChunk(meta, chunk)).as("chunk %d", chunk).isNotNull();
      }
      assertThat(store.latestIsCorrupt()).isFalse();
    }
  }

  @Test
  void damageIsFoundWhenChunksAreReadOutOfOrder() throws Exception {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      SnapshotMeta meta = Transfers.take(store, 10, 2, files());
      flipByte(store.latestDirectory().resolve("a"), 5); // in chunk 0
      // A resend and a second follower interleave: 1 (skipped: not the next offset), 0, 2
      // (skipped), 0 (already summed), 1; then 2 completes file a in order.
      for (int chunk : new int[] {1, 0, 2, 0, 1}) {
        assertThat(store.readChunk(meta, chunk)).as("chunk %d", chunk).isNotNull();
      }
      assertThat(store.readChunk(meta, 2)).isNull();
      assertThat(store.latestIsCorrupt()).isTrue();
    }
  }

  @Test
  void aFileShorterThanItsManifestIsWithheldToo() throws Exception {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      SnapshotMeta meta = Transfers.take(store, 10, 2, files());
      try (FileChannel channel =
          FileChannel.open(store.latestDirectory().resolve("a"), StandardOpenOption.WRITE)) {
        channel.truncate(CHUNK_BYTES + 10);
      }
      assertThat(store.readChunk(meta, 0)).isNotNull();
      assertThat(store.readChunk(meta, 1)).as("reads past the end").isNull();
      assertThat(store.latestIsCorrupt()).isTrue();
    }
  }

  /** An idle partition has no newer index: the replacement is retaken at the same one. */
  @Test
  void aDamagedLatestCanBeReplacedAtTheSameIndexAndTheReplacementIsChosenOnOpen() throws Exception {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      SnapshotMeta meta = Transfers.take(store, 10, 2, files());
      assertThatThrownBy(() -> Transfers.take(store, 10, 2, files()))
          .as("a sound latest is not replaced at its own index")
          .hasMessageContaining("is not above the latest");
      flipByte(store.latestDirectory().resolve("b"), 0);
      assertThat(store.readChunk(meta, 3)).isNull();

      SnapshotMeta retaken = Transfers.take(store, 10, 2, files());

      assertThat(store.latestIsCorrupt()).isFalse();
      assertThat(store.latestDirectory().getFileName().toString()).isEqualTo("10-2-1");
      assertThat(Transfers.readAll(store, retaken)).doesNotContainNull();
      assertThat(Transfers.rootEntries(root)).containsExactly("10-2-1");
    }
    // A crash after the replacement became durable but before the damaged one was deleted.
    Path damagedCopy = root.resolve("10-2");
    Files.createDirectories(damagedCopy);
    for (Path file : List.of(root.resolve("10-2-1").resolve("MANIFEST"))) {
      Files.copy(file, damagedCopy.resolve(file.getFileName()));
    }
    for (String name : files().keySet()) {
      Files.write(damagedCopy.resolve(name), files().get(name));
    }
    try (FileSnapshotStore reopened = new FileSnapshotStore(root, CHUNK_BYTES)) {
      assertThat(reopened.latestDirectory().getFileName().toString()).isEqualTo("10-2-1");
    }
  }

  private static void flipByte(Path file, long offset) throws Exception {
    try (FileChannel channel =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer one = ByteBuffer.allocate(1);
      channel.read(one, offset);
      one.put(0, (byte) ~one.get(0)).rewind();
      channel.write(one, offset);
    }
  }
}

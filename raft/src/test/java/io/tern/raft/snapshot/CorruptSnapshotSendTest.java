package io.tern.raft.snapshot;

import static io.tern.raft.snapshot.Transfers.CHUNK_BYTES;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.raft.SnapshotMeta;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
  void damageFoundOnTheFirstPassIsNotMissedBySkippingAround() throws Exception {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      SnapshotMeta meta = Transfers.take(store, 10, 2, files());
      flipByte(store.latestDirectory().resolve("b"), 0);
      // Chunk 3 is all of file b: read on its own, out of order, it is still checked.
      assertThat(store.readChunk(meta, 3)).isNull();
      assertThat(store.latestIsCorrupt()).isTrue();
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

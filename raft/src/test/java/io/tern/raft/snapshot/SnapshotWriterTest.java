package io.tern.raft.snapshot;

import static io.tern.raft.snapshot.Transfers.CHUNK_BYTES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.raft.SnapshotMeta;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotWriterTest {
  @TempDir Path root;

  @Test
  void committingDeletesOlderSnapshots() {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      Transfers.take(store, 3, 1, Map.of("state", new byte[] {1}));
      SnapshotMeta newer = Transfers.take(store, 9, 2, Map.of("state", new byte[] {2}));
      assertThat(store.latest()).isEqualTo(newer);
      assertThat(Transfers.rootEntries(root)).containsExactly("9-2");
      assertThat(Transfers.contents(store.latestDirectory()).get("state")).containsExactly(2);
    }
  }

  @Test
  void committingAnIndexNotAboveTheLatestIsRefused() {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      SnapshotWriter stale = store.newSnapshot(4, 1);
      SnapshotMeta latest = Transfers.take(store, 5, 1, Map.of("state", new byte[] {1}));

      assertThatThrownBy(stale::commit)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("index 4")
          .hasMessageContaining("index 5");
      assertThat(Transfers.rootEntries(root))
          .as("the refused files are deleted")
          .containsExactly("5-1");
      assertThatThrownBy(() -> store.newSnapshot(5, 2))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("index 5");
      assertThat(store.latest()).isEqualTo(latest);
    }
  }

  @Test
  void readingAReplacedSnapshotReturnsNull() {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      SnapshotMeta first = Transfers.take(store, 1, 1, Map.of("state", new byte[] {1}));
      assertThat(store.readChunk(first, 0)).isNotNull();
      SnapshotMeta second = Transfers.take(store, 2, 1, Map.of("state", new byte[] {2}));
      assertThat(store.readChunk(first, 0)).isNull();
      assertThat(store.readChunk(second, 0).data()).containsExactly(2);
    }
  }

  @Test
  void abortDeletesWhatWasWritten() throws Exception {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      try (SnapshotWriter writer = store.newSnapshot(3, 1)) {
        Files.write(writer.directory().resolve("state"), new byte[] {1});
        assertThat(Transfers.rootEntries(root)).containsExactly("pending-3-1-taken");
      }
      assertThat(Transfers.rootEntries(root)).isEmpty();
      assertThat(store.latest()).isNull();
    }
  }

  @Test
  void aSnapshotMustBeFlatAndMayNotWriteAManifest() throws Exception {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      SnapshotWriter nested = store.newSnapshot(3, 1);
      Files.createDirectories(nested.directory().resolve("sub"));
      assertThatThrownBy(nested::commit)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("sub");

      SnapshotWriter manifest = store.newSnapshot(3, 1);
      Files.write(manifest.directory().resolve("MANIFEST"), new byte[] {1});
      assertThatThrownBy(manifest::commit)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("MANIFEST");

      assertThat(Transfers.rootEntries(root)).isEmpty();
      assertThat(store.latest()).isNull();
    }
  }

  @Test
  void twoWritersForTheSameSnapshotAreRefused() {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES);
        SnapshotWriter writer = store.newSnapshot(3, 1)) {
      assertThatThrownBy(() -> store.newSnapshot(3, 1))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("pending-3-1-taken");
      assertThat(writer.commit().index()).isEqualTo(3);
    }
  }
}

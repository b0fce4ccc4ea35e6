package io.tern.raft.snapshot;

import static io.tern.raft.snapshot.Transfers.CHUNK_BYTES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.raft.SnapshotMeta;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotRecoveryTest {
  @TempDir Path root;

  @Test
  void leftoversOfInterruptedWorkAreRemovedOnOpen() throws Exception {
    SnapshotMeta meta;
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      meta = Transfers.take(store, 8, 2, Map.of("state", new byte[] {1, 2, 3}));
    }
    Files.createDirectories(root.resolve("pending-9-2-taken"));
    Files.write(root.resolve("pending-9-2-taken").resolve("state"), new byte[] {4});
    Files.createDirectories(root.resolve("pending-10-3-received"));
    Files.createDirectories(root.resolve("7-2.deleted"));
    Files.write(root.resolve("7-2.deleted").resolve("state"), new byte[] {5});

    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      assertThat(store.latest()).isEqualTo(meta);
      assertThat(Transfers.rootEntries(root)).containsExactly("8-2");
      assertThat(store.corruptDirectories()).isEmpty();
    }
  }

  @Test
  void aSnapshotWithACorruptManifestIsIgnoredForAnOlderValidOne() throws Exception {
    SnapshotMeta older;
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      older = Transfers.take(store, 5, 1, Map.of("state", new byte[] {1}));
    }
    // A newer snapshot as a crash might leave it if the manifest were torn: copy, then damage.
    Path newer = Files.createDirectories(root.resolve("6-1"));
    Files.write(newer.resolve("state"), new byte[] {1});
    byte[] manifest = Files.readAllBytes(root.resolve("5-1").resolve("MANIFEST"));
    Files.write(newer.resolve("MANIFEST"), java.util.Arrays.copyOf(manifest, manifest.length - 3));

    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      assertThat(store.latest()).isEqualTo(older);
      assertThat(store.corruptDirectories()).containsExactly(newer);
      assertThat(Transfers.rootEntries(root)).containsExactly("5-1", "6-1");
    }
  }

  @Test
  void withoutAnyValidSnapshotThereIsNoLatest() throws Exception {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      Transfers.take(store, 5, 1, Map.of("state", new byte[] {1}));
    }
    try (RandomAccessFile manifest =
        new RandomAccessFile(root.resolve("5-1").resolve("MANIFEST").toFile(), "rw")) {
      manifest.seek(8); // the index
      manifest.writeLong(6);
    }
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      assertThat(store.latest()).isNull();
      assertThat(store.latestDirectory()).isNull();
      assertThat(store.corruptDirectories()).containsExactly(root.resolve("5-1"));
      assertThat(Transfers.rootEntries(root)).as("kept for inspection").containsExactly("5-1");
    }
  }

  @Test
  void aSnapshotMissingAFileIsIgnored() throws Exception {
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      Transfers.take(store, 5, 1, Map.of("a", new byte[] {1}, "b", new byte[] {2}));
    }
    Files.delete(root.resolve("5-1").resolve("b"));
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      assertThat(store.latest()).isNull();
    }
  }

  @Test
  void aCorruptDirectoryIsReplacedByTheNextInstallUnderItsName() throws Exception {
    Path corrupt = Files.createDirectories(root.resolve("6-1"));
    Files.write(corrupt.resolve("MANIFEST"), new byte[] {1, 2, 3});
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      SnapshotMeta meta = Transfers.take(store, 6, 1, Map.of("state", new byte[] {7}));
      assertThat(store.latest()).isEqualTo(meta);
    }
    try (FileSnapshotStore store = new FileSnapshotStore(root, CHUNK_BYTES)) {
      assertThat(store.latest().index()).isEqualTo(6);
      assertThat(Transfers.contents(store.latestDirectory())).containsOnlyKeys("state");
    }
  }

  @Test
  void aFileWhereTheRootShouldBeIsAClearError() throws Exception {
    Path file = Files.write(root.resolve("snapshots"), new byte[] {1});
    assertThatThrownBy(() -> new FileSnapshotStore(file, CHUNK_BYTES))
        .isInstanceOf(UncheckedIOException.class)
        .hasMessageContaining(file.toString())
        .hasMessageContaining("not a directory");
  }

  @Test
  void chunkBytesOutsideTheLimitsAreRefused() {
    assertThatThrownBy(() -> new FileSnapshotStore(root, 1023))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("1023");
    assertThatThrownBy(() -> new FileSnapshotStore(root, 64 * 1024 * 1024 + 1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}

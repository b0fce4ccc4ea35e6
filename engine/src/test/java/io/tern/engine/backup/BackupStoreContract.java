package io.tern.engine.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tern.engine.backup.BackupManifest.BackupFile;
import io.tern.engine.backup.BackupManifest.State;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What every {@link BackupStore} does; each store's test runs it against a real store. */
abstract class BackupStoreContract {
  @TempDir Path temp;

  abstract BackupStore store();

  static BackupManifest manifest(long backupId, int partitionId, State state, BackupFile... files) {
    return new BackupManifest(
        backupId,
        partitionId,
        0,
        state,
        state == State.FAILED ? "disk full" : null,
        "2026-12-07T20:00:00Z",
        "2026-12-07T20:00:01Z",
        1000 + partitionId,
        100 + partitionId,
        3,
        "42-3",
        "8.6.0",
        2,
        3,
        3,
        List.of(files));
  }

  private Path file(String name, int size) throws IOException {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    // Half of it compressible, as a journal's and RocksDB's files are in part.
    for (int i = 0; i < size / 2; i++) {
      bytes[i] = (byte) (i % 7);
    }
    return Files.write(temp.resolve(name), bytes);
  }

  @Test
  void storesManifestsAndFilesAndGivesThemBack() throws Exception {
    BackupStore store = store();
    Path segment = file("journal-1.log", 300_000);
    Path empty = file("empty.sst", 0);
    store.upload(7, 1, "journal/journal-1.log", segment);
    store.upload(7, 1, "snapshot/42-3/empty.sst", empty);
    BackupManifest manifest =
        manifest(
            7,
            1,
            State.COMPLETED,
            new BackupFile("journal/journal-1.log", 300_000, 1),
            new BackupFile("snapshot/42-3/empty.sst", 0, 2));
    store.saveManifest(manifest);

    assertThat(store.manifest(7, 1)).contains(manifest);
    assertThat(store.manifest(7, 2)).isEmpty();
    assertThat(store.manifest(8, 1)).isEmpty();
    Path restored = temp.resolve("restored.log");
    store.download(7, 1, "journal/journal-1.log", restored);
    assertThat(restored).hasSameBinaryContentAs(segment);
    Path restoredEmpty = temp.resolve("restored.sst");
    store.download(7, 1, "snapshot/42-3/empty.sst", restoredEmpty);
    assertThat(restoredEmpty).isEmptyFile();
  }

  @Test
  void aManifestSavedAgainReplacesTheFirst() throws Exception {
    BackupStore store = store();
    store.saveManifest(manifest(3, 1, State.IN_PROGRESS));
    BackupManifest done = manifest(3, 1, State.COMPLETED);
    store.saveManifest(done);
    assertThat(store.manifest(3, 1)).contains(done);
    assertThat(store.manifests(3)).containsExactly(done);
  }

  @Test
  void listsEveryPartOfEveryBackupInOrder() throws Exception {
    BackupStore store = store();
    store.saveManifest(manifest(20, 2, State.COMPLETED));
    store.saveManifest(manifest(3, 1, State.FAILED));
    store.saveManifest(manifest(20, 1, State.IN_PROGRESS));
    // A file that happens to be called manifest.json is no part.
    store.upload(20, 1, "snapshot/1-1/manifest.json", file("decoy", 10));

    assertThat(store.list())
        .extracting(m -> m.backupId() + "/" + m.partitionId() + " " + m.state())
        .containsExactly("3/1 FAILED", "20/1 IN_PROGRESS", "20/2 COMPLETED");
    assertThat(store.manifests(20)).extracting(BackupManifest::partitionId).containsExactly(1, 2);
    assertThat(store.manifests(21)).isEmpty();
  }

  @Test
  void deletesOneBackupWholeAndLeavesTheOthers() throws Exception {
    BackupStore store = store();
    store.upload(5, 1, "journal/journal-1.log", file("a", 1000));
    store.saveManifest(manifest(5, 1, State.COMPLETED));
    store.saveManifest(manifest(5, 2, State.COMPLETED));
    store.saveManifest(manifest(6, 1, State.COMPLETED));

    store.delete(5);
    store.delete(99); // none: nothing happens

    assertThat(store.manifests(5)).isEmpty();
    assertThat(store.list()).extracting(BackupManifest::backupId).containsExactly(6L);
    assertThatThrownBy(
            () -> store.download(5, 1, "journal/journal-1.log", temp.resolve("gone.log")))
        .isInstanceOf(IOException.class);
  }

  @Test
  void refusesFileNamesThatLeaveThePart() {
    assertThatThrownBy(() -> store().upload(1, 1, "../2/files/x", temp))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("must stay in its part");
  }
}

package io.tern.engine.backup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class FileSystemBackupStoreTest extends BackupStoreContract {
  @Override
  BackupStore store() {
    return new FileSystemBackupStore(temp.resolve("backups"));
  }

  @Test
  void laysBackupsOutAsDocumented() throws Exception {
    BackupStore store = store();
    store.upload(9, 2, "journal/journal-1.log", Files.writeString(temp.resolve("s"), "x"));
    store.saveManifest(manifest(9, 2, BackupManifest.State.COMPLETED));
    Path part = temp.resolve("backups/9/2");
    assertThat(part.resolve("manifest.json")).content().contains("\"state\" : \"COMPLETED\"");
    assertThat(part.resolve("files/journal/journal-1.log")).hasContent("x");
    try (var leftovers = Files.walk(temp.resolve("backups"))) {
      assertThat(leftovers).noneMatch(path -> path.toString().endsWith(".partial"));
    }
  }

  @Test
  void namesTheSettingWhenTheBasePathIsMissing() {
    assertThatThrownBy(() -> new FileSystemBackupStore(Path.of(" ")))
        .hasMessageContaining("data.backup.filesystem.basePath");
  }
}

package io.tern.engine.backup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** No store is configured: every use fails with what to set. */
final class NoBackupStore implements BackupStore {
  static final String NOT_CONFIGURED =
      "no backup store is configured: set data.backup.store to s3 or filesystem"
          + " (docs/operations.md#backups)";

  @Override
  public void saveManifest(BackupManifest manifest) throws IOException {
    throw new IOException(NOT_CONFIGURED);
  }

  @Override
  public Optional<BackupManifest> manifest(long backupId, int partitionId) throws IOException {
    throw new IOException(NOT_CONFIGURED);
  }

  @Override
  public List<BackupManifest> manifests(long backupId) throws IOException {
    throw new IOException(NOT_CONFIGURED);
  }

  @Override
  public List<BackupManifest> list() throws IOException {
    throw new IOException(NOT_CONFIGURED);
  }

  @Override
  public void upload(long backupId, int partitionId, String name, Path file) throws IOException {
    throw new IOException(NOT_CONFIGURED);
  }

  @Override
  public void download(long backupId, int partitionId, String name, Path target)
      throws IOException {
    throw new IOException(NOT_CONFIGURED);
  }

  @Override
  public void delete(long backupId) throws IOException {
    throw new IOException(NOT_CONFIGURED);
  }

  @Override
  public String describe() {
    return "none";
  }
}

package io.tern.engine.backup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where backups are kept: a file system ({@link FileSystemBackupStore}) or an S3-compatible bucket
 * ({@link S3BackupStore}). Each partition's part of backup {@code id} is a manifest ({@link
 * BackupManifest}) and its files, under {@code <base>/<id>/<partitionId>/}: {@code manifest.json}
 * and {@code files/<name>}. Every broker of a cluster uses the same store: the leaders write the
 * parts, any broker reads them for the status, and {@code bin/restore} downloads them.
 *
 * <p>Implementations are safe for use by several threads; failures are {@link IOException}s naming
 * the store and the object.
 */
public interface BackupStore extends AutoCloseable {
  /** Writes (or replaces) a partition's manifest. */
  void saveManifest(BackupManifest manifest) throws IOException;

  /** The manifest of {@code partitionId}'s part of backup {@code backupId}, if stored. */
  Optional<BackupManifest> manifest(long backupId, int partitionId) throws IOException;

  /** The manifests of every partition's part of {@code backupId} that is stored, by partition. */
  List<BackupManifest> manifests(long backupId) throws IOException;

  /** Every stored manifest, by backup id and partition. */
  List<BackupManifest> list() throws IOException;

  /** Stores {@code file} as {@code name} of a partition's part. */
  void upload(long backupId, int partitionId, String name, Path file) throws IOException;

  /** Writes the stored {@code name} of a partition's part to {@code target} (a new file). */
  void download(long backupId, int partitionId, String name, Path target) throws IOException;

  /** Deletes every part of {@code backupId}; nothing if there is none. */
  void delete(long backupId) throws IOException;

  /** The store's kind and place, for logs and answers (never credentials). */
  String describe();

  @Override
  default void close() {}

  /** The store of {@code data.backup.store: none}: backups are refused, naming the setting. */
  BackupStore NONE = new NoBackupStore();
}

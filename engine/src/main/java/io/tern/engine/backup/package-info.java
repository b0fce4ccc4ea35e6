/**
 * Backups and restore (issue 51, docs/operations.md#backups): the {@code CHECKPOINT} records that
 * mark one point of every partition's log ({@link io.tern.engine.backup.Checkpoints}), each
 * partition leader's part of a backup taken at its checkpoint ({@link
 * io.tern.engine.backup.PartitionBackup}), the stores that keep them ({@link
 * io.tern.engine.backup.BackupStore}: a file system or an S3-compatible bucket), and the restore of
 * a data directory from them.
 *
 * <p>Uses the log, processor, record and state packages; the partition and the broker use it, not
 * the reverse.
 */
package io.tern.engine.backup;

package io.tern.engine.partition;

import io.tern.engine.backup.BackupContext;
import io.tern.engine.processor.ProcessorConfig;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where and how one partition's engine runs on a broker.
 *
 * @param dataDirectory {@code data.directory}: the engine's files of the partition (pause flag,
 *     snapshots being staged); on the same file system as Raft's snapshots so that a staged
 *     snapshot moves into place by rename
 * @param runtimeDirectory {@code data.runtimeDirectory}: the live RocksDB, rebuilt from the latest
 *     snapshot at every start, so it may live on faster, volatile storage (tmpfs): losing it costs
 *     a replay, never data. Default: {@code runtime} under the data directory
 * @param snapshotPeriod {@code data.snapshotPeriod}: how often a snapshot is taken (default 5
 *     minutes); each lets Raft compact the log and bounds the replay after a restart
 * @param snapshotEveryRecords {@code data.snapshotEveryRecords}: a snapshot is also taken whenever
 *     this many records were written since the last one, and once the processor caught up after
 *     start (see {@link SnapshotTrigger}); default 100,000, 0 disables both
 * @param minFreeDiskBytes {@code data.disk.minFreeBytes}: below this much free space under the data
 *     directory, new client commands are refused (replication and processing go on); default 2 GiB,
 *     0 disables
 * @param minFreeRuntimeBytes {@code data.disk.runtimeMinFreeBytes}: the same for a runtime
 *     directory outside the data directory (on a file system of its own, such as tmpfs); default
 *     256 MiB, 0 disables
 * @param diskCheckInterval {@code data.disk.checkInterval}: how often free space is measured
 * @param processor the stream processor's settings
 * @param backups where the partition's leader stores its part of a backup; null: the broker has no
 *     backup store, and checkpoints are processed without one
 */
public record EnginePartitionConfig(
    Path dataDirectory,
    Path runtimeDirectory,
    Duration snapshotPeriod,
    long snapshotEveryRecords,
    long minFreeDiskBytes,
    long minFreeRuntimeBytes,
    Duration diskCheckInterval,
    ProcessorConfig processor,
    BackupContext backups) {
  public static final Duration DEFAULT_SNAPSHOT_PERIOD = Duration.ofMinutes(5);
  public static final Duration DEFAULT_DISK_CHECK_INTERVAL = Duration.ofSeconds(1);

  /**
   * Replay runs at some 10-20k records a second on a busy machine: 100,000 records bound a
   * restart's replay to seconds, at the cost of a snapshot (a RocksDB checkpoint, mostly hard
   * links) per 100,000 records.
   */
  public static final long DEFAULT_SNAPSHOT_EVERY_RECORDS = 100_000;

  public EnginePartitionConfig {
    if (snapshotPeriod.isNegative() || snapshotPeriod.isZero()) {
      throw new IllegalArgumentException(
          "data.snapshotPeriod must be positive, got " + snapshotPeriod);
    }
    if (snapshotEveryRecords < 0) {
      throw new IllegalArgumentException(
          "data.snapshotEveryRecords must be >= 0 (0 disables), got " + snapshotEveryRecords);
    }
    if (minFreeDiskBytes < 0) {
      throw new IllegalArgumentException(
          "data.disk.minFreeBytes must be >= 0 (0 disables the watermark), got "
              + minFreeDiskBytes);
    }
    if (minFreeRuntimeBytes < 0) {
      throw new IllegalArgumentException(
          "data.disk.runtimeMinFreeBytes must be >= 0 (0 disables the watermark), got "
              + minFreeRuntimeBytes);
    }
    if (diskCheckInterval.isNegative() || diskCheckInterval.isZero()) {
      throw new IllegalArgumentException(
          "data.disk.checkInterval must be positive, got " + diskCheckInterval);
    }
  }

  public static EnginePartitionConfig defaults(Path dataDirectory) {
    return new EnginePartitionConfig(
        dataDirectory,
        dataDirectory.resolve("runtime"),
        DEFAULT_SNAPSHOT_PERIOD,
        DEFAULT_SNAPSHOT_EVERY_RECORDS,
        DiskSpaceGuard.DEFAULT_MIN_FREE_BYTES,
        DiskSpaceGuard.DEFAULT_RUNTIME_MIN_FREE_BYTES,
        DEFAULT_DISK_CHECK_INTERVAL,
        ProcessorConfig.defaults(),
        null);
  }

  public EnginePartitionConfig withRuntimeDirectory(Path directory) {
    return new EnginePartitionConfig(
        dataDirectory,
        directory,
        snapshotPeriod,
        snapshotEveryRecords,
        minFreeDiskBytes,
        minFreeRuntimeBytes,
        diskCheckInterval,
        processor,
        backups);
  }

  public EnginePartitionConfig withSnapshotPeriod(Duration period) {
    return new EnginePartitionConfig(
        dataDirectory,
        runtimeDirectory,
        period,
        snapshotEveryRecords,
        minFreeDiskBytes,
        minFreeRuntimeBytes,
        diskCheckInterval,
        processor,
        backups);
  }

  /** Snapshots on progress: every {@code records} records and after catching up (0: neither). */
  public EnginePartitionConfig withSnapshotEveryRecords(long records) {
    return new EnginePartitionConfig(
        dataDirectory,
        runtimeDirectory,
        snapshotPeriod,
        records,
        minFreeDiskBytes,
        minFreeRuntimeBytes,
        diskCheckInterval,
        processor,
        backups);
  }

  public EnginePartitionConfig withDiskWatermark(long minFreeBytes, Duration checkInterval) {
    return new EnginePartitionConfig(
        dataDirectory,
        runtimeDirectory,
        snapshotPeriod,
        snapshotEveryRecords,
        minFreeBytes,
        minFreeRuntimeBytes,
        checkInterval,
        processor,
        backups);
  }

  /** The watermark of a runtime directory outside the data directory (0 disables it). */
  public EnginePartitionConfig withRuntimeWatermark(long minFreeBytes) {
    return new EnginePartitionConfig(
        dataDirectory,
        runtimeDirectory,
        snapshotPeriod,
        snapshotEveryRecords,
        minFreeDiskBytes,
        minFreeBytes,
        diskCheckInterval,
        processor,
        backups);
  }

  public EnginePartitionConfig withProcessor(ProcessorConfig config) {
    return new EnginePartitionConfig(
        dataDirectory,
        runtimeDirectory,
        snapshotPeriod,
        snapshotEveryRecords,
        minFreeDiskBytes,
        minFreeRuntimeBytes,
        diskCheckInterval,
        config,
        backups);
  }

  public EnginePartitionConfig withBackups(BackupContext context) {
    return new EnginePartitionConfig(
        dataDirectory,
        runtimeDirectory,
        snapshotPeriod,
        snapshotEveryRecords,
        minFreeDiskBytes,
        minFreeRuntimeBytes,
        diskCheckInterval,
        processor,
        context);
  }
}

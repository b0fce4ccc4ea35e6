package io.tern.engine.partition;

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
 * @param processor the stream processor's settings
 */
public record EnginePartitionConfig(
    Path dataDirectory, Path runtimeDirectory, Duration snapshotPeriod, ProcessorConfig processor) {
  public static final Duration DEFAULT_SNAPSHOT_PERIOD = Duration.ofMinutes(5);

  public EnginePartitionConfig {
    if (snapshotPeriod.isNegative() || snapshotPeriod.isZero()) {
      throw new IllegalArgumentException(
          "data.snapshotPeriod must be positive, got " + snapshotPeriod);
    }
  }

  public static EnginePartitionConfig defaults(Path dataDirectory) {
    return new EnginePartitionConfig(
        dataDirectory,
        dataDirectory.resolve("runtime"),
        DEFAULT_SNAPSHOT_PERIOD,
        ProcessorConfig.defaults());
  }

  public EnginePartitionConfig withRuntimeDirectory(Path directory) {
    return new EnginePartitionConfig(dataDirectory, directory, snapshotPeriod, processor);
  }

  public EnginePartitionConfig withSnapshotPeriod(Duration period) {
    return new EnginePartitionConfig(dataDirectory, runtimeDirectory, period, processor);
  }

  public EnginePartitionConfig withProcessor(ProcessorConfig config) {
    return new EnginePartitionConfig(dataDirectory, runtimeDirectory, snapshotPeriod, config);
  }
}

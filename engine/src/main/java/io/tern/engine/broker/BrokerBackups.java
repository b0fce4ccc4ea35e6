package io.tern.engine.broker;

import io.micrometer.core.instrument.MeterRegistry;
import io.tern.engine.backup.BackupContext;
import io.tern.engine.backup.BackupMetrics;
import io.tern.engine.backup.BackupStore;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.exporter.records.ZeebeRecordMapper;
import java.time.InstantSource;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A broker's share of backups: the configured store, the one thread that stores the parts of the
 * partitions led here (one part at a time: a backup is I/O, and processing keeps the CPU), the one
 * that announces each part (its IN_PROGRESS manifest) as soon as its checkpoint commits, the thread
 * that answers {@code /actuator/backups} from the store, and the metrics.
 */
final class BrokerBackups implements AutoCloseable {
  /** How long POST /actuator/backups waits for each partition to accept the checkpoint. */
  private static final long CHECKPOINT_TIMEOUT_MS = 15_000;

  private final BackupStore store;
  private final ExecutorService announcements;
  private final ExecutorService uploads;
  private final ExecutorService storeCalls;
  private final BackupContext context;
  private final BackupsEndpoint endpoint;

  BrokerBackups(BrokerConfig config, PartitionCommands partitions, MeterRegistry registry) {
    this.store = config.backup().open();
    this.announcements = Executors.newSingleThreadExecutor(daemon("backup-announce"));
    this.uploads = Executors.newSingleThreadExecutor(daemon("backup-upload"));
    this.storeCalls = Executors.newSingleThreadExecutor(daemon("backup-api"));
    this.context =
        config.backup().configured()
            ? new BackupContext(
                store,
                announcements,
                uploads,
                config.nodeId(),
                config.partitionsCount(),
                config.clusterSize(),
                config.replicationFactor(),
                ZeebeRecordMapper.BROKER_VERSION,
                new BackupMetrics(registry),
                InstantSource.system())
            : null;
    this.endpoint = new BackupsEndpoint(store, partitions, storeCalls, CHECKPOINT_TIMEOUT_MS);
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }

  /** What partitions need to take their parts; null without a store. */
  BackupContext context() {
    return context;
  }

  BackupsEndpoint endpoint() {
    return endpoint;
  }

  /** Stops taking parts (one being stored is cut short: its manifest stays IN_PROGRESS). */
  @Override
  public void close() {
    announcements.shutdownNow();
    uploads.shutdownNow();
    storeCalls.shutdownNow();
    try {
      uploads.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    store.close();
  }
}

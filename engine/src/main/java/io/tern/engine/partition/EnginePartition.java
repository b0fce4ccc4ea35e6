package io.tern.engine.partition;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tern.engine.log.CommandIntake;
import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.log.RaftLogStorage;
import io.tern.engine.processor.CommandResponseSink;
import io.tern.engine.processor.RecordProcessorsFactory;
import io.tern.engine.processor.SnapshotSink;
import io.tern.engine.processor.StreamProcessor;
import io.tern.engine.state.StateMetrics;
import io.tern.engine.state.StateResources;
import io.tern.raft.Member;
import io.tern.raft.SnapshotMeta;
import io.tern.raft.server.RaftPartition;
import io.tern.raft.server.RaftServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition of the engine on a broker: its Raft member, the log stream on it, the stream
 * processor with its state (recovered from the latest snapshot), periodic snapshots, and the intake
 * for client commands.
 */
public final class EnginePartition implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EnginePartition.class);

  private final int partitionId;
  private final RaftPartition raft;
  private final StreamProcessor processor;
  private final CommandIntake intake;
  private final ScheduledExecutorService snapshotTimer;
  private final ReplayLag replayLag;

  private EnginePartition(
      int partitionId,
      RaftPartition raft,
      StreamProcessor processor,
      CommandIntake intake,
      ScheduledExecutorService snapshotTimer,
      ReplayLag replayLag) {
    this.partitionId = partitionId;
    this.raft = raft;
    this.processor = processor;
    this.intake = intake;
    this.snapshotTimer = snapshotTimer;
    this.replayLag = replayLag;
  }

  /** Opens the partition on {@code server} and starts processing (or replaying). */
  public static EnginePartition start(
      RaftServer server,
      int partitionId,
      List<Member> members,
      EnginePartitionConfig config,
      StateResources resources,
      RecordProcessorsFactory engine,
      CommandResponseSink responses,
      LongSupplier clockMs,
      MeterRegistry registry) {
    return start(
        server,
        partitionId,
        members,
        config,
        resources,
        engine,
        responses,
        clockMs,
        DiskSpaceGuard.usableSpaceOf(config.dataDirectory()),
        DiskSpaceGuard.usableSpaceOf(config.runtimeDirectory()),
        registry);
  }

  /** As {@link #start}, measuring free disk space with {@code freeDiskBytes} (for tests). */
  static EnginePartition start(
      RaftServer server,
      int partitionId,
      List<Member> members,
      EnginePartitionConfig config,
      StateResources resources,
      RecordProcessorsFactory engine,
      CommandResponseSink responses,
      LongSupplier clockMs,
      LongSupplier freeDiskBytes,
      LongSupplier freeRuntimeBytes,
      MeterRegistry registry) {
    RaftLogStorage storage = new RaftLogStorage();
    LogStreamWriter writer =
        new LogStreamWriter(partitionId, storage, config.processor().maxBatchBytes());
    StreamProcessor processor =
        new StreamProcessor(
            partitionId,
            config.processor(),
            storage,
            writer,
            new SnapshotStateRecovery(
                config.runtimeDirectory(),
                () -> storage.partition().latestSnapshotDirectory(),
                resources),
            engine,
            responses,
            clockMs,
            config.dataDirectory(),
            new SnapshotSink() {
              @Override
              public CompletableFuture<SnapshotMeta> commit(long index, Path staged) {
                return storage.partition().takeSnapshot(index, target -> moveFiles(staged, target));
              }

              @Override
              public boolean latestIsDamaged() {
                return storage.partition().latestSnapshotIsCorrupt();
              }
            },
            registry);
    StateMetrics.register(registry, partitionId, processor, StreamProcessor::stateProperty);
    // The processor hears Raft from the first role change on; it starts once Raft is bound.
    storage.setListener(processor);
    deleteStaleStaging(config.dataDirectory());
    RaftPartition raft = server.addPartition(partitionId, members, storage);
    storage.bind(raft);
    processor.start();
    DiskSpaceGuard disk =
        new DiskSpaceGuard(config.dataDirectory(), config.minFreeDiskBytes(), freeDiskBytes);
    if (!config.runtimeDirectory().normalize().startsWith(config.dataDirectory().normalize())) {
      disk.watchRuntime(config.runtimeDirectory(), config.minFreeRuntimeBytes(), freeRuntimeBytes);
    }
    disk.registerMetrics(registry, Tags.of("partition", Integer.toString(partitionId)));
    disk.check();
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "partition-timer-p" + partitionId);
              thread.setDaemon(true);
              return thread;
            });
    ReplayLag lag =
        new ReplayLag(raft.lastIndex(), () -> raft.commitIndex(), processor::lastReadIndex);
    SnapshotTrigger snapshots =
        new SnapshotTrigger(
            partitionId,
            config.snapshotEveryRecords(),
            processor::lastProcessedPosition,
            processor::recoveredPosition,
            () -> !lag.replaying() && processor.lastReadIndex() >= 0,
            processor::takeSnapshot);
    long periodMs = config.snapshotPeriod().toMillis();
    timer.scheduleAtFixedRate(snapshots::periodic, periodMs, periodMs, TimeUnit.MILLISECONDS);
    timer.scheduleWithFixedDelay(
        snapshots::check,
        SnapshotTrigger.CHECK_INTERVAL_MS,
        SnapshotTrigger.CHECK_INTERVAL_MS,
        TimeUnit.MILLISECONDS);
    long diskCheckMs = config.diskCheckInterval().toMillis();
    timer.scheduleWithFixedDelay(
        () -> {
          try {
            disk.check();
          } catch (RuntimeException e) {
            LOG.warn("Partition {}: measuring free disk space failed", partitionId, e);
          }
        },
        diskCheckMs,
        diskCheckMs,
        TimeUnit.MILLISECONDS);
    return new EnginePartition(
        partitionId,
        raft,
        processor,
        new CommandIntake(partitionId, writer, clockMs, disk::refusal),
        timer,
        lag);
  }

  private static void moveFiles(Path from, Path to) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(from)) {
      for (Path file : files) {
        Files.move(file, to.resolve(file.getFileName()));
      }
    }
  }

  private static void deleteStaleStaging(Path dataDirectory) {
    if (!Files.isDirectory(dataDirectory)) {
      return;
    }
    try (DirectoryStream<Path> entries =
        Files.newDirectoryStream(dataDirectory, "snapshot-staging-*")) {
      for (Path entry : entries) {
        SnapshotStateRecovery.deleteRecursively(entry);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot clean " + dataDirectory, e);
    }
  }

  public int partitionId() {
    return partitionId;
  }

  public RaftPartition raft() {
    return raft;
  }

  public StreamProcessor processor() {
    return processor;
  }

  /** How far the processor is behind the log (readiness, elections). */
  public ReplayLag replayLag() {
    return replayLag;
  }

  /** Writes client commands; refuses them unless this member leads and processes. */
  public CommandIntake intake() {
    return intake;
  }

  /** Takes a snapshot now (see {@link StreamProcessor#takeSnapshot()}). */
  public CompletableFuture<SnapshotMeta> takeSnapshot() {
    return processor.takeSnapshot();
  }

  /**
   * Stops snapshots and the processor. The Raft member belongs to its {@link RaftServer}: close the
   * engine partitions first, then the server, so that no processor reads a closed journal.
   */
  @Override
  public void close() {
    snapshotTimer.shutdownNow();
    processor.close();
  }
}

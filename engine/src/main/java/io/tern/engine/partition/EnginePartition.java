package io.tern.engine.partition;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.tern.engine.backup.Checkpoints;
import io.tern.engine.backup.PartitionBackup;
import io.tern.engine.exporter.DirectorHost;
import io.tern.engine.exporter.ExporterDirector;
import io.tern.engine.exporter.ExporterPositionValue;
import io.tern.engine.exporter.ExporterPositions;
import io.tern.engine.exporter.LoadedExporter;
import io.tern.engine.log.CommandIntake;
import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.log.RaftLogStorage;
import io.tern.engine.processor.CommandResponseSink;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.processor.RecordProcessorsFactory;
import io.tern.engine.processor.SnapshotSink;
import io.tern.engine.processor.StreamProcessor;
import io.tern.engine.protocol.ExporterIntent;
import io.tern.engine.state.StateMetrics;
import io.tern.engine.state.StateResources;
import io.tern.journal.JournalConfig;
import io.tern.journal.SegmentedJournal;
import io.tern.raft.Member;
import io.tern.raft.RaftRole;
import io.tern.raft.SnapshotMeta;
import io.tern.raft.server.RaftPartition;
import io.tern.raft.server.RaftServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
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
  private final ExporterDirector director;
  private final ExporterPositions.Published exporterPositions;

  private EnginePartition(
      int partitionId,
      RaftPartition raft,
      StreamProcessor processor,
      CommandIntake intake,
      ScheduledExecutorService snapshotTimer,
      ReplayLag replayLag,
      ExporterDirector director,
      ExporterPositions.Published exporterPositions) {
    this.partitionId = partitionId;
    this.raft = raft;
    this.processor = processor;
    this.intake = intake;
    this.snapshotTimer = snapshotTimer;
    this.replayLag = replayLag;
    this.director = director;
    this.exporterPositions = exporterPositions;
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
        registry,
        PartitionExporters.NONE);
  }

  /** As above, running {@code exporters} while this member leads the partition. */
  public static EnginePartition start(
      RaftServer server,
      int partitionId,
      List<Member> members,
      EnginePartitionConfig config,
      StateResources resources,
      RecordProcessorsFactory engine,
      CommandResponseSink responses,
      LongSupplier clockMs,
      MeterRegistry registry,
      PartitionExporters exporters) {
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
        registry,
        exporters);
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
      MeterRegistry registry,
      PartitionExporters exporters) {
    RaftLogStorage storage = new RaftLogStorage();
    // The exporters' positions are part of every partition's state, exporters configured or not:
    // a log may hold them from a time when they were.
    ExporterPositions.Published positions = new ExporterPositions.Published();
    // Checkpoints too are part of every partition's state, a backup store configured or not.
    Checkpoints.Listener backups =
        config.backups() == null
            ? Checkpoints.Listener.NONE
            : new PartitionBackup(
                partitionId,
                config.backups(),
                config.dataDirectory(),
                () -> storage.partition().latestSnapshotDirectory(),
                () -> journalConfig(storage.partition()),
                storage::newReader);
    RecordProcessorsFactory withPositions =
        context -> {
          RecordProcessors processors = engine.create(context);
          Checkpoints.register(processors, context.state(), backups);
          return ExporterPositions.register(processors, context.state(), positions);
        };
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
            withPositions,
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
    if (!exporters.exporters().isEmpty()) {
      List<String> ids = exporters.exporters().stream().map(LoadedExporter::id).toList();
      raft.setCompactionBound(() -> compactionBound(storage, positions, ids));
    }
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
    CommandIntake intake = new CommandIntake(partitionId, writer, clockMs, disk::refusal);
    ExporterDirector director = null;
    if (!exporters.exporters().isEmpty()) {
      director =
          new ExporterDirector(
                  partitionId,
                  exporters.exporters(),
                  () -> exporters.mappers().apply(partitionId),
                  // Its own intake, without the disk watermark: a position it cannot write
                  // would hold back the compaction that frees the disk.
                  new Host(
                      raft, processor, storage, new CommandIntake(partitionId, writer, clockMs)),
                  exporters.settings(),
                  registry,
                  InstantSource.system())
              .start();
    }
    return new EnginePartition(
        partitionId, raft, processor, intake, timer, lag, director, positions);
  }

  /**
   * The highest log index that compaction may delete: below the entry holding the first record that
   * a configured exporter has not acknowledged (as the state stores it, on every member). Runs on
   * the Raft thread when a snapshot was taken.
   */
  static long compactionBound(
      RaftLogStorage storage, ExporterPositions.Published positions, List<String> exporterIds) {
    long lowest = Long.MAX_VALUE;
    for (String id : exporterIds) {
      Long position = positions.position(id);
      lowest = Math.min(lowest, position == null ? -1 : position);
    }
    if (lowest < 0) {
      return 0; // an exporter that acknowledged nothing yet needs the whole log
    }
    try (var reader = storage.newReader()) {
      reader.readUncommitted(true);
      reader.seekToPosition(lowest + 1);
      return Math.max(0, reader.nextIndex() - 1);
    }
  }

  /** What the exporter director gets of this partition. */
  private record Host(
      RaftPartition raft, StreamProcessor processor, RaftLogStorage storage, CommandIntake intake)
      implements DirectorHost {
    @Override
    public long readyLeaderTerm() {
      ProcessorPhase phase = processor.phase();
      long term = raft.term();
      return raft.role() == RaftRole.LEADER
              && (phase == ProcessorPhase.PROCESSING || phase == ProcessorPhase.PAUSED)
          ? term
          : -1;
    }

    @Override
    public long commitIndex() {
      return raft.commitIndex();
    }

    @Override
    public io.tern.engine.log.LogStorage.Reader newReader() {
      return storage.newReader();
    }

    @Override
    public CompletableFuture<Map<String, ExporterPositions.Stored>> storedPositions() {
      return processor.query(ExporterPositions::readAll);
    }

    @Override
    public void writePosition(String exporterId, long position, byte[] metadata) {
      intake.write(
          -1,
          -1,
          ExporterIntent.UPDATE_POSITION,
          -1,
          new ExporterPositionValue(exporterId, position, metadata));
    }
  }

  private static JournalConfig journalConfig(RaftPartition raft) {
    if (raft.journal() instanceof SegmentedJournal journal) {
      return journal.config();
    }
    throw new IllegalStateException(
        "partition " + raft.partitionId() + " has no journal on disk to back up");
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

  /** The exporter director, or null if no exporter is configured. */
  public ExporterDirector director() {
    return director;
  }

  /**
   * The exporters' positions as this member's state holds them (on every member, the leader's a
   * moment ahead of the followers').
   */
  public ExporterPositions.Published exporterPositions() {
    return exporterPositions;
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
    if (director != null) {
      director.close(); // first: its last positions go to the log while the processor runs
    }
    snapshotTimer.shutdownNow();
    processor.close();
  }
}

package io.tern.engine.exporter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tern.engine.log.LogStorage;
import io.tern.engine.record.RecordBatch;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one partition's exporters while this member leads it, each on a thread of its own ({@code
 * exporter-p<partition>-<id>}): processing never waits for an exporter, and a slow exporter (a
 * database, a search cluster) holds back no other. The director's own thread ({@code
 * exporter-p<partition>}) follows leadership, the commit and the positions. Once the member leads
 * and its processor has replayed the log (so the state holds every position an earlier leader
 * stored), the director starts a session: each configured exporter gets an instance of its own for
 * the partition, configured and opened, and a reader over the committed log from after its stored
 * position. It then hands each exporter, in log order, the records that its filter accepts and the
 * mapper maps; every {@link Settings#positionWriteInterval()} it writes the positions that moved as
 * {@code EXPORTER UPDATE_POSITION} commands, which the processor stores in the state. When the
 * member stops leading, or the partition closes, the exporters are closed.
 */
public final class ExporterDirector implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ExporterDirector.class);

  /** How often the director looks for leadership changes and new records when it has no work. */
  static final long IDLE_POLL_MS = 10;

  /** Records an exporter is handed in a row before its turn checks how long it has lasted. */
  static final int RECORDS_PER_TURN = 500;

  /** How long one round of exporting may take before scheduled tasks and checks get their turn. */
  static final long MAX_ROUND_NS = TimeUnit.MILLISECONDS.toNanos(50);

  /** How long closing a session waits for each exporter's close. */
  static final long CLOSE_TIMEOUT_MS = 10_000;

  /** How long a session's start waits for the state's positions from the processor. */
  static final long POSITIONS_TIMEOUT_MS = 5_000;

  /** The default of how often moved positions are written to the log. */
  public static final Duration DEFAULT_POSITION_WRITE_INTERVAL = Duration.ofSeconds(1);

  /** The default first back-off after an exporter threw. */
  public static final Duration DEFAULT_RETRY_MIN_BACKOFF = Duration.ofMillis(100);

  /** The default longest back-off: it doubles from the first up to this. */
  public static final Duration DEFAULT_RETRY_MAX_BACKOFF = Duration.ofSeconds(10);

  /** The director's timings. */
  public record Settings(
      Duration positionWriteInterval, Duration retryMinBackoff, Duration retryMaxBackoff) {
    public static Settings defaults() {
      return new Settings(
          DEFAULT_POSITION_WRITE_INTERVAL, DEFAULT_RETRY_MIN_BACKOFF, DEFAULT_RETRY_MAX_BACKOFF);
    }
  }

  /** Where {@link ExporterContainer#writePosition} writes (the host, while leading). */
  @FunctionalInterface
  interface PositionWriter {
    void write(String exporterId, long position, byte[] metadata);
  }

  private final int partitionId;
  private final List<LoadedExporter> templates;
  private final ExporterLoader loader;
  private final Supplier<ExportRecordMapper> mappers;
  private final DirectorHost host;
  private final Settings settings;
  private final InstantSource clock;
  private final ScheduledExecutorService thread;

  /** Each exporter's thread, by id: its export, open, close and scheduled tasks run there. */
  private final Map<String, ScheduledExecutorService> exporterThreads = new LinkedHashMap<>();

  private final Map<String, ExporterStatus> statuses = new LinkedHashMap<>();
  private final Map<String, Timer> timers = new LinkedHashMap<>();
  private final Map<String, Counter> failures = new LinkedHashMap<>();

  /** Set by {@link #close}: no session opens after it, though the member may still lead. */
  private volatile boolean closing;

  // The director's thread only.
  private Session session;
  private long nextWriteNs;
  private final RecordBatch tailBatch = new RecordBatch();
  private long commitPosition = -1;
  private long tailIndex = -1;

  /**
   * @param templates the broker's exporters, as loaded and configured at start: each session
   *     creates an instance of each for this partition
   * @param mappers this partition's record mappers: one for each exporter of a session, since a
   *     mapper is not thread-safe and remembers the records it saw
   */
  public ExporterDirector(
      int partitionId,
      List<LoadedExporter> templates,
      Supplier<ExportRecordMapper> mappers,
      DirectorHost host,
      Settings settings,
      MeterRegistry registry,
      InstantSource clock) {
    this.partitionId = partitionId;
    this.templates = List.copyOf(templates);
    this.loader = new ExporterLoader(partitionId, registry, clock);
    this.mappers = mappers;
    this.host = host;
    this.settings = settings;
    this.clock = clock;
    for (LoadedExporter template : this.templates) {
      String id = template.id();
      ExporterStatus status = new ExporterStatus(partitionId, id);
      statuses.put(id, status);
      Tags tags = Tags.of("partition", Integer.toString(partitionId), "exporter", id);
      Gauge.builder("tern.exporter.position", status, ExporterStatus::position)
          .description("The position the exporter acknowledged on this partition")
          .tags(tags)
          .register(registry);
      Gauge.builder("tern.exporter.lag.records", status, ExporterStatus::lagRecords)
          .description("Committed records after the exporter's position (on the leader)")
          .tags(tags)
          .register(registry);
      Gauge.builder("tern.exporter.lag.seconds", status, s -> s.lagSeconds(clock.millis()))
          .description(
              "Age of the oldest committed record the exporter has not acknowledged; 0 when caught"
                  + " up")
          .tags(tags)
          .register(registry);
      failures.put(
          id,
          Counter.builder("tern.exporter.failures")
              .description("Calls into the exporter that threw (export, open, scheduled tasks)")
              .tags(tags)
              .register(registry));
      timers.put(
          id,
          Timer.builder("tern.exporter.export")
              .description("Calls of the exporter's export, successful or not")
              .tags(tags)
              .register(registry));
    }
    this.thread = daemonThread("exporter-p" + partitionId);
    for (LoadedExporter template : this.templates) {
      exporterThreads.put(
          template.id(), daemonThread("exporter-p" + partitionId + "-" + template.id()));
    }
  }

  private static ScheduledExecutorService daemonThread(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        runnable -> {
          Thread t = new Thread(runnable, name);
          t.setDaemon(true);
          return t;
        });
  }

  /** Starts watching for leadership. */
  public ExporterDirector start() {
    thread.scheduleWithFixedDelay(this::tick, 0, IDLE_POLL_MS, TimeUnit.MILLISECONDS);
    return this;
  }

  public int partitionId() {
    return partitionId;
  }

  /** Each configured exporter's status on this partition, in configuration order. */
  public List<ExporterStatus> statuses() {
    return List.copyOf(statuses.values());
  }

  /** One exporter's status, or null if no exporter has that id. */
  public ExporterStatus status(String exporterId) {
    return statuses.get(exporterId);
  }

  private LongSupplier clockMs() {
    return clock::millis;
  }

  private void tick() {
    if (closing) {
      return;
    }
    try {
      long term = host.readyLeaderTerm();
      if (session != null && session.term != term) {
        closeSession("this member no longer leads in term " + session.term, false);
      }
      if (session == null && term >= 0) {
        openSession(term);
      }
      if (session == null) {
        return;
      }
      updateCommitPosition();
      if (System.nanoTime() - nextWriteNs >= 0) {
        nextWriteNs = System.nanoTime() + settings.positionWriteInterval().toNanos();
        writePositions();
      }
    } catch (RuntimeException | Error e) {
      LOG.error("Partition {}: the exporter director's turn failed", partitionId, e);
    }
  }

  private void openSession(long term) {
    Map<String, ExporterPositions.Stored> stored;
    try {
      stored = host.storedPositions().get(POSITIONS_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (Exception e) {
      LOG.debug("Partition {}: no exporter positions yet, trying again", partitionId, e);
      return;
    }
    List<ExporterContainer> containers = new ArrayList<>();
    List<ScheduledFuture<?>> pumps = new ArrayList<>();
    for (LoadedExporter template : templates) {
      String id = template.id();
      ScheduledExecutorService exporterThread = exporterThreads.get(id);
      ExporterContainer container =
          new ExporterContainer(
              partitionId,
              id,
              () -> loader.newInstance(template),
              mappers.get(),
              host.newReader(),
              stored.get(id),
              statuses.get(id),
              exporterThread,
              settings,
              timers.get(id),
              failures.get(id),
              clockMs());
      containers.add(container);
      pumps.add(
          exporterThread.scheduleWithFixedDelay(
              () -> pump(container), 0, IDLE_POLL_MS, TimeUnit.MILLISECONDS));
    }
    session = new Session(term, containers, pumps, host.newReader());
    tailIndex = -1;
    nextWriteNs = System.nanoTime() + settings.positionWriteInterval().toNanos();
    LOG.info(
        "Partition {}: exporting as leader of term {} ({} exporter(s))",
        partitionId,
        term,
        containers.size());
  }

  /**
   * One turn of an exporter on its thread: records until none is left or the turn has lasted {@link
   * #MAX_ROUND_NS}, so that the tasks it scheduled get their turn.
   */
  private void pump(ExporterContainer container) {
    try {
      long startNs = System.nanoTime();
      while (container.exportSome(RECORDS_PER_TURN) > 0
          && System.nanoTime() - startNs < MAX_ROUND_NS) {
        // on with the next records
      }
    } catch (RuntimeException | Error e) {
      LOG.error("Partition {}: exporter {}: its turn failed", partitionId, container.id(), e);
    }
  }

  private void closeSession(String why, boolean writePositions) {
    Session closing = session;
    session = null;
    closing.pumps.forEach(pump -> pump.cancel(false));
    // Each exporter closes on its own thread, after a turn it may be in: never while it exports.
    List<Future<?>> closed = new ArrayList<>();
    for (ExporterContainer container : closing.containers) {
      closed.add(exporterThreads.get(container.id()).submit(container::close));
    }
    for (int i = 0; i < closed.size(); i++) {
      try {
        closed.get(i).get(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        LOG.warn(
            "Partition {}: exporter {} did not close cleanly",
            partitionId,
            closing.containers.get(i).id(),
            e);
      }
    }
    // After the last turns: what they acknowledged is written too.
    if (writePositions) {
      writePositions(closing);
    }
    closing.tail.close();
    LOG.info("Partition {}: exporters closed: {}", partitionId, why);
  }

  private void writePositions() {
    writePositions(session);
  }

  private void writePositions(Session of) {
    for (ExporterContainer container : of.containers) {
      try {
        container.writePosition(host::writePosition);
      } catch (RuntimeException e) {
        LOG.debug(
            "Partition {}: the position of exporter {} was not written: {}",
            partitionId,
            container.id(),
            e.getMessage());
      }
    }
  }

  /** Reads the last committed entry's last position, for the lag (when the commit moved). */
  private void updateCommitPosition() {
    long commitIndex = host.commitIndex();
    if (commitIndex != tailIndex) {
      tailIndex = commitIndex;
      LogStorage.Reader tail = session.tail;
      tail.seekToIndex(commitIndex);
      if (tail.hasNext()) {
        LogStorage.Entry entry = tail.next();
        tailBatch.wrap(entry.data(), entry.offset(), entry.length());
        commitPosition = Math.max(commitPosition, tailBatch.lastPosition());
      }
    }
    for (ExporterStatus status : statuses.values()) {
      status.commitPosition(commitPosition);
    }
  }

  /**
   * Closes the exporters (writing the positions that moved, if the log still takes them) and stops
   * the thread. Close it before the partition's processor.
   */
  @Override
  public void close() {
    closing = true;
    try {
      thread
          .submit(
              () -> {
                if (session != null) {
                  closeSession("the partition closes", true);
                }
              })
          .get(CLOSE_TIMEOUT_MS + 5_000, TimeUnit.MILLISECONDS); // they close side by side
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn("Partition {}: the exporters did not close cleanly", partitionId, e);
    }
    thread.shutdownNow();
    exporterThreads.values().forEach(ScheduledExecutorService::shutdownNow);
    try {
      thread.awaitTermination(10, TimeUnit.SECONDS);
      for (ScheduledExecutorService exporterThread : exporterThreads.values()) {
        exporterThread.awaitTermination(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The exporters opened in one term of leadership. */
  private static final class Session {
    final long term;
    final List<ExporterContainer> containers;
    final List<ScheduledFuture<?>> pumps;
    final LogStorage.Reader tail;

    Session(
        long term,
        List<ExporterContainer> containers,
        List<ScheduledFuture<?>> pumps,
        LogStorage.Reader tail) {
      this.term = term;
      this.containers = containers;
      this.pumps = pumps;
      this.tail = tail;
    }
  }
}

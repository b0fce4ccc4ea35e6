package io.tern.exporter.history;

import io.camunda.zeebe.exporter.api.Exporter;
import io.camunda.zeebe.exporter.api.context.Context;
import io.camunda.zeebe.exporter.api.context.Controller;
import io.camunda.zeebe.exporter.api.context.ScheduledTask;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.ValueType;
import java.sql.SQLException;
import java.time.InstantSource;
import java.util.OptionalInt;
import org.slf4j.Logger;

/**
 * The history store: a Zeebe exporter that keeps process instances, their elements, variables (and
 * their changes), jobs and incidents in a relational database, H2 or PostgreSQL, for the search
 * queries of the REST API (docs/history.md).
 *
 * <p>Records are turned into rows in memory ({@link RecordRows}, {@link RowBuffer}) and written in
 * one transaction per batch ({@link HistoryWriter}), together with the partition's position in
 * {@code exporter_position}; only after the commit is the position acknowledged to the broker. So
 * the store always holds exactly the records up to its stored position, and records the broker
 * hands over again (after a restart or a change of leader) are recognised and skipped.
 *
 * <p>Every method runs on the partition's exporter thread (the director's), the scheduled flush and
 * retention too, so the exporter has no locks.
 */
public final class HistoryExporter implements Exporter {
  private String id;
  private Logger log;
  private HistoryConfig.Settings settings;
  private OptionalInt contextPartition = OptionalInt.empty();
  private Object meterRegistry;
  private InstantSource clock = InstantSource.system();

  private Controller controller;
  private HistoryWriter writer;
  private final RowBuffer buffer = new RowBuffer();
  private HistoryMetrics metrics = HistoryMetrics.NONE;
  private Retention retention;
  private ScheduledTask flushTask;
  private ScheduledTask retentionTask;

  /** The partition, once known (from the context, else from the first record). */
  private int partitionId = -1;

  /** The position the store holds for the partition; -1 before it is read. */
  private long storedPosition = -1;

  private boolean positionRead;
  private boolean failing;
  private long failingSince;
  private boolean closed;

  @Override
  public void configure(Context context) {
    id = context.getConfiguration().getId();
    log = context.getLogger();
    HistoryConfig config = context.getConfiguration().instantiate(HistoryConfig.class);
    settings = (config == null ? new HistoryConfig() : config).validate(id);
    contextPartition = ContextExtras.partitionId(context);
    meterRegistry = ContextExtras.meterRegistry(context).orElse(null);
    clock = ContextExtras.clock(context);
    context.setFilter(
        new Context.RecordFilter() {
          @Override
          public boolean acceptType(RecordType recordType) {
            return RecordRows.accepts(recordType);
          }

          @Override
          public boolean acceptValue(ValueType valueType) {
            return RecordRows.accepts(valueType);
          }
        });
  }

  @Override
  public void open(Controller controller) {
    this.controller = controller;
    closed = false;
    if (writer != null) {
      // open is retried after it threw: start over with a new connection.
      writer.close();
    }
    JdbcSource source = settings.source();
    writer = new HistoryWriter(source);
    try {
      SchemaMigrator.migrate(source, settings.url());
      if (contextPartition.isPresent()) {
        readPosition(contextPartition.getAsInt());
      }
    } catch (SQLException | RuntimeException e) {
      writer.close();
      throw new IllegalStateException(
          "the history store at "
              + settings.urlArg()
              + " ("
              + JdbcUrls.redact(settings.url())
              + ") cannot be opened: "
              + SqlErrors.describe(e),
          SqlErrors.cause(e));
    }
    log.info(
        "History store {} opened ({}), partition {}, stored position {}",
        settings.dialect().name(),
        settings,
        partitionId < 0 ? "from the records" : partitionId,
        storedPosition);
    scheduleFlush();
    if (settings.retentionEnabled()) {
      scheduleRetention();
    }
  }

  @Override
  public void export(Record<?> record) {
    if (!positionRead) {
      try {
        readPosition(record.getPartitionId());
      } catch (SQLException e) {
        throw unavailable("reading the stored position", e);
      }
    }
    long position = record.getPosition();
    if (position <= storedPosition) {
      // Exported before (the broker's position lags the store's after a restart or failover).
      if (buffer.isEmpty()) {
        controller.updateLastExportedRecordPosition(position);
      }
      return;
    }
    // A record the broker hands over again after export threw is in the buffer already.
    if (position > buffer.position()) {
      RecordRows.add(record, buffer);
      buffer.advanceTo(position);
    }
    if (buffer.rowCount() >= settings.batchSize()) {
      flush();
    }
  }

  /**
   * Writes the buffer in one transaction and acknowledges its last position. Throws when the store
   * cannot be written; the buffer then stays as it was, for the next attempt.
   */
  void flush() {
    if (buffer.isEmpty()) {
      return;
    }
    long started = System.nanoTime();
    int rows;
    try {
      rows = writer.write(buffer, partitionId, clock.instant());
    } catch (SQLException | RuntimeException e) {
      metrics.failed();
      if (!failing) {
        failing = true;
        failingSince = System.nanoTime();
        log.warn(
            "History store at {}: writing {} rows up to position {} failed (kept, retried): {}",
            JdbcUrls.redact(settings.url()),
            buffer.rowCount(),
            buffer.position(),
            SqlErrors.describe(e));
      }
      throw unavailable(
          "writing " + buffer.rowCount() + " rows up to position " + buffer.position(), e);
    }
    long nanos = System.nanoTime() - started;
    storedPosition = buffer.position();
    buffer.clear();
    controller.updateLastExportedRecordPosition(storedPosition);
    metrics.flushed(rows, nanos);
    if (failing) {
      failing = false;
      log.info(
          "History store written again after {} ms of failures",
          (System.nanoTime() - failingSince) / 1_000_000);
    }
  }

  @Override
  public void close() {
    closed = true;
    cancel(flushTask);
    cancel(retentionTask);
    if (writer == null) {
      return;
    }
    try {
      flush();
    } catch (RuntimeException e) {
      // The broker exports these records again from its own position to the next leader.
      log.warn("History store: the last {} rows were not written at close", buffer.rowCount());
    } finally {
      writer.close();
    }
  }

  private void readPosition(int partition) throws SQLException {
    partitionId = partition;
    storedPosition = writer.readPosition(partition);
    positionRead = true;
    metrics = HistoryMetrics.of(meterRegistry, id, partition);
    retention = new Retention(partition, settings.retentionBatchSize());
  }

  private void scheduleFlush() {
    flushTask = controller.scheduleCancellableTask(settings.flushInterval(), this::flushOnTime);
  }

  private void flushOnTime() {
    if (closed) {
      return;
    }
    try {
      flush();
    } catch (RuntimeException e) {
      // Logged by flush; the rows stay buffered and the next flush tries again.
    } finally {
      if (!closed) {
        scheduleFlush();
      }
    }
  }

  private void scheduleRetention() {
    retentionTask =
        controller.scheduleCancellableTask(
            settings.retentionCheckInterval(), this::deleteExpiredInstances);
  }

  private void deleteExpiredInstances() {
    if (closed) {
      return;
    }
    try {
      if (positionRead) {
        int deleted = retention.run(writer, clock.instant().minus(settings.retention()));
        metrics.deleted(deleted);
        if (deleted > 0) {
          log.debug("History store: deleted {} finished process instances", deleted);
        }
      }
    } catch (SQLException | RuntimeException e) {
      metrics.failed();
      log.warn(
          "History store: deleting expired instances failed (retried later): {}", e.toString());
    } finally {
      if (!closed) {
        scheduleRetention();
      }
    }
  }

  private IllegalStateException unavailable(String what, Exception cause) {
    return new IllegalStateException(
        "history store at "
            + JdbcUrls.redact(settings.url())
            + " unavailable: "
            + what
            + " failed: "
            + SqlErrors.describe(cause),
        SqlErrors.cause(cause));
  }

  private static void cancel(ScheduledTask task) {
    if (task != null) {
      task.cancel();
    }
  }
}

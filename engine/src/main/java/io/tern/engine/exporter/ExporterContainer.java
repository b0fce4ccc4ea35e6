package io.tern.engine.exporter;

import io.camunda.zeebe.exporter.api.context.Context;
import io.camunda.zeebe.exporter.api.context.Controller;
import io.camunda.zeebe.exporter.api.context.ScheduledTask;
import io.camunda.zeebe.protocol.record.Record;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.tern.engine.log.LogStorage;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One exporter of one partition while this member leads it: its instance, its own reader over the
 * committed log, the position it acknowledged and its retries. Each exporter of a partition has a
 * thread of its own: one that is slow or throws (retried with the same record, with back-off) holds
 * back no other. Everything but the {@link Controller} calls and {@link #writePosition} (the
 * director's thread) runs on that thread; an exporter may call its controller from threads of its
 * own.
 */
final class ExporterContainer implements Controller {
  private static final Logger LOG = LoggerFactory.getLogger(ExporterContainer.class);

  private final int partitionId;
  private final String id;
  private final Supplier<LoadedExporter> instances;
  private final ExportRecordMapper mapper;
  private final LogStorage.Reader reader;
  private final ExporterStatus status;
  private final ScheduledExecutorService thread;
  private final ExporterDirector.Settings settings;
  private final Timer exportTimer;
  private final Counter failures;
  private final LongSupplier clockMs;

  private final RecordBatch batch = new RecordBatch();
  private UnsafeBuffer entryCopy = new UnsafeBuffer(new byte[1024]);
  private boolean batchOpen;
  private LoggedRecord pending;
  private Record<?> pendingMapped;
  private boolean pendingDecided;

  private LoadedExporter instance;
  private volatile boolean closed;

  /** The position this session started after: records at or before it are not exported. */
  private final long startAfter;

  /** What the exporter acknowledged (or the director skipped for it); guarded by this. */
  private long acknowledged;

  private byte[] metadata;

  /** The position last worth writing (not only EXPORTER records skipped); guarded by this. */
  private long positionToWrite;

  private boolean metadataChanged;
  private long written;

  /** The last position handed to {@code export}: skipped records move the position only past it. */
  private long lastExported;

  /**
   * Positions and timestamps of the records handed to {@code export} and not yet acknowledged, in
   * log order (guarded by this): the oldest one's age is the exporter's lag, since an exporter that
   * buffers (a bulk of a thousand documents) has not delivered what it holds.
   */
  private final UnacknowledgedRecords unacknowledged = new UnacknowledgedRecords();

  private long failingSinceMs = -1;
  private long backoffMs;
  private long retryAtNs;

  ExporterContainer(
      int partitionId,
      String id,
      Supplier<LoadedExporter> instances,
      ExportRecordMapper mapper,
      LogStorage.Reader reader,
      ExporterPositions.Stored stored,
      ExporterStatus status,
      ScheduledExecutorService thread,
      ExporterDirector.Settings settings,
      Timer exportTimer,
      Counter failures,
      LongSupplier clockMs) {
    this.partitionId = partitionId;
    this.id = id;
    this.instances = instances;
    this.mapper = mapper;
    this.reader = reader;
    this.status = status;
    this.thread = thread;
    this.settings = settings;
    this.exportTimer = exportTimer;
    this.failures = failures;
    this.clockMs = clockMs;
    long start = stored == null ? -1 : stored.position();
    this.startAfter = start;
    this.acknowledged = start;
    this.positionToWrite = start;
    this.written = start;
    this.lastExported = start;
    this.metadata = stored == null || stored.metadata().length == 0 ? null : stored.metadata();
    reader.seekToPosition(start + 1);
    status.position(start);
    status.lastError(null);
  }

  String id() {
    return id;
  }

  /**
   * Opens the exporter if it is not open yet, then hands it up to {@code limit} records.
   *
   * @return how many records it handled (exported or skipped)
   */
  int exportSome(int limit) {
    if (closed || (retryAtNs != 0 && System.nanoTime() - retryAtNs < 0)) {
      return 0;
    }
    if (instance == null && !open()) {
      return 0;
    }
    int handled = 0;
    while (handled < limit) {
      if (pending == null) {
        pending = nextRecord();
        if (pending == null) {
          status.oldestUnexported(0);
          break;
        }
        pendingDecided = false;
        pendingMapped = null;
        status.oldestUnexported(pending.timestamp());
      }
      try {
        if (!pendingDecided) {
          pendingMapped = accepted(pending);
          pendingDecided = true;
        }
        if (pendingMapped != null) {
          Record<?> record = pendingMapped;
          long startNs = System.nanoTime();
          try {
            instance.call(
                exporter -> {
                  exporter.export(record);
                  return null;
                });
          } finally {
            exportTimer.record(System.nanoTime() - startNs, TimeUnit.NANOSECONDS);
          }
          lastExported = pending.position();
          handed(pending.position(), pending.timestamp());
        } else {
          skipped(pending);
        }
      } catch (Exception | LinkageError | AssertionError e) {
        failed("export of the record at position " + pending.position(), e);
        return handled;
      }
      succeeded();
      pending = null;
      pendingMapped = null;
      handled++;
    }
    return handled;
  }

  /**
   * The record as the exporter gets it, or null if it does not get it. The filter is asked first,
   * with the record's types by their Zeebe names (a mapped record keeps Tern's names), so that the
   * records an exporter filters out are not mapped (copied) at all.
   */
  private Record<?> accepted(LoggedRecord record) throws Exception {
    if (record.valueType() == ValueType.EXPORTER) {
      return null; // Tern's own bookkeeping
    }
    Context.RecordFilter filter = instance.context().filter();
    if (filter != null) {
      io.camunda.zeebe.protocol.record.RecordType recordType =
          ZEEBE_RECORD_TYPES[record.recordType().ordinal()];
      io.camunda.zeebe.protocol.record.ValueType valueType =
          ZEEBE_VALUE_TYPES[record.valueType().ordinal()];
      if (recordType == null || valueType == null) {
        return null; // no Zeebe counterpart: the mapper would not map it either
      }
      boolean accept =
          instance.call(exporter -> filter.acceptType(recordType) && filter.acceptValue(valueType));
      if (!accept) {
        return null;
      }
    }
    return mapper.map(record);
  }

  /** Zeebe's record type of the same name, by Tern's ordinal; null where Zeebe has none. */
  private static final io.camunda.zeebe.protocol.record.RecordType[] ZEEBE_RECORD_TYPES =
      byName(
          io.tern.engine.record.sbe.RecordType.values(),
          io.camunda.zeebe.protocol.record.RecordType.class);

  /** Zeebe's value type of the same name, by Tern's ordinal; null where Zeebe has none. */
  private static final io.camunda.zeebe.protocol.record.ValueType[] ZEEBE_VALUE_TYPES =
      byName(ValueType.values(), io.camunda.zeebe.protocol.record.ValueType.class);

  private static <E extends Enum<E>> E[] byName(Enum<?>[] tern, Class<E> zeebe) {
    @SuppressWarnings("unchecked")
    E[] table = (E[]) java.lang.reflect.Array.newInstance(zeebe, tern.length);
    for (Enum<?> constant : tern) {
      try {
        table[constant.ordinal()] = Enum.valueOf(zeebe, constant.name());
      } catch (IllegalArgumentException none) {
        table[constant.ordinal()] = null;
      }
    }
    return table;
  }

  /**
   * A record the exporter does not get: if it acknowledged everything it got, the position moves
   * past it, so that an exporter that filters most records does not hold the log back.
   */
  private synchronized void skipped(LoggedRecord record) {
    if (acknowledged >= lastExported && record.position() > acknowledged) {
      acknowledged = record.position();
      if (record.valueType() != ValueType.EXPORTER) {
        // Skipping the director's own position records moves the position but is not worth a
        // write: writing it would add records to skip, without end.
        positionToWrite = acknowledged;
      }
      status.position(acknowledged);
    }
  }

  private LoggedRecord nextRecord() {
    while (true) {
      if (batchOpen && batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.position() > startAfter) {
          return record;
        }
        continue; // before the start: the entry holds records already exported
      }
      batchOpen = false;
      if (!reader.hasNext()) {
        return null;
      }
      LogStorage.Entry entry = reader.next();
      if (entryCopy.capacity() < entry.length()) {
        entryCopy = new UnsafeBuffer(new byte[Math.max(entry.length(), entryCopy.capacity() * 2)]);
      }
      // A copy: a record may wait here for its retry while the log moves on.
      entryCopy.putBytes(0, entry.data(), entry.offset(), entry.length());
      batch.wrap(entryCopy, 0, entry.length());
      batchOpen = true;
    }
  }

  private boolean open() {
    try {
      // Set first: a task the exporter schedules in open runs on this thread, after open.
      instance = instances.get();
      instance.call(
          exporter -> {
            exporter.open(this);
            return null;
          });
      succeeded();
      LOG.info(
          "Partition {}: exporter {} open, exporting after position {}",
          partitionId,
          id,
          acknowledged());
      return true;
    } catch (RuntimeException | LinkageError | AssertionError e) {
      instance = null;
      failed("open", e);
      return false;
    } catch (Exception e) {
      instance = null;
      failed("open", e);
      return false;
    }
  }

  private void succeeded() {
    if (failingSinceMs >= 0) {
      LOG.info(
          "Partition {}: exporter {} works again after failing for {} ms",
          partitionId,
          id,
          clockMs.getAsLong() - failingSinceMs);
    }
    failingSinceMs = -1;
    backoffMs = 0;
    retryAtNs = 0;
    status.state(ExporterStatus.State.RUNNING);
  }

  private void failed(String call, Throwable e) {
    failures.increment();
    String error = call + " threw " + e;
    status.lastError(error);
    status.state(ExporterStatus.State.RETRYING);
    if (failingSinceMs < 0) {
      failingSinceMs = clockMs.getAsLong();
      backoffMs = settings.retryMinBackoff().toMillis();
      LOG.warn(
          "Partition {}: exporter {}: {}; retrying with back-off up to {} ms (logged once until"
              + " it works again)",
          partitionId,
          id,
          call,
          settings.retryMaxBackoff().toMillis(),
          e);
    } else {
      backoffMs = Math.min(backoffMs * 2, settings.retryMaxBackoff().toMillis());
    }
    retryAtNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(1, backoffMs));
  }

  /** Writes the position through {@code writer} if it moved since the last write. */
  void writePosition(ExporterDirector.PositionWriter writer) {
    long position;
    byte[] meta;
    synchronized (this) {
      if (positionToWrite <= written && !metadataChanged) {
        return;
      }
      position = acknowledged;
      meta = metadata;
    }
    writer.write(id, position, meta == null ? new byte[0] : meta);
    synchronized (this) {
      written = Math.max(written, position);
      metadataChanged = false;
    }
  }

  /** Closes the exporter (it is not called again) and the reader. */
  void close() {
    closed = true;
    if (instance != null) {
      try {
        instance.call(
            exporter -> {
              exporter.close();
              return null;
            });
      } catch (Exception | LinkageError | AssertionError e) {
        LOG.warn("Partition {}: exporter {}: close threw", partitionId, id, e);
      }
      instance.close();
      instance = null;
    }
    reader.close();
    status.oldestUnexported(0);
    status.oldestUnacknowledged(0);
    status.state(ExporterStatus.State.CLOSED);
  }

  synchronized long acknowledged() {
    return acknowledged;
  }

  // ------------------------------------------------------------ Controller

  @Override
  public synchronized void updateLastExportedRecordPosition(long position) {
    if (position > acknowledged) {
      acknowledged = position;
      positionToWrite = position;
      status.position(position);
      unacknowledged.acknowledge(position);
      status.oldestUnacknowledged(unacknowledged.oldestTimestampMs());
    }
  }

  /** A record handed to {@code export}: its age counts until the exporter acknowledges it. */
  private synchronized void handed(long position, long timestampMs) {
    if (position > acknowledged) {
      unacknowledged.add(position, timestampMs);
      status.oldestUnacknowledged(unacknowledged.oldestTimestampMs());
    }
  }

  @Override
  public synchronized void updateLastExportedRecordPosition(long position, byte[] metadata) {
    updateLastExportedRecordPosition(position);
    this.metadata = metadata == null ? null : metadata.clone();
    metadataChanged = true;
  }

  /** Exporter API 8.5: the position last acknowledged here, or stored by an earlier leader. */
  public synchronized long getLastExportedRecordPosition() {
    return acknowledged;
  }

  @Override
  public synchronized Optional<byte[]> readMetadata() {
    return Optional.ofNullable(metadata).map(byte[]::clone);
  }

  @Override
  public ScheduledTask scheduleCancellableTask(Duration delay, Runnable task) {
    ScheduledFuture<?> future =
        thread.schedule(
            () -> {
              if (closed || instance == null) {
                return;
              }
              try {
                instance.call(
                    exporter -> {
                      task.run();
                      return null;
                    });
              } catch (Exception | LinkageError | AssertionError e) {
                failures.increment();
                status.lastError("a scheduled task threw " + e);
                LOG.warn("Partition {}: exporter {}: a scheduled task threw", partitionId, id, e);
              }
            },
            Math.max(0, delay.toNanos()),
            TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }
}

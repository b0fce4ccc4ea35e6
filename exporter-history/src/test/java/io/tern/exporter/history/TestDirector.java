package io.tern.exporter.history;

import io.camunda.zeebe.exporter.api.context.Controller;
import io.camunda.zeebe.exporter.api.context.ScheduledTask;
import io.camunda.zeebe.protocol.record.Record;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one {@link HistoryExporter} as a partition's director does: every call, scheduled tasks
 * included, on one thread of its own; records only if the exporter's filter accepts them; the
 * acknowledged position kept as the controller's.
 */
final class TestDirector implements Controller, AutoCloseable {
  final HistoryExporter exporter = new HistoryExporter();
  final TestContext context;
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "test-exporter-director"));
  private final AtomicLong acknowledged = new AtomicLong(-1);
  private boolean closed;

  TestDirector(
      int partitionId, Map<String, Object> args, MeterRegistry registry, InstantSource clock) {
    context = new TestContext(new TestConfiguration("history", args), partitionId, registry, clock);
  }

  /** Configures and opens the exporter; throws what they throw. */
  TestDirector start() {
    call(
        () -> {
          exporter.configure(context);
          exporter.open(this);
          return null;
        });
    return this;
  }

  /** Hands over {@code record} if the filter takes it; throws what {@code export} throws. */
  void export(Record<?> record) {
    call(
        () -> {
          if (context.filter.acceptType(record.getRecordType())
              && context.filter.acceptValue(record.getValueType())) {
            exporter.export(record);
          }
          return null;
        });
  }

  void exportAll(Iterable<? extends Record<?>> records) {
    for (Record<?> record : records) {
      export(record);
    }
  }

  long acknowledged() {
    return acknowledged.get();
  }

  @Override
  public void updateLastExportedRecordPosition(long position) {
    acknowledged.accumulateAndGet(position, Math::max);
  }

  @Override
  public void updateLastExportedRecordPosition(long position, byte[] metadata) {
    updateLastExportedRecordPosition(position);
  }

  @Override
  public ScheduledTask scheduleCancellableTask(Duration delay, Runnable task) {
    ScheduledFuture<?> future =
        thread.schedule(
            () -> {
              try {
                task.run();
              } catch (RuntimeException e) {
                // As the director: a task that throws is counted and logged, nothing more.
              }
            },
            delay.toNanos(),
            TimeUnit.NANOSECONDS);
    return () -> future.cancel(false);
  }

  @Override
  public Optional<byte[]> readMetadata() {
    return Optional.empty();
  }

  private <T> T call(Callable<T> work) {
    try {
      return thread.submit(work).get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException(e.getCause());
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Closes the exporter (which flushes what it holds) and the thread. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      call(
          () -> {
            exporter.close();
            return null;
          });
    } finally {
      thread.shutdownNow();
    }
  }
}

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

  /** What the exporter is configured with: {@link #context}, or an 8.3-only view of it. */
  private final io.camunda.zeebe.exporter.api.context.Context configuredWith;

  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "test-exporter-director"));
  private final AtomicLong acknowledged = new AtomicLong(-1);
  private boolean closed;

  TestDirector(
      int partitionId, Map<String, Object> args, MeterRegistry registry, InstantSource clock) {
    this(partitionId, args, registry, clock, true);
  }

  /**
   * {@code newerContext}: false configures the exporter with a context that has only the 8.3
   * methods (no partition id, registry or clock), as another host might.
   */
  TestDirector(
      int partitionId,
      Map<String, Object> args,
      MeterRegistry registry,
      InstantSource clock,
      boolean newerContext) {
    context = new TestContext(new TestConfiguration("history", args), partitionId, registry, clock);
    configuredWith = newerContext ? context : new OlderContext(context);
  }

  /** The 8.3 interface only (a class that is not public: its methods are not looked up). */
  private record OlderContext(TestContext context)
      implements io.camunda.zeebe.exporter.api.context.Context {
    @Override
    public org.slf4j.Logger getLogger() {
      return context.getLogger();
    }

    @Override
    public io.camunda.zeebe.exporter.api.context.Configuration getConfiguration() {
      return context.getConfiguration();
    }

    @Override
    public void setFilter(RecordFilter filter) {
      context.setFilter(filter);
    }
  }

  /** Configures and opens the exporter; throws what they throw. */
  TestDirector start() {
    call(
        () -> {
          exporter.configure(configuredWith);
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

  /**
   * Hands over {@code record} until {@code export} no longer throws, as the director retries (here
   * without a backoff, up to 100 times).
   */
  void exportRetrying(Record<?> record) {
    for (int attempt = 1; ; attempt++) {
      try {
        export(record);
        return;
      } catch (IllegalStateException e) {
        if (attempt == 100) {
          throw e;
        }
      }
    }
  }

  void exportAll(Iterable<? extends Record<?>> records) {
    for (Record<?> record : records) {
      export(record);
    }
  }

  /** Writes what the exporter holds, on its thread. */
  void flush() {
    call(
        () -> {
          exporter.flush();
          return null;
        });
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

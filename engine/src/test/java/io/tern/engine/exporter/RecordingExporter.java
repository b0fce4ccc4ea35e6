package io.tern.engine.exporter;

import io.camunda.zeebe.exporter.api.Exporter;
import io.camunda.zeebe.exporter.api.context.Context;
import io.camunda.zeebe.exporter.api.context.Controller;
import io.camunda.zeebe.protocol.record.Record;
import io.camunda.zeebe.protocol.record.RecordType;
import io.camunda.zeebe.protocol.record.ValueType;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;

/**
 * An exporter for the director's tests: records every call into a {@link Journal} shared by all
 * instances configured with the same {@code journal} arg (the director creates an instance per
 * partition and leadership). Args: {@code journal} (required), {@code acknowledge} (default true:
 * every exported record's position is acknowledged at once), {@code failures} (how many export
 * calls throw first, default 0), {@code eventsOnly} (a filter that accepts events only), {@code
 * metadata} (acknowledges with metadata {@code "at <position>"}) and {@code task} (schedules a task
 * when opened).
 */
public class RecordingExporter implements Exporter {
  private static final Map<String, Journal> JOURNALS = new ConcurrentHashMap<>();

  /** What the instances sharing a journal were called with. */
  public static final class Journal {
    /** Positions of the records exported (calls that returned), in call order. */
    public final List<Long> exported = new CopyOnWriteArrayList<>();

    /** Positions of the records whose export threw. */
    public final List<Long> failed = new CopyOnWriteArrayList<>();

    public final AtomicInteger opened = new AtomicInteger();
    public final AtomicInteger closed = new AtomicInteger();
    public final List<ClassLoader> contextLoaders = new CopyOnWriteArrayList<>();
    public final List<String> threads = new CopyOnWriteArrayList<>();
    public final AtomicInteger failuresLeft = new AtomicInteger();

    /** Called with each record's position before it is exported (checks of tests), or null. */
    public volatile LongConsumer onExport;

    /** What {@code readMetadata} answered when each instance opened (null: empty). */
    public final List<String> metadataAtOpen = new CopyOnWriteArrayList<>();

    /** What {@code getLastExportedRecordPosition} (API 8.5) answered when each instance opened. */
    public final List<Long> positionAtOpen = new CopyOnWriteArrayList<>();

    /** Thread and context class loader of each scheduled task that ran. */
    public final List<String> taskThreads = new CopyOnWriteArrayList<>();

    public final List<ClassLoader> taskLoaders = new CopyOnWriteArrayList<>();

    /** The controller of the instance opened last. */
    public volatile Controller controller;

    public long lastExported() {
      return exported.isEmpty() ? -1 : exported.get(exported.size() - 1);
    }
  }

  /** The journal named {@code name}, created empty if there is none. */
  public static Journal journal(String name) {
    return JOURNALS.computeIfAbsent(name, n -> new Journal());
  }

  private Journal journal;
  private boolean acknowledge;
  private boolean metadata;
  private boolean task;
  private Controller controller;

  @Override
  public void configure(Context context) {
    Map<String, Object> args = context.getConfiguration().getArguments();
    journal = journal(String.valueOf(args.get("journal")));
    acknowledge = !"false".equals(String.valueOf(args.getOrDefault("acknowledge", "true")));
    metadata = "true".equals(String.valueOf(args.get("metadata")));
    task = "true".equals(String.valueOf(args.get("task")));
    if ("true".equals(String.valueOf(args.get("eventsOnly")))) {
      context.setFilter(
          new Context.RecordFilter() {
            @Override
            public boolean acceptType(RecordType recordType) {
              return recordType == RecordType.EVENT;
            }

            @Override
            public boolean acceptValue(ValueType valueType) {
              return true;
            }
          });
    }
    Object failures = args.get("failures");
    if (failures != null) {
      journal.failuresLeft.set(Integer.parseInt(String.valueOf(failures)));
    }
  }

  @Override
  public void open(Controller controller) {
    this.controller = controller;
    journal.controller = controller;
    journal.metadataAtOpen.add(
        controller
            .readMetadata()
            .map(bytes -> new String(bytes, StandardCharsets.UTF_8))
            .orElse(null));
    try {
      // As an exporter built against API 8.5 calls it (the 8.3 interface lacks it).
      journal.positionAtOpen.add(
          (Long)
              controller.getClass().getMethod("getLastExportedRecordPosition").invoke(controller));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
    if (task) {
      controller.scheduleCancellableTask(
          Duration.ofMillis(10),
          () -> {
            journal.taskThreads.add(Thread.currentThread().getName());
            journal.taskLoaders.add(Thread.currentThread().getContextClassLoader());
          });
    }
    journal.opened.incrementAndGet();
  }

  @Override
  public void export(Record<?> record) {
    journal.contextLoaders.add(Thread.currentThread().getContextClassLoader());
    journal.threads.add(Thread.currentThread().getName());
    LongConsumer check = journal.onExport;
    if (check != null) {
      check.accept(record.getPosition());
    }
    if (journal.failuresLeft.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
      journal.failed.add(record.getPosition());
      throw new IllegalStateException("failing on purpose at " + record.getPosition());
    }
    journal.exported.add(record.getPosition());
    if (metadata) {
      controller.updateLastExportedRecordPosition(
          record.getPosition(), ("at " + record.getPosition()).getBytes(StandardCharsets.UTF_8));
    } else if (acknowledge) {
      controller.updateLastExportedRecordPosition(record.getPosition());
    }
  }

  @Override
  public void close() {
    journal.closed.incrementAndGet();
  }
}

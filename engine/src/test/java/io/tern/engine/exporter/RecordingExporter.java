package io.tern.engine.exporter;

import io.camunda.zeebe.exporter.api.Exporter;
import io.camunda.zeebe.exporter.api.context.Context;
import io.camunda.zeebe.exporter.api.context.Controller;
import io.camunda.zeebe.protocol.record.Record;
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
 * calls throw first, default 0).
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
  private Controller controller;

  @Override
  public void configure(Context context) {
    Map<String, Object> args = context.getConfiguration().getArguments();
    journal = journal(String.valueOf(args.get("journal")));
    acknowledge = !"false".equals(String.valueOf(args.getOrDefault("acknowledge", "true")));
    Object failures = args.get("failures");
    if (failures != null) {
      journal.failuresLeft.set(Integer.parseInt(String.valueOf(failures)));
    }
  }

  @Override
  public void open(Controller controller) {
    this.controller = controller;
    journal.controller = controller;
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
    if (acknowledge) {
      controller.updateLastExportedRecordPosition(record.getPosition());
    }
  }

  @Override
  public void close() {
    journal.closed.incrementAndGet();
  }
}

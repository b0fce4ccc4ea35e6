package io.tern.engine.processor;

import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.Intents;
import io.tern.engine.protocol.ValueType;
import java.util.Arrays;

/**
 * Which {@link CommandProcessor} handles each command and which {@link EventApplier} applies each
 * event, by intent (which names its value type); built by the engine over a freshly opened state
 * (again after every recovery). Lookups index arrays (by value type, then intent code): nothing is
 * allocated per record.
 */
public final class RecordProcessors {
  /** Called when this member starts processing as leader (schedule due work here). */
  @FunctionalInterface
  public interface ProcessingListener {
    void onProcessingStarted(ProcessingScheduler scheduler);
  }

  /** By value type ordinal, then intent code; null where none is registered. */
  private final CommandProcessor[][] processors = new CommandProcessor[ValueType.values().length][];

  private final EventApplier[][] appliers = new EventApplier[ValueType.values().length][];
  private ProcessingListener processingListener = scheduler -> {};

  public RecordProcessors onCommand(Intent intent, CommandProcessor processor) {
    CommandProcessor[] table = processors[intent.valueType().ordinal()];
    if (table == null || table.length <= intent.code()) {
      table =
          processors[intent.valueType().ordinal()] = grown(table, intent, CommandProcessor[]::new);
    }
    if (table[intent.code()] != null) {
      throw new IllegalArgumentException(
          "A processor for " + Intents.describe(intent) + " exists already");
    }
    table[intent.code()] = processor;
    return this;
  }

  public RecordProcessors onEvent(Intent intent, EventApplier applier) {
    EventApplier[] table = appliers[intent.valueType().ordinal()];
    if (table == null || table.length <= intent.code()) {
      table = appliers[intent.valueType().ordinal()] = grown(table, intent, EventApplier[]::new);
    }
    if (table[intent.code()] != null) {
      throw new IllegalArgumentException(
          "An applier for " + Intents.describe(intent) + " exists already");
    }
    table[intent.code()] = applier;
    return this;
  }

  public RecordProcessors onProcessingStarted(ProcessingListener listener) {
    this.processingListener = listener;
    return this;
  }

  /** The processor of {@code intent}, or null (also for null: a record with unknown codes). */
  CommandProcessor processor(Intent intent) {
    return intent == null ? null : lookup(processors, intent);
  }

  /** The applier of {@code intent}, or null (also for null: a record with unknown codes). */
  EventApplier applier(Intent intent) {
    return intent == null ? null : lookup(appliers, intent);
  }

  ProcessingListener processingListener() {
    return processingListener;
  }

  private static <T> T lookup(T[][] tables, Intent intent) {
    T[] table = tables[intent.valueType().ordinal()];
    return table != null && intent.code() < table.length ? table[intent.code()] : null;
  }

  private static <T> T[] grown(
      T[] table, Intent intent, java.util.function.IntFunction<T[]> newArray) {
    int length = intent.code() + 1;
    return table == null ? newArray.apply(length) : Arrays.copyOf(table, length);
  }
}

package io.tern.engine.processor;

import org.agrona.collections.Int2ObjectHashMap;

/**
 * Which {@link CommandProcessor} handles each command and which {@link EventApplier} applies each
 * event, by value type and intent; built by the engine over a freshly opened state (again after
 * every recovery).
 */
public final class RecordProcessors {
  /** Called when this member starts processing as leader (schedule due work here). */
  @FunctionalInterface
  public interface ProcessingListener {
    void onProcessingStarted(ProcessingScheduler scheduler);
  }

  private static final int MAX_CODE = 0xFFFF;

  private final Int2ObjectHashMap<CommandProcessor> processors = new Int2ObjectHashMap<>();
  private final Int2ObjectHashMap<EventApplier> appliers = new Int2ObjectHashMap<>();
  private ProcessingListener processingListener = scheduler -> {};

  public RecordProcessors onCommand(int valueType, int intent, CommandProcessor processor) {
    if (processors.put(code(valueType, intent), processor) != null) {
      throw new IllegalArgumentException(
          "A processor for value type " + valueType + ", intent " + intent + " exists already");
    }
    return this;
  }

  public RecordProcessors onEvent(int valueType, int intent, EventApplier applier) {
    if (appliers.put(code(valueType, intent), applier) != null) {
      throw new IllegalArgumentException(
          "An applier for value type " + valueType + ", intent " + intent + " exists already");
    }
    return this;
  }

  public RecordProcessors onProcessingStarted(ProcessingListener listener) {
    this.processingListener = listener;
    return this;
  }

  CommandProcessor processor(int valueType, int intent) {
    return processors.get(code(valueType, intent));
  }

  EventApplier applier(int valueType, int intent) {
    return appliers.get(code(valueType, intent));
  }

  ProcessingListener processingListener() {
    return processingListener;
  }

  private static int code(int valueType, int intent) {
    if (valueType < 0 || valueType > MAX_CODE || intent < 0 || intent > MAX_CODE) {
      throw new IllegalArgumentException(
          "Value types and intents are within [0, 65535], got " + valueType + ", " + intent);
    }
    return (valueType << 16) | intent;
  }
}

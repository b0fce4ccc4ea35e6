package io.tern.engine.processor;

import io.tern.engine.state.PartitionState;
import java.util.function.LongSupplier;

/**
 * What the engine's processors and appliers are built over: the partition's state (open column
 * families on it; ids below 16 are the platform's), its key generator and clock.
 */
public final class ProcessingContext {
  private final int partitionId;
  private final PartitionState state;
  private final ProcessorMeta meta;
  private final LongSupplier clockMs;
  private final ProcessingScheduler scheduler;

  ProcessingContext(
      int partitionId,
      PartitionState state,
      ProcessorMeta meta,
      LongSupplier clock,
      ProcessingScheduler scheduler) {
    this.partitionId = partitionId;
    this.state = state;
    this.meta = meta;
    this.clockMs = clock;
    this.scheduler = scheduler;
  }

  /**
   * Due-time work while leading (for processors and side effects; tasks scheduled while replaying
   * are never run, so schedule from {@link RecordProcessors.ProcessingListener} and processing).
   */
  public ProcessingScheduler scheduler() {
    return scheduler;
  }

  public int partitionId() {
    return partitionId;
  }

  public PartitionState state() {
    return state;
  }

  /** A new key of this partition; for processors only (appliers take keys from events). */
  public long nextKey() {
    return meta.nextKey();
  }

  /** Wall-clock milliseconds, for processors only (appliers use the event's timestamp). */
  public long nowMs() {
    return clockMs.getAsLong();
  }
}

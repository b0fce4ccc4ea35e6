package io.tern.engine.processor;

import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.state.PartitionState;

/**
 * Replay: brings the state up to a committed log entry by applying its events, one applier per
 * event type and intent, without processing anything. Followers only replay; a new leader replays
 * until it has read everything up to its election. Records whose effect the state already holds
 * (their source command is at or below the last processed position) are skipped, so an entry read
 * twice changes nothing.
 */
final class Replay {
  private final int partitionId;
  private final ProcessorMetrics metrics;

  // Bound to the open state on each recovery.
  private PartitionState state;
  private ProcessorMeta meta;
  private RecordProcessors processors;

  Replay(int partitionId, ProcessorMetrics metrics) {
    this.partitionId = partitionId;
    this.metrics = metrics;
  }

  /** Replays into {@code state} from now on (after recovery opened it). */
  void bind(PartitionState state, ProcessorMeta meta, RecordProcessors processors) {
    this.state = state;
    this.meta = meta;
    this.processors = processors;
  }

  /**
   * Applies the events of {@code batch}, the entry at log index {@code index}, in one transaction.
   */
  void apply(RecordBatch batch, long index) {
    long lastProcessed = meta.lastProcessedPosition();
    long source = lastProcessed;
    int applied = 0;
    while (batch.hasNext()) {
      LoggedRecord record = batch.next();
      if (record.sourceRecordPosition() <= lastProcessed) {
        continue; // its effect is in the state already, or it is a command from a client
      }
      source = Math.max(source, record.sourceRecordPosition());
      if (record.isEvent()) {
        applyEvent(record, index);
        meta.observeKey(record.key());
        applied++;
      }
    }
    if (source > lastProcessed) {
      meta.setLastProcessedPosition(source);
    }
    state.transaction().commit();
    metrics.replayed(applied);
  }

  private void applyEvent(LoggedRecord record, long index) {
    EventApplier applier = processors.applier(record.intent());
    if (applier == null) {
      throw new IllegalStateException(
          "partition " + partitionId + ": no applier for the event " + record);
    }
    try {
      applier.apply(record);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "partition "
              + partitionId
              + ": cannot apply the event at position "
              + record.position()
              + " (log index "
              + index
              + "): "
              + record,
          e);
    }
  }
}

package io.tern.engine.workflow.processing.common;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.Intent;
import io.tern.engine.record.Keys;
import io.tern.engine.record.RecordValue;
import io.tern.engine.workflow.Partitions;

/**
 * Sends commands to partitions, after the batch that decided to send them is committed: to another
 * partition through {@link Partitions}, to this one by writing it to its own log.
 */
public final class PartitionSender {
  private final ProcessingContext context;
  private final Partitions partitions;

  public PartitionSender(ProcessingContext context, Partitions partitions) {
    this.context = context;
    this.partitions = partitions;
  }

  public int partitionCount() {
    return partitions.count();
  }

  /** The partition of a message's correlation key. */
  public int ofCorrelationKey(String correlationKey) {
    return Partitions.ofCorrelationKey(correlationKey, partitions.count());
  }

  /** The partition that owns an entity's key (a process instance's). */
  public static int ofKey(long key) {
    return Keys.partitionOf(key);
  }

  /** Sends once {@code result} is committed; {@code value} must not be reused by the caller. */
  public void sendAfterCommit(
      ProcessingResult result, int partitionId, Intent intent, long key, RecordValue value) {
    result.sideEffect(() -> send(partitionId, intent, key, value));
  }

  /** Sends now (from a side effect or a scheduled task). */
  public void send(int partitionId, Intent intent, long key, RecordValue value) {
    if (partitionId == context.partitionId()) {
      context
          .scheduler()
          .runAt(context.nowMs(), commands -> commands.appendCommand(key, intent, value));
    } else {
      partitions.send(partitionId, intent, key, value);
    }
  }
}

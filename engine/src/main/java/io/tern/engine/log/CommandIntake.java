package io.tern.engine.log;

import io.tern.engine.protocol.Intent;
import io.tern.engine.record.RecordBatchBuilder;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Writes client commands (from the gateway) to a partition's log, one command per batch; the stream
 * processor answers them through its response sink once their results commit. Thread-safe.
 */
public final class CommandIntake {
  private final LogStreamWriter writer;
  private final RecordBatchBuilder batch;
  private final LongSupplier clockMs;
  private final Supplier<String> admission;

  public CommandIntake(int partitionId, LogStreamWriter writer, LongSupplier clockMs) {
    this(partitionId, writer, clockMs, () -> null);
  }

  /**
   * @param admission null if commands may be written now, else the reason they may not (e.g. the
   *     disk watermark)
   */
  public CommandIntake(
      int partitionId, LogStreamWriter writer, LongSupplier clockMs, Supplier<String> admission) {
    this.writer = writer;
    this.batch = new RecordBatchBuilder(partitionId, writer.maxBatchBytes());
    this.clockMs = clockMs;
    this.admission = admission;
  }

  /**
   * Writes one command.
   *
   * @param requestStreamId and {@code requestId}: whom to answer, or -1 for no answer
   * @return the command's position
   * @throws LogStreamWriter.NotWritableException if this member does not lead (or not yet process),
   *     or the command exceeds {@code log.maxBatchBytes}
   */
  public synchronized long write(
      int requestStreamId, long requestId, Intent intent, long key, RecordValue value) {
    String refusal = admission.get();
    if (refusal != null) {
      throw new LogStreamWriter.NotWritableException(refusal);
    }
    batch.reset(clockMs.getAsLong());
    int index =
        batch.append(
            RecordType.COMMAND,
            intent,
            key,
            RecordBatchBuilder.NO_POSITION,
            requestStreamId,
            requestId,
            RejectionType.NONE,
            null,
            false,
            value);
    if (index < 0) {
      throw new LogStreamWriter.NotWritableException(
          "a command with a "
              + value.length()
              + "-byte value exceeds log.maxBatchBytes ("
              + writer.maxBatchBytes()
              + ")");
    }
    return writer.write(batch, null);
  }
}

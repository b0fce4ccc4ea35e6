package io.tern.engine.processor;

/**
 * The stream processor's settings.
 *
 * @param maxCommandsInBatch {@code processing.maxCommandsInBatch}: how many commands one batch may
 *     process, the one read from the log plus follow-up commands processed at once in the same
 *     transaction (written flagged as processed). Fewer log round trips per command chain, at the
 *     price of larger batches; 1 disables batch processing.
 * @param maxBatchBytes {@code log.maxBatchBytes}: the most bytes of one batch (one log entry)
 * @param uncommitted {@code processing.uncommitted}: a leader processes commands once they are in
 *     its log, before they commit; answers and side effects still wait for the commit of the batch
 *     that produced them
 */
public record ProcessorConfig(int maxCommandsInBatch, int maxBatchBytes, boolean uncommitted) {
  public static final int DEFAULT_MAX_COMMANDS_IN_BATCH = 100;

  public ProcessorConfig {
    if (maxCommandsInBatch < 1) {
      throw new IllegalArgumentException(
          "processing.maxCommandsInBatch must be at least 1 (1 disables batch processing), got "
              + maxCommandsInBatch);
    }
    if (maxBatchBytes < 1024) {
      throw new IllegalArgumentException(
          "log.maxBatchBytes must be at least 1024, got " + maxBatchBytes);
    }
  }

  public static ProcessorConfig defaults() {
    return new ProcessorConfig(
        DEFAULT_MAX_COMMANDS_IN_BATCH,
        io.tern.engine.log.LogStreamWriter.DEFAULT_MAX_BATCH_BYTES,
        false);
  }

  public ProcessorConfig withMaxCommandsInBatch(int commands) {
    return new ProcessorConfig(commands, maxBatchBytes, uncommitted);
  }

  public ProcessorConfig withMaxBatchBytes(int bytes) {
    return new ProcessorConfig(maxCommandsInBatch, bytes, uncommitted);
  }

  public ProcessorConfig withUncommitted(boolean on) {
    return new ProcessorConfig(maxCommandsInBatch, maxBatchBytes, on);
  }
}

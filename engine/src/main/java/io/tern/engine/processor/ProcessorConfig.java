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
 * @param uncommittedTimers {@code processing.uncommittedTimers}, with {@code uncommitted} only: the
 *     partition's own scheduling (timers, job deadlines and back-offs, message expiry: {@link
 *     ProcessingResult#localSideEffect}) runs as soon as its batch is written, not once it commits
 */
public record ProcessorConfig(
    int maxCommandsInBatch, int maxBatchBytes, boolean uncommitted, boolean uncommittedTimers) {
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

  /** With timers scheduled at once whenever {@code uncommitted} is on (the key's default). */
  public ProcessorConfig(int maxCommandsInBatch, int maxBatchBytes, boolean uncommitted) {
    this(maxCommandsInBatch, maxBatchBytes, uncommitted, true);
  }

  /** True if local side effects run when their batch is written, before it commits. */
  boolean localEffectsBeforeCommit() {
    return uncommitted && uncommittedTimers;
  }

  public static ProcessorConfig defaults() {
    return new ProcessorConfig(
        DEFAULT_MAX_COMMANDS_IN_BATCH,
        io.tern.engine.log.LogStreamWriter.DEFAULT_MAX_BATCH_BYTES,
        false);
  }

  public ProcessorConfig withMaxCommandsInBatch(int commands) {
    return new ProcessorConfig(commands, maxBatchBytes, uncommitted, uncommittedTimers);
  }

  public ProcessorConfig withMaxBatchBytes(int bytes) {
    return new ProcessorConfig(maxCommandsInBatch, bytes, uncommitted, uncommittedTimers);
  }

  public ProcessorConfig withUncommitted(boolean on) {
    return new ProcessorConfig(maxCommandsInBatch, maxBatchBytes, on, uncommittedTimers);
  }

  public ProcessorConfig withUncommittedTimers(boolean on) {
    return new ProcessorConfig(maxCommandsInBatch, maxBatchBytes, uncommitted, on);
  }
}

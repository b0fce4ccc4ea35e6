package io.tern.engine.log;

import io.tern.engine.record.RecordBatchBuilder;
import java.util.concurrent.CompletableFuture;

/**
 * Writes record batches to a partition's log, one batch per entry, numbering records with
 * contiguous positions. Only a leader writes: the writer is opened for one term with the position
 * that follows everything in the log at that term's start, and closed when the term ends. The
 * stream processor and client command intake share it; a lock keeps positions in log order.
 */
public final class LogStreamWriter {
  /** The default of {@code log.maxBatchBytes}: the most one entry (one batch) may take. */
  public static final int DEFAULT_MAX_BATCH_BYTES = 4 * 1024 * 1024;

  /** Why a write was refused. */
  public static final class NotWritableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NotWritableException(String message) {
      super(message);
    }
  }

  private final int partitionId;
  private final LogStorage storage;
  private final int maxBatchBytes;
  private long term = -1;
  private long nextPosition;
  private boolean open;

  public LogStreamWriter(int partitionId, LogStorage storage, int maxBatchBytes) {
    this.partitionId = partitionId;
    this.storage = storage;
    this.maxBatchBytes = maxBatchBytes;
  }

  /** Starts writing in {@code term}; the next record gets {@code nextPosition}. */
  public synchronized void open(long term, long nextPosition) {
    this.term = term;
    this.nextPosition = nextPosition;
    this.open = true;
  }

  /** Stops writing (leadership ended, or the processor stopped). */
  public synchronized void close() {
    open = false;
  }

  public synchronized boolean isOpen() {
    return open;
  }

  public int maxBatchBytes() {
    return maxBatchBytes;
  }

  /**
   * Numbers the batch's records and appends it as one entry.
   *
   * @return the position of the batch's first record; {@code committed} (if not null) completes
   *     with the entry's index once committed, or fails
   * @throws NotWritableException if the writer is closed, the batch is empty or too large, or the
   *     storage refused the entry at once (its positions are then given to the next batch)
   */
  public synchronized long write(RecordBatchBuilder batch, CompletableFuture<Long> committed) {
    if (!open) {
      throw new NotWritableException(
          "partition " + partitionId + " does not accept records: it is not the leader (yet)");
    }
    if (batch.isEmpty()) {
      throw new NotWritableException("partition " + partitionId + ": an empty batch");
    }
    if (batch.length() > maxBatchBytes) {
      throw new NotWritableException(
          "partition "
              + partitionId
              + ": a batch of "
              + batch.length()
              + " bytes exceeds log.maxBatchBytes ("
              + maxBatchBytes
              + ")");
    }
    long firstPosition = nextPosition;
    batch.assignPositions(firstPosition);
    byte[] entry = new byte[batch.length()];
    batch.buffer().getBytes(0, entry);
    CompletableFuture<Long> result = storage.append(term, firstPosition, entry);
    if (result.isCompletedExceptionally()) {
      Throwable cause = result.handle((index, error) -> error).join();
      throw new NotWritableException(
          "partition " + partitionId + " refused the batch: " + cause.getMessage());
    }
    nextPosition = firstPosition + batch.recordCount();
    if (committed != null) {
      result.whenComplete(
          (index, error) -> {
            if (error != null) {
              committed.completeExceptionally(error);
            } else {
              committed.complete(index);
            }
          });
    }
    return firstPosition;
  }
}

package io.tern.engine.processor;

import io.tern.engine.log.LogStorage;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import java.util.ArrayDeque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A leader's result batches that are written but not yet read back committed, with what waits for
 * their commit: the answers to clients and the side effects. Nothing leaves the partition on the
 * strength of a write that a new leader could truncate.
 *
 * <p>Committed batches are recognized in one of two ways. Normally the processor itself reads every
 * entry only once committed, and hands each to {@link #completeIfOurs}. With {@code
 * processing.uncommitted} the processor reads ahead of the commit, so a second reader here follows
 * the commit index ({@link #releaseFrom}, {@link #releaseCommitted}), and releases a batch only if
 * the committed entry is the batch this leader wrote (same first position and term), never one a
 * new leader put in its place.
 *
 * <p>Processor thread only.
 */
final class PendingAnswers {
  private static final Logger LOG = LoggerFactory.getLogger(PendingAnswers.class);

  private final int partitionId;
  private final LogStorage storage;
  private final CommandResponseSink responses;
  private final ArrayDeque<Batch> pending = new ArrayDeque<>();
  private final RecordBatch answerBatch = new RecordBatch();
  private final RecordBatch committedBatch = new RecordBatch();

  // processing.uncommitted only: the reader that follows the commit index, and the last position
  // it saw committed.
  private LogStorage.Reader committedReader;
  private long committedPosition = -1;

  /** A written result batch, waiting to be read back committed. */
  record Batch(
      long term,
      long firstPosition,
      int answerIndex,
      int requestStreamId,
      long requestId,
      List<ProcessingResult.Response> otherAnswers,
      List<Runnable> sideEffects) {}

  PendingAnswers(int partitionId, LogStorage storage, CommandResponseSink responses) {
    this.partitionId = partitionId;
    this.storage = storage;
    this.responses = responses;
  }

  /** Remembers a batch just written; batches are added in log order. */
  void add(Batch batch) {
    pending.add(batch);
  }

  /** Drops every unanswered batch: this member no longer leads. */
  void clear() {
    pending.clear();
  }

  /**
   * The processor read {@code entry}, committed, whose batch starts at {@code firstPosition}:
   * answers it and runs its side effects if it is the oldest batch waiting.
   */
  void completeIfOurs(long firstPosition, LogStorage.Entry entry) {
    Batch ours = pending.peek();
    if (ours != null && ours.firstPosition == firstPosition) {
      pending.poll();
      complete(ours, entry);
    }
  }

  /**
   * processing.uncommitted: from now on answers are released by {@link #releaseCommitted}, which
   * reads committed entries from {@code index}; everything up to {@code position} is committed.
   */
  void releaseFrom(long index, long position) {
    if (committedReader == null) {
      committedReader = storage.newReader();
    }
    committedReader.seekToIndex(index);
    committedPosition = position;
  }

  /**
   * processing.uncommitted: answers the batches whose entries committed since the last call, in
   * order, and releases their side effects; returns how many committed entries it read.
   */
  int releaseCommitted(int maxEntries) {
    int read = 0;
    while (read < maxEntries && committedReader.hasNext()) {
      LogStorage.Entry entry = committedReader.next();
      committedBatch.wrap(entry.data(), entry.offset(), entry.length());
      committedPosition = Math.max(committedPosition, committedBatch.lastPosition());
      Batch ours = pending.peek();
      if (ours != null
          && ours.firstPosition == committedBatch.firstPosition()
          && ours.term == entry.term()) {
        pending.poll();
        complete(ours, entry);
      }
      read++;
    }
    return read;
  }

  /** processing.uncommitted: true if committed entries wait to be read for their answers. */
  boolean hasCommittedToRelease() {
    return committedReader != null && committedReader.hasNext();
  }

  /** processing.uncommitted: the last position known committed (what a snapshot may claim). */
  long committedPosition() {
    return committedPosition;
  }

  /** Closes the reader that follows the commit index (the processor is closed). */
  void close() {
    if (committedReader != null) {
      committedReader.close();
    }
  }

  private void complete(Batch batch, LogStorage.Entry entry) {
    if (batch.answerIndex >= 0 && batch.requestId >= 0) {
      responses.respond(batch.requestStreamId, batch.requestId, record(entry, batch.answerIndex));
    }
    for (ProcessingResult.Response other : batch.otherAnswers) {
      responses.respond(
          other.requestStreamId(), other.requestId(), record(entry, other.recordIndex()));
    }
    for (Runnable effect : batch.sideEffects) {
      try {
        effect.run();
      } catch (RuntimeException e) {
        LOG.warn("Partition {}: a side effect failed", partitionId, e);
      }
    }
  }

  /** The record at {@code recordIndex} of {@code entry}'s batch (valid until the next call). */
  private LoggedRecord record(LogStorage.Entry entry, int recordIndex) {
    answerBatch.wrap(entry.data(), entry.offset(), entry.length());
    LoggedRecord record = null;
    for (int i = 0; i <= recordIndex; i++) {
      record = answerBatch.next();
    }
    return record;
  }
}

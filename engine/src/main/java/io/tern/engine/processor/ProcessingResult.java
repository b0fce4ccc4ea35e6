package io.tern.engine.processor;

import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.Intents;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatchBuilder;
import io.tern.engine.record.RecordValue;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import java.util.ArrayList;
import java.util.List;

/**
 * What processing one command (and, with batch processing, its follow-up commands) produces: one
 * record batch whose records all name the command read from the log as their source, the answer to
 * its client, and side effects to run once the batch is committed.
 */
public final class ProcessingResult {
  /** The batch would exceed its byte limit; the processor retries with fewer commands. */
  static final class BatchFullException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BatchFullException() {
      super("the result exceeds log.maxBatchBytes", null, false, false);
    }
  }

  private static final BatchFullException BATCH_FULL = new BatchFullException();

  private final RecordBatchBuilder batch;
  private final LoggedRecord applied = new LoggedRecord();
  private final List<Runnable> sideEffects = new ArrayList<>();
  private final List<Runnable> localEffects = new ArrayList<>();
  private final List<Response> otherResponses = new ArrayList<>();
  private RecordProcessors processors;
  private ProcessorMeta meta;
  private LoggedRecord rootCommand;
  private LoggedRecord current;
  private int responseIndex = -1;

  ProcessingResult(RecordBatchBuilder batch) {
    this.batch = batch;
  }

  void bind(RecordProcessors processors, ProcessorMeta meta) {
    this.processors = processors;
    this.meta = meta;
  }

  /** Starts the result of {@code command}, read from the log. */
  void reset(LoggedRecord command, long nowMs) {
    batch.reset(nowMs);
    sideEffects.clear();
    localEffects.clear();
    otherResponses.clear();
    responseIndex = -1;
    rootCommand = command;
    current = command;
  }

  /** The command being processed now (the root or a follow-up of the same batch). */
  void setCurrent(LoggedRecord command) {
    current = command;
  }

  /** Appends an event and applies it to the state at once, so later steps see its effect. */
  public void appendEvent(long key, Intent intent, RecordValue value) {
    int index = append(RecordType.EVENT, intent, key, value);
    EventApplier applier = processors.applier(intent);
    if (applier == null) {
      throw new IllegalStateException("No event applier for " + Intents.describe(intent));
    }
    applier.apply(batch.record(index, applied));
    meta.observeKey(key);
  }

  /** Appends a follow-up command: processed in this batch if the limit allows, else later. */
  public void appendCommand(long key, Intent intent, RecordValue value) {
    append(RecordType.COMMAND, intent, key, value);
  }

  /**
   * Rejects the command being processed; when it is the one read from the log and a client waits,
   * the rejection is its answer.
   */
  public void reject(RejectionType type, String reason) {
    LoggedRecord command = current;
    // The command's own codes: a command of an unknown intent is rejected too.
    int index =
        batch.appendWithCodes(
            RecordType.COMMAND_REJECTION,
            command.valueTypeCode(),
            command.intentCode(),
            command.key(),
            rootCommand.position(),
            -1,
            RecordBatchBuilder.NO_REQUEST,
            type,
            reason,
            false,
            RecordValue.of(command.value(), 0, command.value().capacity()));
    if (index < 0) {
      throw BATCH_FULL;
    }
    if (command == rootCommand) {
      responseIndex = index;
    }
  }

  /**
   * Appends the rejection of an earlier client command of {@code intent}, which answers that
   * command's request once committed: its outcome was known only later (a message correlation whose
   * every offer was refused).
   */
  public void rejectRequest(
      Intent intent,
      long key,
      RejectionType type,
      String reason,
      RecordValue value,
      int requestStreamId,
      long requestId) {
    int index =
        batch.append(
            RecordType.COMMAND_REJECTION,
            intent,
            key,
            rootCommand.position(),
            -1,
            RecordBatchBuilder.NO_REQUEST,
            type,
            reason,
            false,
            value);
    if (index < 0) {
      throw BATCH_FULL;
    }
    if (requestId >= 0) {
      otherResponses.add(new Response(index, requestStreamId, requestId));
    }
  }

  /** The last appended event answers the client of the command read from the log. */
  public void respondWithLastEvent() {
    if (current == rootCommand && batch.recordCount() > 0) {
      responseIndex = batch.recordCount() - 1;
    }
  }

  /** A record of the batch that answers a request other than the command's. */
  public record Response(int recordIndex, int requestStreamId, long requestId) {}

  /**
   * The last appended record answers an earlier request, once committed (e.g. a process instance's
   * result, to the client that created it and waits).
   */
  public void respondTo(int requestStreamId, long requestId) {
    if (batch.recordCount() > 0 && requestId >= 0) {
      otherResponses.add(new Response(batch.recordCount() - 1, requestStreamId, requestId));
    }
  }

  /** Runs once the batch is committed, on the processor thread (e.g. push a job to a worker). */
  public void sideEffect(Runnable effect) {
    sideEffects.add(effect);
  }

  /**
   * Work on this partition only, such as scheduling a timer, a job's deadline or back-off, or a
   * message's expiry: with processing.uncommitted and processing.uncommittedTimers it runs as soon
   * as the batch is written, else once it commits, like {@link #sideEffect}. Only for effects whose
   * consequences are commands this leader writes to its own log later (after this batch, so they
   * can never commit without it) and nothing that leaves the partition: never an answer, a push, or
   * a message to another partition.
   */
  public void localSideEffect(Runnable effect) {
    localEffects.add(effect);
  }

  private int append(RecordType recordType, Intent intent, long key, RecordValue value) {
    int index =
        batch.append(
            recordType,
            intent,
            key,
            rootCommand.position(),
            -1,
            RecordBatchBuilder.NO_REQUEST,
            RejectionType.NONE,
            null,
            false,
            value);
    if (index < 0) {
      throw BATCH_FULL;
    }
    return index;
  }

  RecordBatchBuilder batch() {
    return batch;
  }

  int responseIndex() {
    return responseIndex;
  }

  List<Runnable> sideEffects() {
    return sideEffects;
  }

  List<Runnable> localEffects() {
    return localEffects;
  }

  List<Response> otherResponses() {
    return otherResponses;
  }
}

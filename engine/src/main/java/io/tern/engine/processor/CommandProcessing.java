package io.tern.engine.processor;

import io.tern.engine.log.LogStorage;
import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.log.LogStreamWriter.NotWritableException;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.RecordBatchBuilder;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.state.PartitionState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A leader's command processing: each command not yet processed is processed in one state
 * transaction (with the follow-up commands its processing appends, up to {@code
 * maxCommandsInBatch}), and its results are written to the log as one batch. The answer and the
 * side effects of a batch wait in {@link PendingAnswers} until that batch is read back committed.
 * Also writes the commands of due scheduled tasks (timers, job deadlines).
 *
 * <p>With {@code processing.uncommitted}, the leader reads and processes commands before they
 * commit; nothing changes for what leaves the partition (see {@link PendingAnswers}).
 *
 * <p>Runs on the processor thread only. {@link StreamProcessor} decides when it runs: between its
 * {@link #start} and {@link #stop}, for entries the replay has not consumed.
 */
final class CommandProcessing {
  private static final Logger LOG = LoggerFactory.getLogger(CommandProcessing.class);
  private static final long RETRY_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);

  /** A rejection names what went wrong; the message of an exception may be long. */
  private static final int MAX_REASON_CHARS = 1000;

  private final int partitionId;
  private final ProcessorConfig config;
  private final LogStreamWriter writer;
  private final CommandResponseSink responses;
  private final LongSupplier clockMs;
  private final ProcessorMetrics metrics;
  private final ProcessingResult result;
  private final RecordBatchBuilder taskBatch;
  private final ProcessingScheduler scheduler;
  private final LoggedRecord followUp = new LoggedRecord();
  private final PendingAnswers pending;

  // Bound to the open state on each recovery.
  private PartitionState state;
  private ProcessorMeta meta;
  private RecordProcessors processors;

  private long lastResultPosition = -1;
  private long retryAtNs;
  private long term = -1;

  CommandProcessing(
      int partitionId,
      ProcessorConfig config,
      LogStreamWriter writer,
      LogStorage storage,
      CommandResponseSink responses,
      LongSupplier clockMs,
      ProcessorMetrics metrics) {
    this.partitionId = partitionId;
    this.config = config;
    this.writer = writer;
    this.responses = responses;
    this.clockMs = clockMs;
    this.metrics = metrics;
    this.result = new ProcessingResult(new RecordBatchBuilder(partitionId, config.maxBatchBytes()));
    this.taskBatch = new RecordBatchBuilder(partitionId, config.maxBatchBytes());
    this.scheduler = new ProcessingScheduler(clockMs);
    this.pending = new PendingAnswers(partitionId, storage, responses);
  }

  /** Where the engine's processors schedule tasks (given to them when they are created). */
  ProcessingScheduler scheduler() {
    return scheduler;
  }

  /** Processes against {@code state} from now on (after recovery opened it). */
  void bind(PartitionState state, ProcessorMeta meta, RecordProcessors processors) {
    this.state = state;
    this.meta = meta;
    this.processors = processors;
    result.bind(processors, meta);
    lastResultPosition = -1;
  }

  /** Starts writing in {@code term}, the first record at {@code nextPosition}. */
  void start(long term, long nextPosition) {
    this.term = term;
    writer.open(term, nextPosition);
    processors.processingListener().onProcessingStarted(scheduler);
  }

  /**
   * processing.uncommitted: from now on answers are released by {@link #releaseCommitted}, which
   * reads committed entries from {@code index}; everything up to {@code position} is committed.
   */
  void releaseFrom(long index, long position) {
    pending.releaseFrom(index, position);
  }

  /**
   * processing.uncommitted: answers the batches whose entries committed since the last call, in
   * order, and releases their side effects; returns how many committed entries it read.
   */
  int releaseCommitted(int maxEntries) {
    return pending.releaseCommitted(maxEntries);
  }

  /** processing.uncommitted: true if committed entries wait to be read for their answers. */
  boolean hasCommittedToRelease() {
    return pending.hasCommittedToRelease();
  }

  /** processing.uncommitted: the last position known committed (what a snapshot may claim). */
  long committedPosition() {
    return pending.committedPosition();
  }

  /** Closes the reader that follows the commit index (the processor is closed). */
  void close() {
    pending.close();
  }

  /** Refuses writes from now on (any thread): the processor is closing or failed. */
  void closeWriter() {
    writer.close();
  }

  /** Stops writing: this member no longer leads. Unanswered batches are dropped unanswered. */
  void stop() {
    writer.close();
    pending.clear();
    scheduler.clear();
  }

  /** The position of the last record written by processing since the state was opened, or -1. */
  long lastResultPosition() {
    return lastResultPosition;
  }

  /**
   * When to try writing again after the log refused a batch ({@link System#nanoTime}), or 0 if the
   * log has not refused one since.
   */
  long retryAtNs() {
    return retryAtNs;
  }

  /** True while a refusal of the log is recent: processing waits until {@link #retryAtNs}. */
  boolean waitingToRetry() {
    if (retryAtNs != 0 && System.nanoTime() - retryAtNs >= 0) {
      retryAtNs = 0;
    }
    return retryAtNs != 0;
  }

  /** When the next scheduled task is due (epoch ms), or {@link ProcessingScheduler#NONE_DUE}. */
  long nextDueAtMs() {
    return scheduler.nextDueAtMs();
  }

  /**
   * Answers the batch this entry carries if it is one of ours (it is committed; with
   * processing.uncommitted, {@link #releaseCommitted} does that instead), then processes the
   * entry's unprocessed commands. False if processing must stop for now: the entry is to be read
   * again.
   */
  boolean processEntry(RecordBatch logBatch, LogStorage.Entry entry) {
    if (!config.uncommitted()) {
      pending.completeIfOurs(logBatch.firstPosition(), entry);
    }
    while (logBatch.hasNext()) {
      LoggedRecord record = logBatch.next();
      if (record.recordType() != RecordType.COMMAND
          || record.isProcessed()
          || record.position() <= meta.lastProcessedPosition()) {
        continue;
      }
      if (!processCommand(record)) {
        return false;
      }
    }
    return true;
  }

  /** Processes one command read from the log; false if its result could not be written. */
  private boolean processCommand(LoggedRecord command) {
    long startNs = System.nanoTime();
    long nowMs = clockMs.getAsLong();
    int commands = processWithinLimits(command, nowMs);
    RecordBatchBuilder batch = result.batch();
    if (batch.isEmpty() && !result.sideEffects().isEmpty() && !command.hasRequest()) {
      // Side effects run once their batch commits. A command between partitions that changes
      // nothing (a copy taken before, its acknowledgement lost) would send its answer never: its
      // rejection is the batch to commit.
      try {
        result.reject(RejectionType.ALREADY_EXISTS, "nothing to change: answered again");
      } catch (ProcessingResult.BatchFullException e) {
        // A copy this close to log.maxBatchBytes: its sender asks again, as after any loss.
        result.reset(command, nowMs);
        LOG.warn("Partition {}: the answer to {} does not fit a batch", partitionId, command);
      }
    }
    if (!batch.isEmpty()) {
      long firstPosition;
      try {
        firstPosition = writer.write(batch, null);
      } catch (NotWritableException e) {
        state.transaction().rollback();
        meta.reload();
        if (writer.isOpen()) {
          retryAtNs = System.nanoTime() + RETRY_PARK_NS; // the log is busy: try again shortly
        }
        LOG.debug("Partition {}: result not written: {}", partitionId, e.getMessage());
        return false;
      }
      lastResultPosition = firstPosition + batch.recordCount() - 1;
      List<Runnable> afterCommit = result.sideEffects();
      if (!config.localEffectsBeforeCommit() && !result.localEffects().isEmpty()) {
        afterCommit = new ArrayList<>(result.localEffects());
        afterCommit.addAll(result.sideEffects());
      }
      pending.add(
          new PendingAnswers.Batch(
              term,
              firstPosition,
              result.responseIndex(),
              command.requestStreamId(),
              command.requestId(),
              List.copyOf(result.otherResponses()),
              List.copyOf(afterCommit)));
    }
    state.transaction().commit();
    if (!batch.isEmpty() && config.localEffectsBeforeCommit()) {
      // processing.uncommittedTimers: the batch is written, so whatever these schedule is written
      // after it, by this leader, in this term: if the batch is lost, so is all that follows it.
      runLocalEffects(result.localEffects());
    }
    if (command.hasRequest()) {
      long firstKey = batch.isEmpty() ? -1 : batch.record(0, followUp).key();
      responses.processed(command.requestStreamId(), command.requestId(), firstKey);
    }
    metrics.processed(command.timestamp(), nowMs, startNs, System.nanoTime(), commands);
    return true;
  }

  private void runLocalEffects(List<Runnable> effects) {
    for (Runnable effect : effects) {
      try {
        effect.run();
      } catch (RuntimeException e) {
        LOG.warn("Partition {}: a local side effect failed", partitionId, e);
      }
    }
  }

  /**
   * Processes {@code command} and then, in the same transaction, the follow-up commands its
   * processing appends, up to {@code maxCommandsInBatch}. If the batch outgrows its byte limit,
   * starts over processing fewer; if the command alone is too big, rejects it.
   *
   * @return how many commands were processed
   */
  private int processWithinLimits(LoggedRecord command, long nowMs) {
    int limit = config.maxCommandsInBatch();
    while (true) {
      int processed = 0;
      try {
        result.reset(command, nowMs);
        processOne(command);
        processed = 1;
        RecordBatchBuilder batch = result.batch();
        for (int i = 0; i < batch.recordCount() && processed < limit; i++) {
          LoggedRecord next = batch.record(i, followUp);
          if (next.isCommand() && !next.isProcessed()) {
            batch.markProcessed(i);
            result.setCurrent(batch.record(i, followUp));
            processOne(followUp);
            processed++;
          }
        }
        meta.setLastProcessedPosition(command.position());
        return processed;
      } catch (ProcessingResult.BatchFullException e) {
        undo();
        if (processed <= 1) {
          reject(
              command,
              nowMs,
              RejectionType.EXCEEDED_BATCH_RECORD_SIZE,
              "the command's result exceeds log.maxBatchBytes (" + config.maxBatchBytes() + ")");
          return 1;
        }
        limit = processed - 1;
      } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
        rejectFailed(command, nowMs, e);
        return 1;
      } catch (Error e) {
        if (!isCommandsOwn(e)) {
          throw e; // the JVM itself is broken: fail the partition loudly
        }
        rejectFailed(command, nowMs, e);
        return 1;
      }
    }
  }

  /**
   * Rejects a command whose processing threw, so that one bad command (a poison pill) costs its
   * sender an error and nobody else anything: the rejection goes to the log like any result, and
   * names the command as its source, so replay skips the command and never runs it again. A new
   * leader that finds the command without its result (the old one crashed in between) processes it
   * again and throws the same way, as processing is deterministic, so it writes the same rejection.
   *
   * <p>{@link StackOverflowError} and {@link OutOfMemoryError} are caught too: one oversized
   * command (a model nested thousands of levels deep, an expression building a huge list) throws
   * them, and everything that command allocated is garbage once the transaction is rolled back. A
   * heap that is truly exhausted still fails the partition: writing the rejection then throws
   * again, and that error reaches {@link StreamProcessor}, which stops.
   */
  private void rejectFailed(LoggedRecord command, long nowMs, Throwable e) {
    undo();
    if (e instanceof Error) {
      // Not e itself: the stack trace of an overflow is thousands of lines.
      LOG.error(
          "Partition {}: processing {} threw {}; rejecting the command", partitionId, command, e);
    } else {
      LOG.warn("Partition {}: processing {} failed", partitionId, command, e);
    }
    reject(command, nowMs, RejectionType.PROCESSING_ERROR, "processing failed: " + describe(e));
  }

  /**
   * True for the errors that one command's processing can cause without the JVM being broken: an
   * assertion and the like. {@link VirtualMachineError}s other than the two caught explicitly (an
   * internal error, an unknown one) and {@link LinkageError}s are not.
   */
  private static boolean isCommandsOwn(Error e) {
    // A class missing or failing to link or initialise is this broker's fault, not the command's:
    // fail over to a replica that has it rather than reject commands for good.
    return !(e instanceof VirtualMachineError) && !(e instanceof LinkageError);
  }

  /** The error's class and message, short enough for a rejection reason. */
  private static String describe(Throwable e) {
    String text = e.toString();
    return text.length() <= MAX_REASON_CHARS ? text : text.substring(0, MAX_REASON_CHARS) + "...";
  }

  private void processOne(LoggedRecord command) {
    CommandProcessor processor = processors.processor(command.intent());
    if (processor == null) {
      result.reject(
          RejectionType.PROCESSING_ERROR,
          "no processor for value type "
              + command.valueTypeCode()
              + " and intent "
              + command.intentCode());
      metrics.rejected();
      return;
    }
    processor.process(command, result);
  }

  private void undo() {
    state.transaction().rollback();
    meta.reload();
  }

  private void reject(LoggedRecord command, long nowMs, RejectionType type, String reason) {
    result.reset(command, nowMs);
    result.reject(type, reason);
    meta.setLastProcessedPosition(command.position());
    metrics.rejected();
  }

  /** Writes the commands of the scheduled tasks that are due; returns how many ran. */
  int runDueTasks() {
    int ran = 0;
    ProcessingScheduler.Task task;
    long nowMs = clockMs.getAsLong();
    while ((task = scheduler.pollDue(nowMs)) != null) {
      taskBatch.reset(nowMs);
      task.run(
          (key, intent, value) -> {
            if (taskBatch.append(
                    RecordType.COMMAND,
                    intent,
                    key,
                    RecordBatchBuilder.NO_POSITION,
                    -1,
                    RecordBatchBuilder.NO_REQUEST,
                    RejectionType.NONE,
                    null,
                    false,
                    value)
                < 0) {
              throw new IllegalStateException(
                  "a scheduled task's commands exceed log.maxBatchBytes; append fewer at once");
            }
          });
      state.transaction().rollback(); // tasks only read
      if (!taskBatch.isEmpty()) {
        try {
          writer.write(taskBatch, null);
        } catch (NotWritableException e) {
          LOG.debug("Partition {}: a task's commands were not written", partitionId, e);
        }
      }
      ran++;
    }
    return ran;
  }
}

package io.tern.engine.processor;

import io.micrometer.core.instrument.MeterRegistry;
import io.tern.engine.log.LogStorage;
import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.log.LogStreamWriter.NotWritableException;
import io.tern.engine.log.RaftLogStorage;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.RecordBatchBuilder;
import io.tern.engine.record.sbe.RecordType;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.state.PartitionState;
import io.tern.raft.RaftRole;
import io.tern.raft.SnapshotMeta;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition's stream processor, on its own thread. It reads committed log entries in order.
 * While replaying (followers always, a new leader until it has read everything up to its election
 * no-op) it applies events only. As leader it then processes each command not yet processed: one
 * state transaction, one result batch written to the log, and the answer and side effects once that
 * batch is read back committed.
 *
 * <p>Exactly once: every record a command's processing writes names the command as its source, and
 * the state remembers the last processed command's position ({@link ProcessorMeta}), moved by
 * processing and by replaying results alike. Commands at or below it are skipped.
 *
 * <p>When this member stops leading, its state may hold effects of batches that never committed, so
 * it recovers: state from the latest snapshot, then replay.
 */
public final class StreamProcessor implements RaftLogStorage.Listener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StreamProcessor.class);
  private static final int MAX_ENTRIES_PER_TURN = 256;
  private static final long MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final long RETRY_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);

  private final int partitionId;
  private final ProcessorConfig config;
  private final LogStorage storage;
  private final LogStreamWriter writer;
  private final StateRecovery recovery;
  private final RecordProcessorsFactory factory;
  private final CommandResponseSink responses;
  private final LongSupplier clockMs;
  private final PauseFlag pauseFlag;
  private final ProcessorMetrics metrics;
  private final ConcurrentLinkedQueue<Runnable> signals = new ConcurrentLinkedQueue<>();
  private final Thread thread;

  private volatile boolean running = true;
  private volatile boolean sleeping;
  private volatile ProcessorPhase phase = ProcessorPhase.REPLAYING;
  private volatile Throwable failure;
  private volatile long publishedLastProcessedPosition = -1;

  // Processor thread only.
  private final RecordBatch logBatch = new RecordBatch();
  private final RecordBatch answerBatch = new RecordBatch();
  private final LoggedRecord followUp = new LoggedRecord();
  private final ProcessingResult result;
  private final RecordBatchBuilder taskBatch;
  private final ProcessingScheduler scheduler;
  private final ArrayDeque<PendingBatch> pending = new ArrayDeque<>();
  private final StateSnapshotter snapshotter;
  private LogStorage.Reader reader;

  /** Volatile only for {@link #stateProperty}, which metrics read from other threads. */
  private volatile PartitionState state;

  private ProcessorMeta meta;
  private RecordProcessors processors;
  private boolean needsRecovery = true;
  private boolean leader;
  private long leaderTerm = -1;
  private long leaderNoOpIndex;
  private long leaderSinceNs;
  private boolean processing;
  private boolean paused;
  private long lastSeenPosition;
  private long lastConsumedIndex;
  private long lastResultPosition = -1;
  private long retryAtNs;

  /** A written result batch, waiting to be read back committed. */
  private record PendingBatch(
      long firstPosition,
      int answerIndex,
      int requestStreamId,
      long requestId,
      List<ProcessingResult.Response> otherAnswers,
      List<Runnable> sideEffects) {}

  /**
   * @param partitionDirectory where the member keeps local files of the partition (the pause flag,
   *     snapshots being staged); null keeps none
   * @param snapshotSink where snapshots go (Raft); null takes none
   */
  public StreamProcessor(
      int partitionId,
      ProcessorConfig config,
      LogStorage storage,
      LogStreamWriter writer,
      StateRecovery recovery,
      RecordProcessorsFactory factory,
      CommandResponseSink responses,
      LongSupplier clockMs,
      Path partitionDirectory,
      SnapshotSink snapshotSink,
      MeterRegistry registry) {
    this.partitionId = partitionId;
    this.config = config;
    this.storage = storage;
    this.writer = writer;
    this.recovery = recovery;
    this.factory = factory;
    this.responses = responses;
    this.clockMs = clockMs;
    this.pauseFlag = new PauseFlag(partitionDirectory);
    this.paused = pauseFlag.isSet();
    this.result = new ProcessingResult(new RecordBatchBuilder(partitionId, config.maxBatchBytes()));
    this.taskBatch = new RecordBatchBuilder(partitionId, config.maxBatchBytes());
    this.scheduler = new ProcessingScheduler(clockMs);
    this.metrics = new ProcessorMetrics(registry, partitionId, this);
    this.snapshotter =
        new StateSnapshotter(partitionId, partitionDirectory, snapshotSink, this::signal);
    this.thread = new Thread(this::run, "processor-p" + partitionId);
    thread.setDaemon(true);
  }

  /** Starts the processor thread (register it as the storage's listener first). */
  public StreamProcessor start() {
    thread.start();
    return this;
  }

  // ------------------------------------------------------------ API for other threads

  public ProcessorPhase phase() {
    return phase;
  }

  /** Why the processor failed, or null. */
  public Throwable failure() {
    return failure;
  }

  public long lastProcessedPosition() {
    return publishedLastProcessedPosition;
  }

  /** Holds back command processing (persisted: a restarted member stays paused). */
  public void pause() {
    signal(() -> setPaused(true));
  }

  public void resume() {
    signal(() -> setPaused(false));
  }

  /**
   * Takes a snapshot of the state as soon as what it reflects is committed. Completes with its
   * metadata, or null if nothing changed since the last one.
   */
  public CompletableFuture<SnapshotMeta> takeSnapshot() {
    CompletableFuture<SnapshotMeta> done = new CompletableFuture<>();
    signal(
        () -> {
          if (state == null || phase == ProcessorPhase.FAILED) {
            done.completeExceptionally(
                new IllegalStateException(
                    "partition " + partitionId + " has no state to snapshot (" + phase + ")"));
            return;
          }
          snapshotter.start(
              state,
              lastConsumedIndex,
              lastSeenPosition,
              meta.lastProcessedPosition(),
              processing ? lastResultPosition : -1,
              done);
        });
    return done;
  }

  /**
   * Runs a read-only {@code query} against the partition's state on the processor thread, between
   * two commands. A leader's state may include the effects of commands whose results are not
   * committed yet. Fails if no state is open (the processor failed or is recovering).
   */
  public <T> CompletableFuture<T> query(java.util.function.Function<PartitionState, T> query) {
    CompletableFuture<T> answer = new CompletableFuture<>();
    signal(
        () -> {
          PartitionState open = state;
          if (open == null || needsRecovery || phase == ProcessorPhase.FAILED) {
            answer.completeExceptionally(
                new IllegalStateException(
                    "partition " + partitionId + " has no state to read now (" + phase + ")"));
            return;
          }
          try {
            answer.complete(query.apply(open));
          } catch (RuntimeException e) {
            answer.completeExceptionally(e);
          } finally {
            open.transaction().rollback(); // a query only reads
          }
        });
    return answer;
  }

  /** Runs {@code task} on the processor thread (for tests and the admin API). */
  public void execute(Runnable task) {
    signal(task);
  }

  /** The open state, for tasks passed to {@link #execute} only (processor thread); or null. */
  PartitionState currentState() {
    return state;
  }

  @Override
  public void onCommit(long commitIndex) {
    wake();
  }

  @Override
  public void onRoleChange(RaftRole role, long term, long lastIndex) {
    signal(() -> changeRole(role, term, lastIndex));
  }

  @Override
  public void onSnapshotInstalled(SnapshotMeta snapshot, Path directory) {
    signal(() -> needsRecovery = true);
  }

  private void signal(Runnable task) {
    signals.add(task);
    wake();
  }

  private void wake() {
    if (sleeping) {
      LockSupport.unpark(thread);
    }
  }

  // ------------------------------------------------------------ the processor thread

  private void run() {
    while (running) {
      int work = 0;
      try {
        work += runSignals();
        if (phase != ProcessorPhase.FAILED) {
          if (needsRecovery) {
            recover();
            work++;
          }
          work += readLog();
          work += maybeStartProcessing();
          work += runDueTasks();
          snapshotter.maybeCommit(lastSeenPosition);
        }
      } catch (RuntimeException | Error e) {
        fail(e);
      }
      if (work == 0) {
        idle();
      }
    }
    closeState();
  }

  private int runSignals() {
    int count = 0;
    Runnable task;
    while ((task = signals.poll()) != null) {
      task.run();
      count++;
    }
    return count;
  }

  private void idle() {
    long parkNs = MAX_PARK_NS;
    if (processing && !paused) {
      long dueAtMs = scheduler.nextDueAtMs();
      if (dueAtMs != ProcessingScheduler.NONE_DUE) {
        parkNs = Math.min(parkNs, TimeUnit.MILLISECONDS.toNanos(dueAtMs - clockMs.getAsLong()));
      }
    }
    if (retryAtNs != 0) {
      parkNs = Math.min(parkNs, retryAtNs - System.nanoTime());
    }
    if (parkNs <= 0) {
      return;
    }
    sleeping = true;
    if (signals.isEmpty() && !(reader != null && reader.hasNext() && !(processing && paused))) {
      LockSupport.parkNanos(this, parkNs);
    }
    sleeping = false;
  }

  private void fail(Throwable e) {
    LOG.error("Partition {}: the stream processor failed and stopped", partitionId, e);
    failure = e;
    phase = ProcessorPhase.FAILED;
    writer.close();
    processing = false;
  }

  private void changeRole(RaftRole role, long term, long lastIndex) {
    boolean nowLeader = role == RaftRole.LEADER;
    if (nowLeader && leader && term == leaderTerm) {
      return;
    }
    if (leader) {
      stepDown();
    }
    leader = nowLeader;
    if (nowLeader) {
      leaderTerm = term;
      leaderNoOpIndex = lastIndex;
      leaderSinceNs = System.nanoTime();
      LOG.debug("Partition {}: leader in term {}, replaying to {}", partitionId, term, lastIndex);
    }
  }

  private void stepDown() {
    writer.close();
    pending.clear();
    scheduler.clear();
    snapshotter.discard("leadership ended before its batches committed");
    if (processing) {
      needsRecovery = true; // the state may hold effects of batches that never commit
    }
    processing = false;
    if (phase != ProcessorPhase.FAILED) {
      phase = ProcessorPhase.REPLAYING;
    }
  }

  private void recover() {
    closeState();
    StateRecovery.Recovered recovered = recovery.recover();
    state = recovered.state();
    meta = new ProcessorMeta(state, partitionId);
    processors =
        factory.create(new ProcessingContext(partitionId, state, meta, clockMs, scheduler));
    result.bind(processors, meta);
    if (reader == null) {
      reader = storage.newReader();
    }
    reader.seekToIndex(recovered.nextLogIndex());
    lastConsumedIndex = recovered.nextLogIndex() - 1;
    snapshotter.recovered(lastConsumedIndex);
    lastSeenPosition = Math.max(recovered.lastLogPosition(), meta.lastProcessedPosition());
    lastResultPosition = -1;
    publishedLastProcessedPosition = meta.lastProcessedPosition();
    needsRecovery = false;
    if (phase != ProcessorPhase.FAILED) {
      phase = ProcessorPhase.REPLAYING;
    }
  }

  private void closeState() {
    if (state != null) {
      state.close();
      state = null;
    }
  }

  /**
   * A numeric RocksDB property of the partition's open state (e.g. {@code
   * rocksdb.estimate-num-keys}), from any thread; NaN while no state is open (a state closed
   * meanwhile answers NaN too: {@link PartitionState#longProperty} excludes its close).
   */
  public double stateProperty(String name) {
    PartitionState open = state;
    return open == null ? Double.NaN : open.longProperty(name);
  }

  private int readLog() {
    if (processing && paused) {
      return 0;
    }
    if (retryAtNs != 0) {
      if (System.nanoTime() - retryAtNs < 0) {
        return 0;
      }
      retryAtNs = 0;
    }
    int entries = 0;
    while (entries < MAX_ENTRIES_PER_TURN && reader.hasNext()) {
      LogStorage.Entry entry = reader.next();
      logBatch.wrap(entry.data(), entry.offset(), entry.length());
      lastSeenPosition = Math.max(lastSeenPosition, logBatch.lastPosition());
      entries++;
      if (processing) {
        if (!processEntry(entry)) {
          break;
        }
      } else {
        replayEntry(entry.index());
      }
      lastConsumedIndex = entry.index();
    }
    publishedLastProcessedPosition = meta.lastProcessedPosition();
    return entries;
  }

  // ------------------------------------------------------------ replay

  private void replayEntry(long index) {
    long lastProcessed = meta.lastProcessedPosition();
    long source = lastProcessed;
    int applied = 0;
    while (logBatch.hasNext()) {
      LoggedRecord record = logBatch.next();
      if (record.sourceRecordPosition() <= lastProcessed) {
        continue; // its effect is in the state already, or it is a command from a client
      }
      source = Math.max(source, record.sourceRecordPosition());
      if (record.isEvent()) {
        EventApplier applier = processors.applier(record.valueType(), record.intent());
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

  private int maybeStartProcessing() {
    if (!leader || processing || needsRecovery || phase == ProcessorPhase.FAILED) {
      return 0;
    }
    // hasNext first: it steps over committed entries that are not batches (Raft's no-op).
    if (reader.hasNext() || reader.nextIndex() <= leaderNoOpIndex) {
      return 0; // not everything up to the election is read (and committed) yet
    }
    writer.open(leaderTerm, lastSeenPosition + 1);
    // Commands after the last processed one were read while replaying: read them again. Until
    // they are processed, a snapshot may only claim the entries before them.
    reader.seekToPosition(meta.lastProcessedPosition() + 1);
    lastConsumedIndex = Math.min(lastConsumedIndex, reader.nextIndex() - 1);
    processing = true;
    phase = paused ? ProcessorPhase.PAUSED : ProcessorPhase.PROCESSING;
    long readyNs = System.nanoTime() - leaderSinceNs;
    metrics.leaderReady(readyNs);
    LOG.info(
        "Partition {}: processing as leader of term {} after position {}, {} ms after the election",
        partitionId,
        leaderTerm,
        meta.lastProcessedPosition(),
        TimeUnit.NANOSECONDS.toMillis(readyNs));
    processors.processingListener().onProcessingStarted(scheduler);
    return 1;
  }

  // ------------------------------------------------------------ processing

  /** False if processing must stop for now (the entry will be read again). */
  private boolean processEntry(LogStorage.Entry entry) {
    PendingBatch ours = pending.peek();
    if (ours != null && ours.firstPosition == logBatch.firstPosition()) {
      pending.poll();
      completeCommitted(ours, entry);
    }
    while (logBatch.hasNext()) {
      LoggedRecord record = logBatch.next();
      if (record.recordType() != RecordType.COMMAND
          || record.isProcessed()
          || record.position() <= meta.lastProcessedPosition()) {
        continue;
      }
      if (!processCommand(record)) {
        reader.seekToIndex(entry.index());
        return false;
      }
    }
    return true;
  }

  private void completeCommitted(PendingBatch batch, LogStorage.Entry entry) {
    if (batch.answerIndex >= 0 && batch.requestId >= 0) {
      answerBatch.wrap(entry.data(), entry.offset(), entry.length());
      LoggedRecord answer = null;
      for (int i = 0; i <= batch.answerIndex; i++) {
        answer = answerBatch.next();
      }
      responses.respond(batch.requestStreamId, batch.requestId, answer);
    }
    for (ProcessingResult.Response other : batch.otherAnswers) {
      answerBatch.wrap(entry.data(), entry.offset(), entry.length());
      LoggedRecord answer = null;
      for (int i = 0; i <= other.recordIndex(); i++) {
        answer = answerBatch.next();
      }
      responses.respond(other.requestStreamId(), other.requestId(), answer);
    }
    for (Runnable effect : batch.sideEffects) {
      try {
        effect.run();
      } catch (RuntimeException e) {
        LOG.warn("Partition {}: a side effect failed", partitionId, e);
      }
    }
  }

  /** Processes one command read from the log; false if its result could not be written. */
  private boolean processCommand(LoggedRecord command) {
    long startNs = System.nanoTime();
    long nowMs = clockMs.getAsLong();
    int commands = processWithinLimits(command, nowMs);
    RecordBatchBuilder batch = result.batch();
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
      pending.add(
          new PendingBatch(
              firstPosition,
              result.responseIndex(),
              command.requestStreamId(),
              command.requestId(),
              List.copyOf(result.otherResponses()),
              List.copyOf(result.sideEffects())));
    }
    state.transaction().commit();
    if (command.hasRequest()) {
      long firstKey = batch.isEmpty() ? -1 : batch.record(0, followUp).key();
      responses.processed(command.requestStreamId(), command.requestId(), firstKey);
    }
    metrics.processed(command.timestamp(), nowMs, startNs, System.nanoTime(), commands);
    return true;
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
      } catch (RuntimeException e) {
        undo();
        LOG.warn("Partition {}: processing {} failed", partitionId, command, e);
        reject(command, nowMs, RejectionType.PROCESSING_ERROR, "processing failed: " + e);
        return 1;
      }
    }
  }

  private void processOne(LoggedRecord command) {
    CommandProcessor processor = processors.processor(command.valueType(), command.intent());
    if (processor == null) {
      result.reject(
          RejectionType.PROCESSING_ERROR,
          "no processor for value type " + command.valueType() + " and intent " + command.intent());
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

  private void setPaused(boolean pause) {
    pauseFlag.set(pause);
    paused = pause;
    if (processing) {
      phase = pause ? ProcessorPhase.PAUSED : ProcessorPhase.PROCESSING;
    }
  }

  // ------------------------------------------------------------ scheduled tasks

  private int runDueTasks() {
    if (!processing || paused) {
      return 0;
    }
    int ran = 0;
    ProcessingScheduler.Task task;
    long nowMs = clockMs.getAsLong();
    while ((task = scheduler.pollDue(nowMs)) != null) {
      taskBatch.reset(nowMs);
      task.run(
          (key, valueType, intent, value) -> {
            if (taskBatch.append(
                    RecordType.COMMAND,
                    valueType,
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

  /** Stops the thread and closes the state. */
  @Override
  public void close() {
    running = false;
    writer.close();
    LockSupport.unpark(thread);
    if (thread.isAlive()) {
      try {
        thread.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    } else {
      closeState();
    }
    if (reader != null) {
      reader.close();
    }
    phase = ProcessorPhase.CLOSED;
  }
}

package io.tern.engine.processor;

import io.micrometer.core.instrument.MeterRegistry;
import io.tern.engine.log.LogStorage;
import io.tern.engine.log.LogStreamWriter;
import io.tern.engine.log.RaftLogStorage;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.state.PartitionState;
import io.tern.raft.RaftRole;
import io.tern.raft.SnapshotMeta;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One partition's stream processor, on its own thread. It reads committed log entries in order and
 * hands each to one of two machines: {@link Replay} (followers always, a new leader until it has
 * read everything up to its election no-op), which applies events only; or, as leader from then on,
 * {@link CommandProcessing}, which processes each command not yet processed into one result batch
 * and answers once that batch is read back committed. This class decides which runs, and owns what
 * both share: the thread ({@link ProcessorThread}), the open state and its recovery, role changes,
 * pause and snapshots. What is left here is one piece: the loop and its moves between replay and
 * processing read and change the same few fields.
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

  private final int partitionId;
  private final LogStorage storage;
  private final boolean uncommitted;
  private final StateRecovery recovery;
  private final RecordProcessorsFactory factory;
  private final LongSupplier clockMs;
  private final PauseFlag pauseFlag;
  private final ProcessorMetrics metrics;
  private final ProcessorThread thread;

  private volatile boolean running = true;
  private volatile ProcessorPhase phase = ProcessorPhase.REPLAYING;
  private volatile Throwable failure;
  private volatile long publishedLastProcessedPosition = -1;
  private volatile long publishedLastReadIndex = -1;
  private volatile long publishedRecoveredPosition = -1;

  // Processor thread only.
  private final RecordBatch logBatch = new RecordBatch();
  private final Replay replay;
  private final CommandProcessing commands;
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
    this.storage = storage;
    this.recovery = recovery;
    this.factory = factory;
    this.clockMs = clockMs;
    this.pauseFlag = new PauseFlag(partitionDirectory);
    this.paused = pauseFlag.isSet();
    this.metrics = new ProcessorMetrics(registry, partitionId, this);
    this.replay = new Replay(partitionId, metrics);
    this.uncommitted = config.uncommitted();
    this.commands =
        new CommandProcessing(partitionId, config, writer, storage, responses, clockMs, metrics);
    this.snapshotter =
        new StateSnapshotter(partitionId, partitionDirectory, snapshotSink, this::signal);
    this.thread = new ProcessorThread("processor-p" + partitionId, this::run);
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

  /** The last processed position of the state as last recovered (its snapshot's), or -1. */
  public long recoveredPosition() {
    return publishedRecoveredPosition;
  }

  /**
   * The index of the last log entry the processor replayed or processed (-1 until its state is
   * recovered): against Raft's commit index, how far it is behind. Entries, not positions, because
   * the positions of entries not read yet are unknown.
   */
  public long lastReadIndex() {
    return publishedLastReadIndex;
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
              committedPositionNeeded(),
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
  public void onAppended(long lastIndex) {
    if (uncommitted) {
      wake(); // a leader processes what is in its log, committed or not
    }
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
    thread.signal(task);
  }

  private void wake() {
    thread.wake();
  }

  // ------------------------------------------------------------ the processor thread

  private void run() {
    while (running) {
      int work = 0;
      try {
        work += thread.runTasks();
        if (phase != ProcessorPhase.FAILED) {
          if (needsRecovery) {
            recover();
            work++;
          }
          work += readLog();
          work += maybeStartProcessing();
          if (processing && !paused) {
            work += commands.runDueTasks();
          }
          if (processing && uncommitted) {
            work += commands.releaseCommitted(MAX_ENTRIES_PER_TURN);
          }
          snapshotter.maybeCommit(committedPosition());
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

  private void idle() {
    long parkNs = MAX_PARK_NS;
    if (processing && !paused) {
      long dueAtMs = commands.nextDueAtMs();
      if (dueAtMs != ProcessingScheduler.NONE_DUE) {
        parkNs = Math.min(parkNs, TimeUnit.MILLISECONDS.toNanos(dueAtMs - clockMs.getAsLong()));
      }
    }
    long retryAtNs = commands.retryAtNs();
    if (retryAtNs != 0) {
      parkNs = Math.min(parkNs, retryAtNs - System.nanoTime());
    }
    if (parkNs <= 0) {
      return;
    }
    thread.park(
        parkNs,
        () ->
            (reader != null && reader.hasNext() && !(processing && paused))
                || (processing && uncommitted && commands.hasCommittedToRelease()));
  }

  /** The last position known committed: all that was read, unless reading uncommitted entries. */
  private long committedPosition() {
    return processing && uncommitted ? commands.committedPosition() : lastSeenPosition;
  }

  /**
   * What must commit before a snapshot of the state may go to Raft, or -1: the leader's result
   * batches in flight, and with processing.uncommitted the commands read before their commit.
   */
  private long committedPositionNeeded() {
    if (!processing) {
      return -1;
    }
    return uncommitted
        ? Math.max(lastSeenPosition, commands.lastResultPosition())
        : commands.lastResultPosition();
  }

  private void fail(Throwable e) {
    LOG.error("Partition {}: the stream processor failed and stopped", partitionId, e);
    failure = e;
    phase = ProcessorPhase.FAILED;
    commands.closeWriter();
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
    commands.stop();
    if (reader != null) {
      reader.readUncommitted(false); // recovery reads the committed log again
    }
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
        factory.create(
            new ProcessingContext(partitionId, state, meta, clockMs, commands.scheduler()));
    replay.bind(state, meta, processors);
    commands.bind(state, meta, processors);
    if (reader == null) {
      reader = storage.newReader();
    }
    reader.seekToIndex(recovered.nextLogIndex());
    lastConsumedIndex = recovered.nextLogIndex() - 1;
    snapshotter.recovered(lastConsumedIndex);
    lastSeenPosition = Math.max(recovered.lastLogPosition(), meta.lastProcessedPosition());
    publishedLastProcessedPosition = meta.lastProcessedPosition();
    publishedLastReadIndex = lastConsumedIndex;
    publishedRecoveredPosition = meta.lastProcessedPosition();
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
    if (commands.waitingToRetry()) {
      return 0; // the log refused a batch a moment ago
    }
    int entries = 0;
    while (entries < MAX_ENTRIES_PER_TURN && reader.hasNext()) {
      LogStorage.Entry entry = reader.next();
      logBatch.wrap(entry.data(), entry.offset(), entry.length());
      lastSeenPosition = Math.max(lastSeenPosition, logBatch.lastPosition());
      entries++;
      if (processing) {
        if (!commands.processEntry(logBatch, entry)) {
          reader.seekToIndex(entry.index()); // read it again when the log takes batches
          break;
        }
      } else {
        replay.apply(logBatch, entry.index());
      }
      lastConsumedIndex = entry.index();
    }
    publishedLastProcessedPosition = meta.lastProcessedPosition();
    if (entries > 0) {
      publishedLastReadIndex = lastConsumedIndex;
    }
    return entries;
  }

  private int maybeStartProcessing() {
    if (!leader || processing || needsRecovery || phase == ProcessorPhase.FAILED) {
      return 0;
    }
    // hasNext first: it steps over committed entries that are not batches (Raft's no-op).
    if (reader.hasNext() || reader.nextIndex() <= leaderNoOpIndex) {
      return 0; // not everything up to the election is read (and committed) yet
    }
    // Open for writes before the phase says PROCESSING: a client may write once it reads that.
    commands.start(leaderTerm, lastSeenPosition + 1);
    // Commands after the last processed one were read while replaying: read them again. Until
    // they are processed, a snapshot may only claim the entries before them.
    reader.seekToPosition(meta.lastProcessedPosition() + 1);
    lastConsumedIndex = Math.min(lastConsumedIndex, reader.nextIndex() - 1);
    if (uncommitted) {
      // Everything read so far is committed (up to the election no-op): answers wait from here.
      commands.releaseFrom(reader.nextIndex(), lastSeenPosition);
      reader.readUncommitted(true);
    }
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
    return 1;
  }

  private void setPaused(boolean pause) {
    pauseFlag.set(pause);
    paused = pause;
    if (processing) {
      phase = pause ? ProcessorPhase.PAUSED : ProcessorPhase.PROCESSING;
    }
  }

  /** Stops the thread and closes the state. */
  @Override
  public void close() {
    running = false;
    commands.closeWriter();
    if (!thread.stop()) {
      closeState();
    }
    if (reader != null) {
      reader.close();
    }
    commands.close();
    phase = ProcessorPhase.CLOSED;
  }
}

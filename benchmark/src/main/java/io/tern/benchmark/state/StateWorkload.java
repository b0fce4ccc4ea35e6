package io.tern.benchmark.state;

import io.tern.benchmark.common.Progress;
import io.tern.engine.state.ColumnFamily;
import io.tern.engine.state.DbBytes;
import io.tern.engine.state.DbCompositeKey;
import io.tern.engine.state.DbLong;
import io.tern.engine.state.PartitionState;
import io.tern.engine.state.StateConfig;
import io.tern.engine.state.StateResources;
import io.tern.engine.state.StateTransaction;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * The workload of a workflow engine's state store (LittleHorse's benchmark, seed 000), run on one
 * partition's state the way Tern's stream processor uses it: one thread, one transaction per
 * command. Each simulated workflow runs its tasks one after another; starting a task reads and
 * updates the workflow, writes the task run with its payload and a timeout timer; completing it
 * rewrites the task run, deletes the timeout and schedules a follow-up timer. Every scan interval a
 * punctuator range-scans the due timers, deleting each and updating the workflow or task run it
 * names during the scan. Task-start latency is the time from a task's completion to the next task's
 * start being committed, as the seed defines it.
 */
final class StateWorkload {
  private static final short WORKFLOWS = 16;
  private static final short TASK_RUNS = 17;
  private static final short TIMERS = 18;
  private static final short METRICS = 19;
  private static final int START = 0;
  private static final int COMPLETE = 1;
  private static final byte TIMER_TIMEOUT = 1;
  private static final long METRICS_WINDOW_MS = 30_000;
  private static final long STALL_NS = TimeUnit.MILLISECONDS.toNanos(500);

  private record Command(int kind, int workflow, int task, long enqueuedNs) {}

  private final StateOptions options;
  private final Progress progress;
  private final ArrayDeque<Command> queue = new ArrayDeque<>();
  private final Histogram taskStartUs = new Histogram(3);
  private final Histogram commitUs = new Histogram(3);
  private final Histogram scanUs = new Histogram(3);
  private final byte[] payload;
  private final long startNs = System.nanoTime();

  private ColumnFamily<DbLong, DbBytes> workflows;
  private ColumnFamily<DbCompositeKey<DbLong, DbLong>, DbBytes> taskRuns;
  private ColumnFamily<DbCompositeKey<DbLong, DbCompositeKey<DbLong, DbLong>>, DbBytes> timers;
  private ColumnFamily<DbLong, DbBytes> metrics;
  private StateTransaction transaction;
  private final DbLong workflowKey = new DbLong();
  private final DbCompositeKey<DbLong, DbLong> taskKey =
      new DbCompositeKey<>(new DbLong(), new DbLong());
  private final DbCompositeKey<DbLong, DbCompositeKey<DbLong, DbLong>> timerKey =
      new DbCompositeKey<>(new DbLong(), new DbCompositeKey<>(new DbLong(), new DbLong()));
  private final DbBytes read = new DbBytes();
  private long lastCommitNs = startNs;
  private long stalls;
  private long longestGapNs;
  private long timersScanned;
  private long timersDeleted;
  private long tasksCompleted;
  private long scannedUpToMs;

  StateWorkload(StateOptions options, Progress progress) {
    this.options = options;
    this.progress = progress;
    this.payload = new byte[options.payloadBytes()];
    new Random(1).nextBytes(payload);
  }

  StateResult run(String configName, StateConfig config, Path directory) throws IOException {
    long totalTasks = (long) options.workflows() * options.tasks();
    long runStartNs;
    try (StateResources resources = new StateResources(config);
        PartitionState state = new PartitionState(directory, resources)) {
      workflows = state.columnFamily(WORKFLOWS, new DbLong(), new DbBytes());
      taskRuns =
          state.columnFamily(
              TASK_RUNS, new DbCompositeKey<>(new DbLong(), new DbLong()), new DbBytes());
      timers =
          state.columnFamily(
              TIMERS,
              new DbCompositeKey<>(new DbLong(), new DbCompositeKey<>(new DbLong(), new DbLong())),
              new DbBytes());
      metrics = state.columnFamily(METRICS, new DbLong(), new DbBytes());
      transaction = state.transaction();
      runStartNs = System.nanoTime();
      lastCommitNs = runStartNs;
      for (int w = 0; w < options.workflows(); w++) {
        queue.add(new Command(START, w, 0, runStartNs));
      }
      long nextScanNs = runStartNs + TimeUnit.MILLISECONDS.toNanos(options.scanIntervalMs());
      long nextProgressNs = runStartNs + TimeUnit.SECONDS.toNanos(5);
      Command command;
      while ((command = queue.poll()) != null) {
        if (command.kind == START) {
          startTask(command);
        } else {
          completeTask(command);
        }
        long now = System.nanoTime();
        if (now >= nextScanNs) {
          punctuate();
          nextScanNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(options.scanIntervalMs());
        }
        if (now >= nextProgressNs) {
          progress.log("%s: %,d of %,d tasks completed", configName, tasksCompleted, totalTasks);
          nextProgressNs = now + TimeUnit.SECONDS.toNanos(5);
        }
      }
    }
    double totalS = (System.nanoTime() - runStartNs) / 1e9;
    return new StateResult(
        configName,
        totalS,
        totalTasks / totalS,
        taskStartUs,
        commitUs,
        scanUs,
        timersScanned,
        timersDeleted,
        stalls,
        longestGapNs / 1e6,
        directorySize(directory));
  }

  private void startTask(Command command) {
    long nowMs = System.currentTimeMillis();
    long timeoutDueMs = nowMs + options.timeoutMs();
    workflowKey.set(command.workflow);
    ByteBuffer workflow = readWorkflow();
    workflow.putInt(0, command.task).putLong(4, timeoutDueMs).put(12, (byte) 1);
    workflows.put(workflowKey, new DbBytes(workflow.array()));
    payload[0] = (byte) command.task;
    taskRuns.put(task(command.workflow, command.task), new DbBytes(payload));
    timers.put(
        timer(timeoutDueMs, command.workflow, command.task),
        new DbBytes(new byte[] {TIMER_TIMEOUT}));
    countInMetrics(nowMs, 0);
    commit();
    if (command.task > 0) {
      taskStartUs.recordValue((System.nanoTime() - command.enqueuedNs) / 1000);
    }
    queue.add(new Command(COMPLETE, command.workflow, command.task, System.nanoTime()));
  }

  private void completeTask(Command command) {
    long nowMs = System.currentTimeMillis();
    DbCompositeKey<DbLong, DbLong> run = task(command.workflow, command.task);
    byte[] taskRun = taskRuns.get(run, read) ? read.toArray() : payload.clone();
    taskRun[1] = 'D'; // done
    taskRuns.put(run, new DbBytes(taskRun));
    workflowKey.set(command.workflow);
    ByteBuffer workflow = readWorkflow();
    workflow.put(12, (byte) 2).putInt(13, workflow.getInt(13) + 1);
    workflows.put(workflowKey, new DbBytes(workflow.array()));
    countInMetrics(nowMs, 1);
    commit();
    tasksCompleted++;
    if (command.task + 1 < options.tasks()) {
      queue.add(new Command(START, command.workflow, command.task + 1, System.nanoTime()));
    }
  }

  /** Scans the timers due by now, deleting each and updating what it names during the scan. */
  private void punctuate() {
    long startNs = System.nanoTime();
    long nowMs = System.currentTimeMillis();
    long[] scanned = new long[1];
    timers.forEachFrom(
        new DbLong(scannedUpToMs),
        (key, value) -> {
          long dueMs = key.first().get();
          if (dueMs > nowMs) {
            return false;
          }
          scanned[0]++;
          long workflow = key.second().first().get();
          long task = key.second().second().get();
          timers.delete(key);
          DbCompositeKey<DbLong, DbLong> run = task(workflow, task);
          if (taskRuns.get(run, read) && read.view().getByte(1) != 'D') {
            byte[] taskRun = read.toArray();
            taskRun[1] = 'T'; // timed out
            taskRuns.put(run, new DbBytes(taskRun));
          } else {
            workflowKey.set(workflow);
            ByteBuffer state = readWorkflow();
            state.putInt(17, state.getInt(17) + 1); // timeouts that found their task done
            workflows.put(workflowKey, new DbBytes(state.array()));
          }
          return true;
        });
    commit();
    // Every timer due by now is gone; timers are only ever set in the future.
    scannedUpToMs = nowMs + 1;
    timersScanned += scanned[0];
    timersDeleted += scanned[0];
    scanUs.recordValue((System.nanoTime() - startNs) / 1000);
  }

  /** The workflow record (about 100 bytes): task, timeout due, status, counters. */
  private ByteBuffer readWorkflow() {
    if (workflows.get(workflowKey, read)) {
      return ByteBuffer.wrap(read.toArray());
    }
    return ByteBuffer.allocate(100);
  }

  private void countInMetrics(long nowMs, int which) {
    DbLong window = new DbLong(nowMs - nowMs % METRICS_WINDOW_MS);
    ByteBuffer counters =
        metrics.get(window, read) ? ByteBuffer.wrap(read.toArray()) : ByteBuffer.allocate(32);
    counters.putLong(which * 8, counters.getLong(which * 8) + 1);
    metrics.put(window, new DbBytes(counters.array()));
  }

  private void commit() {
    long before = System.nanoTime();
    transaction.commit();
    long after = System.nanoTime();
    commitUs.recordValue((after - before) / 1000);
    long gap = after - lastCommitNs;
    if (gap > STALL_NS) {
      stalls++;
    }
    longestGapNs = Math.max(longestGapNs, gap);
    lastCommitNs = after;
  }

  private DbCompositeKey<DbLong, DbLong> task(long workflow, long task) {
    taskKey.first().set(workflow);
    taskKey.second().set(task);
    return taskKey;
  }

  private DbCompositeKey<DbLong, DbCompositeKey<DbLong, DbLong>> timer(
      long dueMs, long workflow, long task) {
    timerKey.first().set(dueMs);
    timerKey.second().first().set(workflow);
    timerKey.second().second().set(task);
    return timerKey;
  }

  private static long directorySize(Path directory) throws IOException {
    try (Stream<Path> files = Files.walk(directory)) {
      return files
          .filter(Files::isRegularFile)
          .mapToLong(
              file -> {
                try {
                  return Files.size(file);
                } catch (IOException e) {
                  return 0;
                }
              })
          .sum();
    }
  }
}

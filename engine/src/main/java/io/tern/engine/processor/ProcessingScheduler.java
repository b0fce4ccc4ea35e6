package io.tern.engine.processor;

import io.tern.engine.protocol.Intent;
import io.tern.engine.record.RecordValue;
import java.util.PriorityQueue;

/**
 * Work due at a time (timers, job deadlines), run on the processor thread between commands while
 * this member processes as leader; the thread sleeps until the earliest due time instead of
 * polling. A task reads state and appends commands, which are written to the log and processed like
 * any other. Tasks are dropped when leadership ends: processors schedule again from their state in
 * {@link RecordProcessors.ProcessingListener#onProcessingStarted}.
 */
public final class ProcessingScheduler {
  /** Appends commands from a scheduled task. */
  public interface TaskCommands {
    void appendCommand(long key, Intent intent, RecordValue value);
  }

  @FunctionalInterface
  public interface Task {
    void run(TaskCommands commands);
  }

  /** A scheduled task that can be called off. */
  public static final class Scheduled implements Comparable<Scheduled> {
    private final long dueAtMs;
    private final long sequence;
    private final Task task;
    private boolean cancelled;

    private Scheduled(long dueAtMs, long sequence, Task task) {
      this.dueAtMs = dueAtMs;
      this.sequence = sequence;
      this.task = task;
    }

    public void cancel() {
      cancelled = true;
    }

    public long dueAtMs() {
      return dueAtMs;
    }

    @Override
    public int compareTo(Scheduled other) {
      int byTime = Long.compare(dueAtMs, other.dueAtMs);
      return byTime != 0 ? byTime : Long.compare(sequence, other.sequence);
    }
  }

  /** No task is due. */
  public static final long NONE_DUE = Long.MAX_VALUE;

  private final PriorityQueue<Scheduled> queue = new PriorityQueue<>();
  private final java.util.function.LongSupplier clockMs;
  private long sequence;

  ProcessingScheduler(java.util.function.LongSupplier clockMs) {
    this.clockMs = clockMs;
  }

  /** Runs {@code task} at {@code dueAtMs} (epoch milliseconds) or as soon after as possible. */
  public Scheduled runAt(long dueAtMs, Task task) {
    Scheduled scheduled = new Scheduled(dueAtMs, sequence++, task);
    queue.add(scheduled);
    return scheduled;
  }

  public Scheduled runDelayed(long delayMs, Task task) {
    return runAt(clockMs.getAsLong() + delayMs, task);
  }

  /** When the earliest task is due, or {@link #NONE_DUE}. */
  long nextDueAtMs() {
    Scheduled head;
    while ((head = queue.peek()) != null && head.cancelled) {
      queue.poll();
    }
    return head == null ? NONE_DUE : head.dueAtMs;
  }

  /** Takes the next task due at {@code nowMs}, or null. */
  Task pollDue(long nowMs) {
    if (nextDueAtMs() > nowMs) {
      return null;
    }
    return queue.poll().task;
  }

  void clear() {
    queue.clear();
  }

  int size() {
    return queue.size();
  }
}

package io.tern.engine.processor;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A stream processor's thread and how other threads reach it: tasks queued for it to run between
 * two steps of its loop, and waking it when it parks for lack of work. A wake-up is never lost: the
 * thread says it is going to sleep before it looks for news a last time.
 */
final class ProcessorThread {
  private static final long JOIN_TIMEOUT_MS = TimeUnit.SECONDS.toMillis(10);

  private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
  private final Thread thread;
  private volatile boolean sleeping;

  ProcessorThread(String name, Runnable loop) {
    this.thread = new Thread(loop, name);
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Runs {@code task} on the thread, soon (any thread). */
  void signal(Runnable task) {
    tasks.add(task);
    wake();
  }

  /** Wakes the thread if it parks (any thread). */
  void wake() {
    if (sleeping) {
      LockSupport.unpark(thread);
    }
  }

  /** Runs the queued tasks (the thread itself); returns how many ran. */
  int runTasks() {
    int count = 0;
    Runnable task;
    while ((task = tasks.poll()) != null) {
      task.run();
      count++;
    }
    return count;
  }

  /**
   * Parks the thread (the thread itself) for at most {@code parkNs}, unless a task is queued or
   * {@code hasWork} says there is work; both are checked after the thread announced its sleep, so
   * news that came since its last look is not slept through.
   */
  void park(long parkNs, BooleanSupplier hasWork) {
    sleeping = true;
    if (tasks.isEmpty() && !hasWork.getAsBoolean()) {
      LockSupport.parkNanos(this, parkNs);
    }
    sleeping = false;
  }

  /**
   * Wakes the thread to see that it should stop, and waits a while for it to end. Returns false if
   * it was not running at all.
   */
  boolean stop() {
    LockSupport.unpark(thread);
    if (!thread.isAlive()) {
      return false;
    }
    try {
      thread.join(JOIN_TIMEOUT_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return true;
  }
}

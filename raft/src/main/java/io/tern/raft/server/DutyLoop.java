package io.tern.raft.server;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread that gives several {@link Duty duties} their turns: the Raft groups of many
 * partitions, or the flushes of their journals. A broker runs a few of these instead of a thread
 * per partition, which on a small machine with tens of partitions spent most of the CPU switching
 * between threads that each had one entry's worth of work (measured: 158,000 context switches/s and
 * both cores busy at 10,000 entries/s over 10 partitions).
 *
 * <p>Each pass gives every duty one turn, then parks until the earliest deadline any duty asked
 * for, or until {@link #wake()}. Before parking it announces that it sleeps and asks every duty
 * again whether work arrived, so a wake-up that raced with the pass is never lost.
 *
 * <p>Duties are added and removed through queues drained by the loop itself at the start of a pass,
 * so the loop's list is confined to its thread and a removed duty is guaranteed not to run again
 * once its removal future completes. A duty that throws is dropped alone; the others go on.
 */
final class DutyLoop implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DutyLoop.class);

  /** Longest park even when no duty asked for a deadline: a safety net, not a heartbeat. */
  static final long MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(50);

  /** Work that a {@link DutyLoop} runs in turns. Every method is called on the loop's thread. */
  interface Duty {
    long NO_DEADLINE = Long.MAX_VALUE;

    /**
     * Does what is due or arrived.
     *
     * @return how much work was done; 0 lets the loop park
     */
    int doWork(long nowNs);

    /**
     * The latest time at which {@link #doWork} must run again even if nobody wakes the loop, or
     * {@link #NO_DEADLINE}.
     */
    long deadlineNs();

    /** Whether work arrived that the next {@link #doWork} would pick up. */
    boolean hasPendingWork();

    /** The duty threw and was dropped. */
    void onFailure(Throwable failure);

    /** The duty will not run again (after removal or failure); last chance to clean up. */
    void onRemoved();
  }

  private record Change(Duty duty, boolean add, CompletableFuture<Void> done) {}

  private final String name;
  private final long maxParkNs;
  private final Thread thread;
  private final ConcurrentLinkedQueue<Change> changes = new ConcurrentLinkedQueue<>();
  private Duty[] duties = new Duty[0]; // loop thread only
  private final AtomicInteger dutyCount = new AtomicInteger();
  private volatile boolean running = true;
  private volatile boolean sleeping;

  DutyLoop(String name) {
    this(name, MAX_PARK_NS);
  }

  /** With a longer {@code maxParkNs}, tests prove that wake-ups and deadlines alone drive it. */
  DutyLoop(String name, long maxParkNs) {
    this.name = name;
    this.maxParkNs = maxParkNs;
    this.thread = new Thread(this::run, name);
    thread.setDaemon(true);
    thread.start();
  }

  /** Starts giving {@code duty} turns. */
  void add(Duty duty) {
    dutyCount.incrementAndGet();
    changes.add(new Change(duty, true, null));
    wake();
  }

  /**
   * Stops giving {@code duty} turns. The future completes once the loop will never run it again (at
   * once, if called from a turn of this loop: the loop drops it before its next turn).
   */
  CompletableFuture<Void> remove(Duty duty) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    changes.add(new Change(duty, false, done));
    if (Thread.currentThread() == thread || !thread.isAlive()) {
      if (!thread.isAlive()) {
        applyChanges(); // the loop is gone; nobody else runs the duty
      }
      done.complete(null);
    }
    wake();
    return done;
  }

  /** How many duties this loop runs, counting additions not yet applied (for balancing). */
  int dutyCount() {
    return dutyCount.get();
  }

  /** Makes a parked loop take a pass. Cheap when it is awake. */
  void wake() {
    if (sleeping) {
      LockSupport.unpark(thread);
    }
  }

  boolean isLoopThread() {
    return Thread.currentThread() == thread;
  }

  private void run() {
    while (running) {
      applyChanges();
      Duty[] current = duties;
      int work = 0;
      long deadlineNs = System.nanoTime() + maxParkNs;
      for (Duty duty : current) {
        try {
          work += duty.doWork(System.nanoTime());
          long dutyDeadlineNs = duty.deadlineNs();
          if (dutyDeadlineNs != Duty.NO_DEADLINE && dutyDeadlineNs - deadlineNs < 0) {
            deadlineNs = dutyDeadlineNs;
          }
        } catch (RuntimeException | Error e) {
          fail(duty, e);
        }
      }
      if (work == 0) {
        park(current, deadlineNs);
      }
    }
    applyChanges();
  }

  private void park(Duty[] current, long deadlineNs) {
    sleeping = true;
    if (changes.isEmpty() && running && !anyPending(current)) {
      LockSupport.parkNanos(this, Math.max(1, deadlineNs - System.nanoTime()));
    }
    sleeping = false;
  }

  private boolean anyPending(Duty[] current) {
    for (Duty duty : current) {
      if (duty.hasPendingWork()) {
        return true;
      }
    }
    return false;
  }

  private void fail(Duty duty, Throwable failure) {
    try {
      duty.onFailure(failure);
    } catch (RuntimeException | Error e) {
      failure.addSuppressed(e);
      LOG.error("{}: a failed duty could not record its failure", name, failure);
    }
    drop(duty);
  }

  private synchronized void applyChanges() {
    Change change;
    while ((change = changes.poll()) != null) {
      if (change.add()) {
        duties = Arrays.copyOf(duties, duties.length + 1);
        duties[duties.length - 1] = change.duty();
      } else {
        drop(change.duty());
      }
      if (change.done() != null) {
        change.done().complete(null);
      }
    }
  }

  private void drop(Duty duty) {
    int at = Arrays.asList(duties).indexOf(duty);
    if (at < 0) {
      return;
    }
    Duty[] remaining = new Duty[duties.length - 1];
    System.arraycopy(duties, 0, remaining, 0, at);
    System.arraycopy(duties, at + 1, remaining, at, duties.length - at - 1);
    duties = remaining;
    dutyCount.decrementAndGet();
    try {
      duty.onRemoved();
    } catch (RuntimeException | Error e) {
      LOG.warn("{}: cleaning up a removed duty failed", name, e);
    }
  }

  /** Stops the thread once its current pass ends; duties still present are dropped. */
  @Override
  public void close() {
    running = false;
    LockSupport.unpark(thread);
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      LOG.warn("{}: still busy 10 s after close; its duties are left to it", name);
      return;
    }
    applyChanges();
    for (Duty duty : duties.clone()) {
      drop(duty);
    }
  }

  @Override
  public String toString() {
    return name;
  }
}

package io.tern.raft.server;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives several {@link Duty duties} their turns on one thread: the Raft groups of many partitions,
 * or the flushes of their journals. A broker runs a few of these instead of a thread per partition,
 * which on a small machine with tens of partitions spent most of the CPU switching between threads
 * that each had one entry's worth of work.
 *
 * <p>A pass gives every duty one turn. Where the passes run is up to the subclass: a thread of the
 * loop's own ({@link ThreadDutyLoop}) or the transport's event loop ({@link EventLoopDutyLoop}),
 * where messages reach the Raft groups and leave them without waking another thread.
 *
 * <p>Duties are added and removed through queues drained by the loop itself at the start of a pass,
 * so the loop's list is confined to its thread and a removed duty is guaranteed not to run again
 * once its removal future completes. A duty that throws is dropped alone; the others go on.
 */
abstract class DutyLoop implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DutyLoop.class);

  /** Longest wait even when no duty asked for a deadline: a safety net, not a heartbeat. */
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

  final String name;
  private final long maxParkNs;
  private final ConcurrentLinkedQueue<Change> changes = new ConcurrentLinkedQueue<>();
  private Duty[] duties = new Duty[0]; // loop thread only
  private final AtomicInteger dutyCount = new AtomicInteger();
  private long passDeadlineNs; // loop thread only

  DutyLoop(String name, long maxParkNs) {
    this.name = name;
    this.maxParkNs = maxParkNs;
  }

  /** Makes an idle loop take a pass soon. Cheap when a pass is already coming. */
  abstract void wake();

  /** Whether the caller runs on the thread that runs the passes. */
  abstract boolean isLoopThread();

  /** Whether passes may still run; once false, changes are applied by the caller. */
  abstract boolean isAlive();

  /** Starts giving {@code duty} turns. */
  final void add(Duty duty) {
    dutyCount.incrementAndGet();
    changes.add(new Change(duty, true, null));
    wake();
  }

  /**
   * Stops giving {@code duty} turns. The future completes once the loop will never run it again (at
   * once, if called from a turn of this loop: the loop drops it before its next turn).
   */
  final CompletableFuture<Void> remove(Duty duty) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    changes.add(new Change(duty, false, done));
    if (isLoopThread() || !isAlive()) {
      if (!isAlive()) {
        applyChanges(); // the loop is gone; nobody else runs the duty
      }
      done.complete(null);
    }
    wake();
    return done;
  }

  /** How many duties this loop runs, counting additions not yet applied (for balancing). */
  final int dutyCount() {
    return dutyCount.get();
  }

  /**
   * Gives every duty one turn, on the loop's thread.
   *
   * @return the work done; when 0, the loop may idle until {@link #passDeadlineNs()}
   */
  final int pass() {
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
    passDeadlineNs = deadlineNs;
    return work;
  }

  /** The earliest deadline the last {@link #pass()} was asked for (capped by the safety net). */
  final long passDeadlineNs() {
    return passDeadlineNs;
  }

  /**
   * Whether a change or a duty's work arrived; asked after announcing idleness, so that a wake-up
   * that raced with the pass is never lost.
   */
  final boolean workWaiting() {
    if (!changes.isEmpty()) {
      return true;
    }
    for (Duty duty : duties) {
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

  final synchronized void applyChanges() {
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

  /** Drops every duty (once no pass runs any more, or from the loop's thread). */
  final synchronized void dropAll() {
    applyChanges();
    for (Duty duty : duties.clone()) {
      drop(duty);
    }
  }

  /** Stops the passes; duties still present are dropped. */
  @Override
  public abstract void close();

  @Override
  public String toString() {
    return name;
  }
}

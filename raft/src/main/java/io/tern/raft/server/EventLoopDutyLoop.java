package io.tern.raft.server;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link DutyLoop} whose passes are tasks on a Netty event loop: the transport's, so that a Raft
 * group's inbound messages are stepped, and its outbound ones written, by the thread that reads and
 * writes the sockets. Each hand-off between a transport thread and a Raft thread cost a wake-up (a
 * futex or eventfd write, a context switch and, on a VM, often an inter-processor interrupt); an
 * entry crossed about a dozen of them on its way to commit.
 *
 * <p>A wake-up queues one pass (a flag keeps it to one). A pass that found work queues the next
 * behind the event loop's I/O, so reads and writes interleave with the Raft turns; an idle pass
 * clears the flag, asks every duty again whether work arrived (a wake-up that raced with the pass
 * is never lost) and sets a timer for the earliest deadline.
 *
 * <p>Everything a duty does blocks the event loop, sockets included: the Raft turn must stay short
 * (journal appends go to the page cache; flushes run on the flush threads).
 */
final class EventLoopDutyLoop extends DutyLoop {
  private static final Logger LOG = LoggerFactory.getLogger(EventLoopDutyLoop.class);

  private final EventExecutor executor;
  private final AtomicBoolean passQueued = new AtomicBoolean();
  private final Runnable passTask = this::runPass;
  private final Runnable timerTask = this::onTimer;
  private volatile boolean closed;
  private volatile boolean drained;

  // Event loop only.
  private ScheduledFuture<?> timer;
  private long timerDeadlineNs;

  EventLoopDutyLoop(String name, EventExecutor executor) {
    this(name, executor, MAX_PARK_NS);
  }

  /** With a longer {@code maxParkNs}, tests prove that wake-ups and deadlines alone drive it. */
  EventLoopDutyLoop(String name, EventExecutor executor, long maxParkNs) {
    super(name, maxParkNs);
    this.executor = executor;
  }

  @Override
  void wake() {
    if (!passQueued.get() && passQueued.compareAndSet(false, true)) {
      submit(passTask);
    }
  }

  @Override
  boolean isLoopThread() {
    return executor.inEventLoop();
  }

  @Override
  boolean isAlive() {
    return !drained && !executor.isTerminated();
  }

  private void runPass() {
    if (closed) {
      return;
    }
    if (pass() > 0) {
      submit(passTask); // still queued: the next pass comes after the I/O waiting behind this one
      return;
    }
    passQueued.set(false);
    if (workWaiting()) {
      wake();
    } else {
      armTimer(passDeadlineNs());
    }
  }

  private void armTimer(long deadlineNs) {
    if (timer != null) {
      if (timerDeadlineNs == deadlineNs) {
        return;
      }
      timer.cancel(false);
    }
    timerDeadlineNs = deadlineNs;
    long delayNs = Math.max(0, deadlineNs - System.nanoTime());
    try {
      timer = executor.schedule(timerTask, delayNs, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      timer = null; // the transport shuts down; close() drops the duties
    }
  }

  private void onTimer() {
    timer = null;
    wake();
  }

  private void submit(Runnable task) {
    try {
      executor.execute(task);
    } catch (RejectedExecutionException e) {
      // The transport shuts down; close() drops the duties.
    }
  }

  /** Stops the passes and drops the duties, on the event loop when it still runs. */
  @Override
  public void close() {
    closed = true;
    if (executor.inEventLoop()) {
      dropAll();
      drained = true;
      return;
    }
    CompletableFuture<Void> dropped = new CompletableFuture<>();
    try {
      executor.execute(
          () -> {
            dropAll();
            drained = true;
            dropped.complete(null);
          });
    } catch (RejectedExecutionException e) {
      dropAll(); // the event loop is gone; nobody else runs the duties
      drained = true;
      return;
    }
    if (!CloseWaits.await(dropped, CloseWaits.CLOSE_WAIT_NS)) {
      LOG.warn("{}: the event loop did not drop its duties within 10 s of close", name);
    }
  }
}

package io.tern.raft.server;

import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link DutyLoop} on a thread of its own: it takes passes while they find work, then parks until
 * the earliest deadline any duty asked for, or until {@link #wake()}. Before parking it announces
 * that it sleeps and asks every duty again whether work arrived, so a wake-up that raced with the
 * pass is never lost.
 */
final class ThreadDutyLoop extends DutyLoop {
  private static final Logger LOG = LoggerFactory.getLogger(ThreadDutyLoop.class);

  private final Thread thread;
  private volatile boolean running = true;
  private volatile boolean sleeping;

  ThreadDutyLoop(String name) {
    this(name, MAX_PARK_NS);
  }

  /** With a longer {@code maxParkNs}, tests prove that wake-ups and deadlines alone drive it. */
  ThreadDutyLoop(String name, long maxParkNs) {
    super(name, maxParkNs);
    this.thread = new Thread(this::run, name);
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  void wake() {
    if (sleeping) {
      LockSupport.unpark(thread);
    }
  }

  @Override
  boolean isLoopThread() {
    return Thread.currentThread() == thread;
  }

  @Override
  boolean isAlive() {
    return thread.isAlive();
  }

  private void run() {
    while (running) {
      if (pass() == 0) {
        park(passDeadlineNs());
      }
    }
    applyChanges();
  }

  private void park(long deadlineNs) {
    sleeping = true;
    if (running && !workWaiting()) {
      LockSupport.parkNanos(this, Math.max(1, deadlineNs - System.nanoTime()));
    }
    sleeping = false;
  }

  @Override
  public void close() {
    running = false;
    LockSupport.unpark(thread);
    if (!CloseWaits.join(thread, CloseWaits.CLOSE_WAIT_NS)) {
      LOG.warn("{}: still busy 10 s after close; its duties are left to it", name);
      return;
    }
    dropAll();
  }
}

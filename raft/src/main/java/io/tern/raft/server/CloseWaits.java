package io.tern.raft.server;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits that closing depends on, and that an interrupt must not cut short: a partition whose Raft
 * turn or flush is still running must not have its storage closed under it, so the closing thread
 * sets its interrupt flag aside, waits out the bound, and sets the flag again before returning.
 */
final class CloseWaits {
  /** How long a close waits for a turn, a flush or a thread to finish before giving up on it. */
  static final long CLOSE_WAIT_NS = TimeUnit.SECONDS.toNanos(10);

  private CloseWaits() {}

  /**
   * Returns true once {@code future} is done (normally, exceptionally or cancelled), false if it
   * was not done within {@code timeoutNs}.
   */
  static boolean await(Future<?> future, long timeoutNs) {
    long deadlineNs = System.nanoTime() + timeoutNs;
    boolean interrupted = false;
    try {
      while (true) {
        try {
          future.get(Math.max(0, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
          return true;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException | CancellationException e) {
          return true; // done, if not normally
        } catch (TimeoutException e) {
          return false;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** Returns true once {@code thread} has ended, false if it still ran after {@code timeoutNs}. */
  static boolean join(Thread thread, long timeoutNs) {
    long deadlineNs = System.nanoTime() + timeoutNs;
    boolean interrupted = false;
    try {
      while (thread.isAlive()) {
        long leftNs = deadlineNs - System.nanoTime();
        if (leftNs <= 0) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedJoin(thread, leftNs);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      return true;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}

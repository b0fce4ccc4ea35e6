package io.tern.raft.server;

import io.tern.journal.Journal;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flushes one partition's journal on its own thread, so that the Raft thread keeps receiving,
 * appending and sending while a flush runs. Requests coalesce: one flush covers everything appended
 * so far (group commit), and a request already covered by the last flush is skipped. With a delay,
 * flushes start at most once per delay.
 *
 * <p>Completion is not passed as a value: the Raft thread reads {@link
 * Journal#getLastFlushedIndex()} itself, which the journal lowers under its flush lock when it
 * truncates, so a flush that raced with a truncation can never vouch for the new entries.
 */
final class Flusher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Flusher.class);
  private static final long IDLE_PARK_NS = TimeUnit.MILLISECONDS.toNanos(50);

  private final Journal journal;
  private final long delayNs;
  private final Runnable onFlushed;
  private final Thread thread;
  private volatile long requestedIndex;
  private volatile boolean running = true;
  private volatile Throwable failure;
  private long lastFlushStartNs;

  Flusher(String name, Journal journal, long delayMs, Runnable onFlushed) {
    this.journal = journal;
    this.delayNs = TimeUnit.MILLISECONDS.toNanos(delayMs);
    this.onFlushed = onFlushed;
    this.lastFlushStartNs = System.nanoTime() - delayNs;
    this.thread = new Thread(this::run, name);
    thread.setDaemon(true);
    thread.start();
  }

  /** Asks for everything up to {@code index} to be flushed. Called by the Raft thread only. */
  void request(long index) {
    if (index > requestedIndex) {
      requestedIndex = index;
      LockSupport.unpark(thread);
    }
  }

  /** Why flushing stopped, or null; the partition cannot go on without its flusher. */
  Throwable failure() {
    return failure;
  }

  private void run() {
    while (running) {
      long target = Math.min(requestedIndex, journal.getLastIndex());
      if (target <= journal.getLastFlushedIndex()) {
        LockSupport.parkNanos(this, IDLE_PARK_NS); // covered already (or truncated away)
        continue;
      }
      long waitNs = lastFlushStartNs + delayNs - System.nanoTime();
      if (waitNs > 0) {
        LockSupport.parkNanos(this, waitNs);
        continue;
      }
      lastFlushStartNs = System.nanoTime();
      try {
        journal.flush();
      } catch (RuntimeException | Error e) {
        if (running) {
          LOG.error("Flushing the Raft journal failed; the partition stops", e);
          failure = e;
          onFlushed.run();
        }
        return;
      }
      onFlushed.run();
    }
  }

  @Override
  public void close() {
    running = false;
    LockSupport.unpark(thread);
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package io.tern.raft.server;

import io.tern.journal.Journal;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Flushes one partition's journal on one of the broker's flush threads (a {@link DutyLoop}), so
 * that the Raft thread keeps receiving, appending and sending while a flush runs. Requests
 * coalesce: one flush covers everything appended so far (group commit), and a request already
 * covered by the last flush is skipped. With a delay, flushes start at most once per delay.
 *
 * <p>Completion is not passed as a value: the Raft thread reads {@link
 * Journal#getLastFlushedIndex()} itself, which the journal lowers under its flush lock when it
 * truncates, so a flush that raced with a truncation can never vouch for the new entries.
 */
final class Flusher implements DutyLoop.Duty, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Flusher.class);

  private final Journal journal;
  private final long delayNs;
  private final Runnable onFlushed;
  private final DutyLoop loop;
  private volatile long requestedIndex;
  private long lastRequest; // Raft thread only
  private volatile long flushedByLoop; // the journal's flushed index after the loop's last flush
  private volatile Throwable failure;
  private long lastFlushStartNs; // loop thread only

  Flusher(DutyLoop loop, Journal journal, long delayMs, Runnable onFlushed) {
    this.loop = loop;
    this.journal = journal;
    this.delayNs = TimeUnit.MILLISECONDS.toNanos(delayMs);
    this.onFlushed = onFlushed;
    this.lastFlushStartNs = System.nanoTime() - delayNs;
    loop.add(this);
  }

  /**
   * Asks for everything up to {@code index} to be flushed. Called by the Raft thread only. After a
   * truncation the new entries may lie below an earlier request; they still need a wake-up, or the
   * loop would find them only at its safety-net pass ({@link DutyLoop#MAX_PARK_NS}).
   */
  void request(long index) {
    long previous = lastRequest;
    lastRequest = index;
    if (index > requestedIndex) {
      requestedIndex = index;
    } else if (index <= journal.getLastFlushedIndex()) {
      return; // a flush covers it
    } else if (index == previous && index > flushedByLoop) {
      // Raft repeats its request every round until the flush lands (in delayed mode for a whole
      // delay): the loop knows of it and has not flushed that far yet. Had it (and then a
      // truncation replaced those entries, lowering the journal's flushed index), it may have
      // parked with nothing to do: the same index now names new entries, so it must hear of them.
      return;
    }
    loop.wake();
  }

  /** Why flushing stopped, or null; the partition cannot go on without its flusher. */
  Throwable failure() {
    return failure;
  }

  private boolean behind() {
    return Math.min(requestedIndex, journal.getLastIndex()) > journal.getLastFlushedIndex();
  }

  @Override
  public int doWork(long nowNs) {
    if (!behind() || nowNs - (lastFlushStartNs + delayNs) < 0) {
      return 0; // covered already (or truncated away), or not due yet
    }
    lastFlushStartNs = nowNs;
    journal.flush();
    flushedByLoop = journal.getLastFlushedIndex();
    onFlushed.run();
    return 1;
  }

  @Override
  public long deadlineNs() {
    // Only a delayed flush needs a timer; a request wakes the loop.
    return behind() ? lastFlushStartNs + delayNs : NO_DEADLINE;
  }

  @Override
  public boolean hasPendingWork() {
    return behind() && System.nanoTime() - (lastFlushStartNs + delayNs) >= 0;
  }

  @Override
  public void onFailure(Throwable cause) {
    LOG.error("Flushing the Raft journal failed; the partition stops", cause);
    failure = cause;
    onFlushed.run();
  }

  @Override
  public void onRemoved() {}

  /** Stops flushing; returns once no flush of this journal runs any more. */
  @Override
  public void close() {
    CompletableFuture<Void> removed = loop.remove(this);
    if (!CloseWaits.await(removed, CloseWaits.CLOSE_WAIT_NS)) {
      LOG.warn("A flush of the Raft journal did not finish within 10 s of closing");
    }
  }
}

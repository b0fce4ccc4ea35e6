package io.tern.benchmark.common;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * A background thread that flushes every {@code periodNs}, measured from the start of the previous
 * flush; when a flush takes longer than the period the next one starts at once. This is the group
 * commit the journal's threading model is built for ({@code flush()} from one other thread while
 * the writer appends), and the same thread drives the raw baseline's {@code force}.
 */
public final class PeriodicFlusher {

  /** One flush: {@code Journal.flush()} or {@code FileChannel.force(false)}. */
  public interface FlushAction {
    /** Returns false when there was nothing new to flush, so nothing was done. */
    boolean flush() throws IOException;
  }

  private final FlushAction action;
  private final long periodNs;
  private final Histogram latencyNs = LatencySummary.newHistogram();
  private long idleCalls;
  private final Thread thread;
  private volatile boolean running = true;
  private Throwable failure;

  public PeriodicFlusher(String name, long periodNs, FlushAction action) {
    this.action = action;
    this.periodNs = periodNs;
    this.thread = new Thread(this::loop, name);
    this.thread.setDaemon(true);
  }

  public void start() {
    thread.start();
  }

  private void loop() {
    try {
      while (running) {
        long startNs = System.nanoTime();
        boolean flushed = action.flush();
        long endNs = System.nanoTime();
        // A call that found nothing new returns in a microsecond; counting it as a flush would
        // hide the real ones. It means the writer appended nothing for a whole period.
        if (flushed) {
          LatencySummary.record(latencyNs, endNs - startNs);
        } else {
          idleCalls++;
        }
        long waitNs = startNs + periodNs - endNs;
        if (waitNs > 0) {
          LockSupport.parkNanos(waitNs);
        }
      }
    } catch (Throwable e) {
      failure = e;
    }
  }

  /** Stops after the flush under way; the histogram is complete when this returns. */
  public void stop() throws InterruptedException {
    running = false;
    thread.join();
    if (failure != null) {
      throw new IllegalStateException("Background flush failed", failure);
    }
  }

  /** Adds a flush made by the caller (the final one after the writer stopped). */
  public void recordFinalFlush(long latencyNs) {
    LatencySummary.record(this.latencyNs, latencyNs);
  }

  /** Call after {@link #stop()}: join() makes the flusher thread's writes visible. */
  public Histogram latencyNs() {
    return latencyNs;
  }

  /** Calls that found nothing to flush; call after {@link #stop()}. */
  public long idleCalls() {
    return idleCalls;
  }
}

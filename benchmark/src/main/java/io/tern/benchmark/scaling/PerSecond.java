package io.tern.benchmark.scaling;

import io.tern.benchmark.common.Progress;
import io.tern.benchmark.load.LoadStats;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;

/**
 * Instances completed each second of a run, sampled on a thread of its own at whole seconds from
 * its start, with a progress line per second labelled by what the run was doing then.
 */
final class PerSecond implements AutoCloseable {
  /** One second: its end ({@link System#nanoTime}) and what ended, was refused and failed in it. */
  record Second(long endNs, long ended, long refused, long failed) {
    long startNs() {
      return endNs - 1_000_000_000L;
    }
  }

  private final LoadStats stats;
  private final Progress progress;
  private final LongFunction<String> phase;
  private final List<Second> seconds = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * @param phase what the run does at a time, for the progress line
   */
  PerSecond(LoadStats stats, Progress progress, LongFunction<String> phase) {
    this.stats = stats;
    this.progress = progress;
    this.phase = phase;
    this.thread = new Thread(this::sample, "per-second");
    thread.setDaemon(true);
    thread.start();
  }

  private void sample() {
    long startNs = System.nanoTime();
    long[] last = counts();
    for (long i = 1; running; i++) {
      long dueNs = startNs + i * 1_000_000_000L;
      while (running && System.nanoTime() < dueNs) {
        LockSupport.parkNanos(dueNs - System.nanoTime());
      }
      if (!running) {
        return;
      }
      long[] now = counts();
      Second second =
          new Second(System.nanoTime(), now[0] - last[0], now[1] - last[1], now[2] - last[2]);
      last = now;
      synchronized (seconds) {
        seconds.add(second);
      }
      progress.log(
          "%-7s %5d PI/s%s%s",
          phase.apply(second.endNs()),
          second.ended(),
          second.refused() == 0 ? "" : ", " + second.refused() + " refused",
          second.failed() == 0 ? "" : ", " + second.failed() + " failed");
    }
  }

  private long[] counts() {
    return new long[] {stats.endedSoFar(), stats.refusedSoFar(), stats.failedSoFar()};
  }

  /** The seconds sampled so far. */
  List<Second> seconds() {
    synchronized (seconds) {
      return List.copyOf(seconds);
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    LockSupport.unpark(thread);
    thread.join();
  }
}

package io.tern.benchmark.machine;

import io.tern.benchmark.common.Experiments;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Notices when this process could not run: a daemon thread sleeps {@link #TICK_NS} at a time and
 * records every wake-up that comes {@link #STALL_THRESHOLD_NS} or more after it was due, as the
 * interval during which it should have run and did not.
 *
 * <p>Why a benchmark needs this: a virtual machine whose host enforces a CPU quota (a Kubernetes
 * CPU limit, a Firecracker VM with its I/O emulation counted in its budget) is frozen for the rest
 * of a quota period (100 ms by default) once it used its share, and every latency in flight then
 * grows by the freeze. Nothing in the guest runs during a freeze, so the commit latencies measured
 * here include it, while a lighter floor measurement may not trip the quota at all. Knowing when
 * the machine stalled lets the report say how much of a tail is the machine's.
 *
 * <p>The threshold keeps ordinary scheduling delays out: with every core kept busy by other
 * threads, a waking sleeper still runs well within it, while a quota freeze lasts longer. A late
 * wake-up past the threshold is therefore either a freeze or a run queue deeper than the cores can
 * serve; the watch cannot tell which, and the report says so.
 */
public final class StallWatch implements AutoCloseable {
  /** How long the watching thread sleeps between checks. */
  public static final long TICK_NS = TimeUnit.MILLISECONDS.toNanos(2);

  /** A wake-up at least this late counts as a stall. */
  public static final long STALL_THRESHOLD_NS = TimeUnit.MILLISECONDS.toNanos(5);

  /** {@code -Dtern.benchmark.stallWatch=false} turns the watch off (to measure what it costs). */
  public static final String ENABLED_PROPERTY = "tern.benchmark.stallWatch";

  /** Stalls kept; later ones are still counted and summed, but not kept for overlap checks. */
  static final int MAX_STALLS_KEPT = 100_000;

  /** Sleeps about the given nanoseconds (a seam for tests, which move a fake clock instead). */
  interface Sleeper {
    void sleep(long ns);
  }

  private final LongSupplier clockNs;
  private final Sleeper sleeper;
  private final Thread thread;
  private final long[] starts = new long[MAX_STALLS_KEPT];
  private final long[] ends = new long[MAX_STALLS_KEPT];
  private volatile boolean running = true;
  private volatile long ticks; // written by the watching thread only
  private long lastWakeNs; // the watching thread only
  private int kept;
  private long count;
  private long totalNs;
  private long longestNs;

  private StallWatch(LongSupplier clockNs, Sleeper sleeper) {
    this.clockNs = clockNs;
    this.sleeper = sleeper;
    this.thread = new Thread(this::watch, "stall-watch");
    thread.setDaemon(true);
    this.lastWakeNs = clockNs.getAsLong();
  }

  /** Whether benchmarks should watch for stalls ({@link #ENABLED_PROPERTY}, default true). */
  public static boolean enabled() {
    return Experiments.flag(ENABLED_PROPERTY, true);
  }

  /** Starts watching on its own daemon thread. */
  public static StallWatch start() {
    StallWatch watch = new StallWatch(System::nanoTime, LockSupport::parkNanos);
    watch.thread.start();
    return watch;
  }

  /** For tests: a watch that checks only when {@link #checkOnce()} is called. */
  static StallWatch manual(LongSupplier clockNs, Sleeper sleeper) {
    return new StallWatch(clockNs, sleeper);
  }

  private void watch() {
    lastWakeNs = clockNs.getAsLong(); // the thread may start a while after the watch was made
    while (running) {
      checkOnce();
      ticks++;
    }
  }

  /** How many ticks the watching thread has checked (tests wait for it to be ticking). */
  long ticks() {
    return ticks;
  }

  /**
   * Sleeps one tick and records a stall if the wake-up came late. Lateness counts from the last
   * wake-up, not from the start of this sleep, so a stall between two sleeps is not missed.
   */
  void checkOnce() {
    sleeper.sleep(TICK_NS);
    long wakeNs = clockNs.getAsLong();
    long dueNs = lastWakeNs + TICK_NS;
    if (wakeNs - dueNs >= STALL_THRESHOLD_NS) {
      record(dueNs, wakeNs);
    }
    lastWakeNs = wakeNs;
  }

  private synchronized void record(long fromNs, long toNs) {
    count++;
    totalNs += toNs - fromNs;
    longestNs = Math.max(longestNs, toNs - fromNs);
    if (kept < MAX_STALLS_KEPT) {
      starts[kept] = fromNs;
      ends[kept] = toNs;
      kept++;
    }
  }

  /** Whether the watching thread still runs (tests check that stop ends it). */
  boolean threadAlive() {
    return thread.isAlive();
  }

  /** Stops the thread and returns what it saw. */
  public Stalls stop() {
    running = false;
    if (thread.isAlive()) {
      try {
        thread.join(TimeUnit.SECONDS.toMillis(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return snapshot();
  }

  synchronized Stalls snapshot() {
    return new Stalls(
        Arrays.copyOf(starts, kept), Arrays.copyOf(ends, kept), count, totalNs, longestNs);
  }

  @Override
  public void close() {
    stop();
  }

  /**
   * The stalls seen, oldest first. {@code starts} and {@code ends} hold the first {@link
   * #MAX_STALLS_KEPT}; {@code count}, {@code totalNs} and {@code longestNs} cover all of them.
   */
  public record Stalls(long[] starts, long[] ends, long count, long totalNs, long longestNs) {
    public static final Stalls NONE = new Stalls(new long[0], new long[0], 0, 0, 0);

    /**
     * The stalls that end at or after {@code fromNs}: what a measurement that started then saw.
     * Exact while every stall was kept; otherwise all of them, which may count a few early ones.
     */
    public Stalls since(long fromNs) {
      if (!complete()) {
        return this;
      }
      int first = 0;
      while (first < ends.length && ends[first] < fromNs) {
        first++;
      }
      long[] keptStarts = Arrays.copyOfRange(starts, first, starts.length);
      long[] keptEnds = Arrays.copyOfRange(ends, first, ends.length);
      long total = 0;
      long longest = 0;
      for (int i = 0; i < keptStarts.length; i++) {
        total += keptEnds[i] - keptStarts[i];
        longest = Math.max(longest, keptEnds[i] - keptStarts[i]);
      }
      return new Stalls(keptStarts, keptEnds, keptStarts.length, total, longest);
    }

    /** Whether any kept stall overlaps {@code [fromNs, toNs]}. */
    public boolean overlaps(long fromNs, long toNs) {
      // Stalls do not overlap each other and are sorted: the last one starting at or before toNs
      // is the only one that can reach into the interval.
      int i = Arrays.binarySearch(starts, toNs);
      int last = i >= 0 ? i : -i - 2;
      return last >= 0 && ends[last] >= fromNs;
    }

    /** Whether every stall seen was kept; if not, {@link #overlaps} may miss some. */
    public boolean complete() {
      return starts.length == count;
    }
  }
}

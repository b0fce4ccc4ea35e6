package io.tern.benchmark.machine;

import io.tern.benchmark.common.Experiments;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Two threads passing a token back and forth a fixed number of times a second, parking between
 * passes: the thread wake-ups of a message pipeline (a proposal handed to a Raft thread, a flush
 * request, an answer), without its work. Next to the flush floor it tells whether this machine
 * freezes when wake-ups and fsyncs come together, with no Raft code running.
 *
 * <p>Why: on a small VM, threads flushing zero-filled files after every write can run without a
 * machine stall on their own, yet stall the machine often, with a much worse flush tail, once
 * thread wake-ups of this kind come beside them (C programs doing the same with futexes stall it
 * too; a thread spinning on a core instead does not). A Raft cluster under load makes many such
 * thread switches a second, so this probe tells whether its stalls are the machine's.
 */
public final class HandOffLoad implements AutoCloseable {
  /**
   * {@code -Dtern.benchmark.handOffProbe=N}: round trips a second of the Raft benchmark's probe
   * beside the flush floor, the same as its {@code --hand-off-probe N} (which wins where both are
   * given). Not set or 0: no probe, the default.
   */
  public static final String PROBE_PROPERTY = "tern.benchmark.handOffProbe";

  /** About the wake-ups that froze our VM when they came with fsyncs (see the class comment). */
  public static final int SUGGESTED_PROBE_ROUND_TRIPS_PER_S = 5_000;

  /** The probe's rate from {@link #PROBE_PROPERTY}; 0 (the default) means no probe. */
  public static int probeRoundTripsPerS() {
    return Experiments.whole(PROBE_PROPERTY, 0, 0);
  }

  private final long periodNs;
  private final Thread sender;
  private final Thread answerer;
  private volatile boolean running = true;
  private volatile boolean tokenWithAnswerer;
  private volatile long roundTrips;

  private HandOffLoad(int roundTripsPerS) {
    if (roundTripsPerS < 1) {
      throw new IllegalArgumentException("roundTripsPerS must be >= 1, got " + roundTripsPerS);
    }
    this.periodNs = TimeUnit.SECONDS.toNanos(1) / roundTripsPerS;
    this.answerer = new Thread(this::answer, "hand-off-answerer");
    this.sender = new Thread(this::send, "hand-off-sender");
    answerer.setDaemon(true);
    sender.setDaemon(true);
  }

  /** Starts passing the token {@code roundTripsPerS} times a second. */
  public static HandOffLoad start(int roundTripsPerS) {
    HandOffLoad load = new HandOffLoad(roundTripsPerS);
    load.answerer.start();
    load.sender.start();
    return load;
  }

  /** Round trips completed so far. */
  public long roundTrips() {
    return roundTrips;
  }

  private void send() {
    long nextNs = System.nanoTime();
    while (running) {
      long waitNs = nextNs - System.nanoTime();
      if (waitNs > 0) {
        LockSupport.parkNanos(this, waitNs);
        continue;
      }
      tokenWithAnswerer = true;
      LockSupport.unpark(answerer);
      while (tokenWithAnswerer && running) {
        LockSupport.park(this);
      }
      roundTrips++; // only this thread writes it
      // A sender that fell behind makes up for at most one pass, not for all it missed.
      nextNs = Math.max(nextNs + periodNs, System.nanoTime() - periodNs);
    }
  }

  private void answer() {
    while (running) {
      if (!tokenWithAnswerer) {
        LockSupport.park(this);
        continue;
      }
      tokenWithAnswerer = false;
      LockSupport.unpark(sender);
    }
  }

  /** Stops both threads and waits for them; {@link #roundTrips()} then stays as it is. */
  @Override
  public void close() {
    running = false;
    LockSupport.unpark(sender);
    LockSupport.unpark(answerer);
    boolean interrupted = false;
    for (Thread thread : new Thread[] {sender, answerer}) {
      while (thread.isAlive()) {
        try {
          thread.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}

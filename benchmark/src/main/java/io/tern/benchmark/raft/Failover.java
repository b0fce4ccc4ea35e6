package io.tern.benchmark.raft;

import io.tern.benchmark.common.Progress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Time from killing a partition's leader to the first entry committed on that partition afterwards,
 * while a client keeps trying to append. The killed member is restarted after each measurement so
 * that the next kill again leaves a majority.
 */
final class Failover {
  /** A new probe every so often while fewer than {@link #MAX_PROBES} are in flight. */
  static final long PROBE_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(5);

  /**
   * Few probes: enough that an adapter whose appends fail fast is retried promptly, few enough that
   * retrying clients do not flood the members while they elect (it would slow the election).
   */
  static final int MAX_PROBES = 4;

  static final long GIVE_UP_NS = TimeUnit.SECONDS.toNanos(60);

  /** Lets the restarted member catch up before the next kill needs it for a majority. */
  static final long SETTLE_MS = 1000;

  /**
   * @param failoverNs one per kill: from the start of the kill to the first commit after it
   * @param killCallNs how long each {@code killLeader} call took (part of {@code failoverNs})
   */
  record Result(List<Long> failoverNs, List<Long> killCallNs) {
    long medianNs() {
      List<Long> sorted = new ArrayList<>(failoverNs);
      sorted.sort(null);
      return sorted.get(sorted.size() / 2);
    }

    long maxNs() {
      return failoverNs.stream().mapToLong(Long::longValue).max().orElse(0);
    }
  }

  private Failover() {}

  static Result run(ClusterUnderTest cluster, int kills, byte[] payload, Progress progress)
      throws Exception {
    List<Long> failoverNs = new ArrayList<>();
    List<Long> killCallNs = new ArrayList<>();
    for (int k = 0; k < kills; k++) {
      // Commits work before the kill; nothing from before it is in flight afterwards.
      for (int i = 0; i < 5; i++) {
        cluster.append(0, payload).get(30, TimeUnit.SECONDS);
      }
      long killNs = System.nanoTime();
      int killed = cluster.killLeader(0);
      killCallNs.add(System.nanoTime() - killNs);
      long firstCommitNs = firstCommitAfter(cluster, payload);
      failoverNs.add(firstCommitNs - killNs);
      progress.log(
          "    kill %d of member %d: first commit after %.0f ms (the kill call took %.0f ms)",
          k + 1, killed, (firstCommitNs - killNs) / 1e6, killCallNs.get(k) / 1e6);
      cluster.restart(killed);
      cluster.awaitLeaders(Duration.ofSeconds(30));
      Thread.sleep(SETTLE_MS);
    }
    return new Result(failoverNs, killCallNs);
  }

  /** Probes until one append commits; returns when that happened (System.nanoTime()). */
  private static long firstCommitAfter(ClusterUnderTest cluster, byte[] payload) throws Exception {
    CompletableFuture<Long> firstCommitNs = new CompletableFuture<>();
    AtomicInteger inFlight = new AtomicInteger();
    long deadlineNs = System.nanoTime() + GIVE_UP_NS;
    while (!firstCommitNs.isDone()) {
      if (System.nanoTime() > deadlineNs) {
        throw new TimeoutException("No commit within 60 s of killing the leader");
      }
      if (inFlight.get() < MAX_PROBES) {
        inFlight.incrementAndGet();
        CompletableFuture<Void> probe;
        try {
          probe = cluster.append(0, payload);
        } catch (RuntimeException e) {
          probe = CompletableFuture.failedFuture(e);
        }
        probe.whenComplete(
            (ignored, error) -> {
              if (error == null) {
                firstCommitNs.complete(System.nanoTime());
              }
              inFlight.decrementAndGet();
            });
      }
      try {
        firstCommitNs.get(PROBE_INTERVAL_NS, TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        // No commit yet: probe again.
      }
    }
    return firstCommitNs.get();
  }
}

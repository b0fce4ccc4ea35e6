package io.tern.benchmark.soak;

import java.time.Duration;

/**
 * What the verdicts allow; each has an option of the same name (see {@link SoakOptions}).
 *
 * @param warmup left out of drift, leak and leader-change judgements (a fresh JVM's heap, JIT and
 *     first snapshots settle); at most half the run
 * @param throughputWindow how long completions may fall behind what was sent before it is a backlog
 * @param throughputTolerance the share of what was sent in such a window that may be missing
 * @param sloP99 the process instance execution (PEL) p99 limit
 * @param sloShare the share of intervals allowed over {@code sloP99}
 * @param sloProcessingP99 the brokers' processing latency p99 limit (zero: not judged)
 * @param driftMaxRise how much latency or CPU per instance may rise over the run, as a share of
 *     where it started
 * @param driftMinRiseMs a latency rise smaller than this is never a drift
 * @param leakMaxRise how much heap after GC or RSS may rise over the run, as a share
 * @param heapMinRiseMb a heap rise smaller than this is never a leak
 * @param rssMinRiseMb an RSS rise smaller than this is never a leak
 * @param diskMaxRise how much a partition replica's disk use may rise over the run, as a share
 * @param diskMinRiseMb a disk rise smaller than this is never a leak
 * @param maxSnapshots snapshots a replica may keep on disk
 * @param maxLeaderChanges leader changes allowed after the warmup
 * @param maxRestarts broker restarts allowed
 * @param maxFailedShare the share of sent instances that may fail other than by backpressure
 * @param baselineTolerance how much worse than the baseline a signal may be, as a share
 */
record Thresholds(
    Duration warmup,
    Duration throughputWindow,
    double throughputTolerance,
    Duration sloP99,
    double sloShare,
    Duration sloProcessingP99,
    double driftMaxRise,
    double driftMinRiseMs,
    double leakMaxRise,
    double heapMinRiseMb,
    double rssMinRiseMb,
    double diskMaxRise,
    double diskMinRiseMb,
    int maxSnapshots,
    int maxLeaderChanges,
    int maxRestarts,
    double maxFailedShare,
    double baselineTolerance) {

  /** A slope counts only if it is this many standard errors from flat. */
  static final double MIN_T = 4;

  static Thresholds defaults() {
    return new Thresholds(
        Duration.ofMinutes(10),
        Duration.ofMinutes(5),
        0.05,
        Duration.ofSeconds(1),
        0.05,
        Duration.ZERO,
        0.5,
        10,
        0.2,
        32,
        64,
        0.5,
        256,
        2,
        0,
        0,
        0.001,
        0.1);
  }

  /** The warmup of a run {@code spanS} long: at most half of it, so that half is always judged. */
  double warmupS(double spanS) {
    return Math.min(warmup.toMillis() / 1000.0, spanS / 2);
  }
}

package io.tern.benchmark.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * Every verdict on synthetic two-hour runs at 10 s intervals: a steady cluster passes, noise alone
 * passes, and each fault fails the verdict that names it, with the figures that show it.
 */
class SoakVerdictsTest {
  private static final int INTERVALS = 720;
  private static final double INTERVAL_S = 10;
  private static final Thresholds LIMITS = Thresholds.defaults();

  @Test
  void aSteadyRunPassesEveryVerdict() {
    List<Verdict> verdicts = Verdicts.judge(run(0, (i, s) -> {}), LIMITS);

    assertThat(verdicts)
        .extracting(Verdict::name)
        .containsExactly("throughput", "latency", "drift", "leak", "stability");
    assertThat(verdicts).allSatisfy(v -> assertThat(v.passed()).as(v.line()).isTrue());
  }

  @Test
  void noiseAlonePasses() {
    for (int seed = 1; seed <= 20; seed++) {
      Random random = new Random(seed);
      double[] jitter = new double[INTERVALS + 1];
      for (int i = 0; i < jitter.length; i++) {
        jitter[i] = 8 * random.nextGaussian();
      }
      SoakSeries series =
          run(
              seed,
              (i, s) -> {
                s.put(Signals.PEL_P99, 120 + 60 * random.nextGaussian());
                s.put(Signals.PEL_P50, 40 + 15 * random.nextGaussian());
                // What one interval completes late, the next completes: no backlog builds up.
                s.put(Signals.COMPLETED, 100 + jitter[i + 1] - jitter[i]);
                s.put(Signals.broker(0, Signals.HEAP_AFTER_GC), 300 + 40 * random.nextGaussian());
                s.put(Signals.broker(0, Signals.RSS), 900 + 50 * random.nextGaussian());
                s.put(Signals.CPU_PER_INSTANCE, 2 + 0.5 * random.nextGaussian());
              });
      List<Verdict> verdicts = Verdicts.judge(series, LIMITS);
      assertThat(verdicts).allSatisfy(v -> assertThat(v.passed()).as(v.line()).isTrue());
    }
  }

  @Test
  void aHeapThatKeepsWhatGcLeavesRisingIsALeak() {
    // Collections leave a little more each time: 300 MB at the start, 420 MB after two hours.
    SoakSeries series =
        run(
            1,
            (i, s) ->
                s.put(Signals.broker(1, Signals.HEAP_AFTER_GC), 300 + i / 6.0 + sawtooth(i, 80)));

    Verdict leak = verdict(series, "leak");
    assertThat(leak.passed()).isFalse();
    assertThat(leak.summary()).startsWith("broker 1 heap after GC rose from");
    assertThat(leak.evidence()).anySatisfy(line -> assertThat(line).contains("MB/h"));
    assertThat(otherVerdicts(series, "leak")).allSatisfy(v -> assertThat(v.passed()).isTrue());
  }

  @Test
  void aSawtoothHeapThatCollectionsBringBackIsNoLeak() {
    SoakSeries series =
        run(1, (i, s) -> s.put(Signals.broker(0, Signals.HEAP_AFTER_GC), 300 + sawtooth(i, 400)));

    assertThat(verdict(series, "leak").passed()).isTrue();
  }

  @Test
  void rssGrowingWithTheMappedJournalAloneIsNoLeak() {
    // The total climbs as journal segments are mapped (900 MB to 1.8 GB); anonymous memory is flat.
    SoakSeries series =
        run(
            1,
            (i, s) -> {
              s.put(Signals.broker(0, Signals.RSS), 900 + 900.0 * i / INTERVALS);
              s.put(Signals.broker(0, Signals.RSS_ANONYMOUS), 400.0);
            });

    Verdict leak = verdict(series, "leak");
    assertThat(leak.passed()).as(leak.line()).isTrue();
    assertThat(leak.evidence())
        .anySatisfy(line -> assertThat(line).startsWith("broker 0 RSS (with mapped journal"));
  }

  @Test
  void anonymousMemoryRisingIsALeak() {
    SoakSeries series =
        run(
            1,
            (i, s) -> {
              s.put(Signals.broker(2, Signals.RSS), 900.0 + i);
              s.put(Signals.broker(2, Signals.RSS_ANONYMOUS), 400.0 + i);
            });

    Verdict leak = verdict(series, "leak");
    assertThat(leak.passed()).isFalse();
    assertThat(leak.summary()).startsWith("broker 2 anonymous RSS rose from");
  }

  @Test
  void withoutAnonymousMemoryTheTotalRssIsJudged() {
    // Brokers that do not report their anonymous memory (not Linux, or older): the total counts.
    SoakSeries series = run(1, (i, s) -> s.put(Signals.broker(1, Signals.RSS), 900.0 + i));

    assertThat(verdict(series, "leak").summary()).startsWith("broker 1 RSS rose from");
  }

  @Test
  void completionsFallingBehindTheRateSentAreABacklog() {
    // From the second hour on, 85 of the 100 instances sent a second complete.
    SoakSeries series = run(1, (i, s) -> s.put(Signals.COMPLETED, i < 360 ? 100.0 : 85.0));

    Verdict throughput = verdict(series, "throughput");
    assertThat(throughput.passed()).isFalse();
    assertThat(throughput.summary())
        .startsWith("backlog growing: from 1h00m")
        .contains("85/s completed against 100/s sent")
        .contains("backlog grew by 4500 instances (15.0% of what was sent, allowed 5.0%)");
  }

  @Test
  void aRunShorterThanTheWindowIsJudgedAsOneWindow() {
    // A minute, its first interval longer than the rest (the first scrape was slow), 70% completed.
    List<SoakSeries.Interval> intervals = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      intervals.add(
          new SoakSeries.Interval(
              i, 16 + 10 * i, 1, Map.of(Signals.SENT, 150.0, Signals.COMPLETED, 105.0)));
    }

    Verdict throughput = Verdicts.throughput(SoakSeries.of(intervals), LIMITS);
    assertThat(throughput.passed()).as(throughput.line()).isFalse();
    assertThat(throughput.summary()).contains("(30.0% of what was sent");
  }

  @Test
  void aShortStallThatIsMadeUpIsNoBacklog() {
    // One interval completes nothing, the next completes twice as many.
    SoakSeries series =
        run(1, (i, s) -> s.put(Signals.COMPLETED, i == 400 ? 0.0 : i == 401 ? 200.0 : 100.0));

    assertThat(verdict(series, "throughput").passed()).isTrue();
  }

  @Test
  void latencyRisingOverTheRunIsADrift() {
    // p99 from 100 ms to 300 ms, well under the 1 s SLO all along.
    Random random = new Random(7);
    SoakSeries series =
        run(
            1,
            (i, s) ->
                s.put(Signals.PEL_P99, 100 + i * 200.0 / INTERVALS + 20 * random.nextGaussian()));

    Verdict drift = verdict(series, "drift");
    assertThat(drift.passed()).isFalse();
    assertThat(drift.summary()).startsWith("PEL p99 rose from").contains("ms over");
    assertThat(verdict(series, "latency").passed()).as("never over the SLO").isTrue();
  }

  @Test
  void cpuPerInstanceRisingIsADrift() {
    SoakSeries series = run(1, (i, s) -> s.put(Signals.CPU_PER_INSTANCE, 2 + i * 4.0 / INTERVALS));

    assertThat(verdict(series, "drift").summary()).startsWith("broker CPU per instance rose");
  }

  @Test
  void aDiskThatNeverCompactsIsALeak() {
    // The journal of partition 2 on broker 1 grows 1 GB an hour; its snapshots stay the same.
    SoakSeries series =
        run(
            1,
            (i, s) -> {
              s.put(Signals.replica(1, 2, Signals.DISK_JOURNAL), 50 + i * 1000.0 / 360);
              s.put(Signals.replica(1, 2, Signals.DISK_SNAPSHOTS), 20.0);
            });

    Verdict leak = verdict(series, "leak");
    assertThat(leak.passed()).isFalse();
    assertThat(leak.summary()).startsWith("broker 1 partition 2 disk rose from");
  }

  @Test
  void aJournalCompactedAfterEachSnapshotIsNoLeak() {
    // Grows 100 MB between snapshots every five minutes, then back down.
    SoakSeries series =
        run(
            1,
            (i, s) ->
                s.put(Signals.replica(0, 1, Signals.DISK_JOURNAL), 50 + (i % 30) * 100.0 / 30));

    assertThat(verdict(series, "leak").passed()).isTrue();
  }

  @Test
  void snapshotsThatAreNeverDeletedAreALeak() {
    SoakSeries series =
        run(1, (i, s) -> s.put(Signals.replica(0, 3, Signals.SNAPSHOT_COUNT), 1.0 + i / 30));

    assertThat(verdict(series, "leak").summary())
        .startsWith("broker 0 partition 3 kept 24 snapshots on disk (allowed 2)");
  }

  @Test
  void p99OverTheSloInTooManyIntervalsFailsLatency() {
    // Every tenth interval takes 1.5 s at p99.
    SoakSeries series = run(1, (i, s) -> s.put(Signals.PEL_P99, i % 10 == 0 ? 1500.0 : 80.0));

    Verdict latency = verdict(series, "latency");
    assertThat(latency.passed()).isFalse();
    assertThat(latency.summary())
        .startsWith("PEL p99 over 1000 ms in 66 of 660 intervals (10.0%, allowed 5.0%)");
    assertThat(latency.summary()).contains("worst 1500 ms");

    Thresholds lenient = withSlo(Duration.ofSeconds(2));
    assertThat(Verdicts.latency(series, lenient).passed()).as("under a 2 s SLO").isTrue();
  }

  @Test
  void aPausedProcessorFailsThroughputAndLatency() {
    // Nothing completes for the last ten minutes.
    SoakSeries series =
        run(
            1,
            (i, s) -> {
              if (i >= 660) {
                s.put(Signals.COMPLETED, 0.0);
                s.put(Signals.PEL_P99, Double.NaN);
              }
            });

    assertThat(verdict(series, "throughput").passed()).isFalse();
    assertThat(verdict(series, "latency").summary()).contains("in 60 of 660 intervals");
  }

  @Test
  void leaderChangesRestartsAndErrorsFailStability() {
    SoakSeries series =
        run(
            1,
            (i, s) -> {
              s.put(Signals.LEADER_CHANGES, i == 500 ? 2.0 : 0.0);
              s.put(Signals.broker(2, Signals.RESTARTS), i == 600 ? 1.0 : 0.0);
              s.put(Signals.FAILED, i > 700 ? 5.0 : 0.0);
            });

    Verdict stability = verdict(series, "stability");
    assertThat(stability.passed()).isFalse();
    assertThat(stability.summary())
        .contains("2 leader changes after the warmup (allowed 0)")
        .contains("1 broker restarts (allowed 0)")
        .contains("failed other than by backpressure");
  }

  @Test
  void leaderChangesDuringTheWarmupAreAllowed() {
    SoakSeries series = run(1, (i, s) -> s.put(Signals.LEADER_CHANGES, i == 3 ? 3.0 : 0.0));

    assertThat(verdict(series, "stability").passed()).isTrue();
  }

  /**
   * A steady run: 100/s sent and completed, p99 80 ms, flat heap, RSS and disk; then {@code shape}.
   */
  static SoakSeries run(int seed, BiConsumer<Integer, Map<String, Double>> shape) {
    List<SoakSeries.Interval> intervals = new ArrayList<>();
    for (int i = 0; i < INTERVALS; i++) {
      Map<String, Double> s = new LinkedHashMap<>();
      s.put(Signals.SENT, 100.0);
      s.put(Signals.STARTED, 100.0);
      s.put(Signals.COMPLETED, 100.0);
      s.put(Signals.REJECTED, 0.0);
      s.put(Signals.FAILED, 0.0);
      s.put(Signals.PEL_P50, 30.0);
      s.put(Signals.PEL_P99, 80.0);
      s.put(Signals.CPU_PER_INSTANCE, 2.0);
      s.put(Signals.LEADER_CHANGES, 0.0);
      for (int node = 0; node < 3; node++) {
        s.put(Signals.broker(node, Signals.UP), 1.0);
        s.put(Signals.broker(node, Signals.RESTARTS), 0.0);
        s.put(Signals.broker(node, Signals.HEAP_AFTER_GC), 300.0);
        s.put(Signals.broker(node, Signals.RSS), 900.0);
        for (int partition = 1; partition <= 3; partition++) {
          s.put(Signals.replica(node, partition, Signals.DISK_JOURNAL), 100.0);
          s.put(Signals.replica(node, partition, Signals.DISK_SNAPSHOTS), 20.0);
          s.put(Signals.replica(node, partition, Signals.DISK_RUNTIME), 30.0);
          s.put(Signals.replica(node, partition, Signals.SNAPSHOT_COUNT), 1.0);
        }
      }
      shape.accept(i, s);
      intervals.add(new SoakSeries.Interval(1_000L * i, (i + 1) * INTERVAL_S, 1, s));
    }
    return SoakSeries.of(intervals);
  }

  /** A sawtooth between 0 and {@code height} with a period of 20 intervals. */
  private static double sawtooth(int i, double height) {
    return (i % 20) * height / 20;
  }

  private static Verdict verdict(SoakSeries series, String name) {
    return Verdicts.judge(series, LIMITS).stream()
        .filter(v -> v.name().equals(name))
        .findFirst()
        .orElseThrow();
  }

  private static List<Verdict> otherVerdicts(SoakSeries series, String name) {
    return Verdicts.judge(series, LIMITS).stream().filter(v -> !v.name().equals(name)).toList();
  }

  private static Thresholds withSlo(Duration slo) {
    Thresholds d = Thresholds.defaults();
    return new Thresholds(
        d.warmup(),
        d.throughputWindow(),
        d.throughputTolerance(),
        slo,
        d.sloShare(),
        d.sloProcessingP99(),
        d.driftMaxRise(),
        d.driftMinRiseMs(),
        d.leakMaxRise(),
        d.heapMinRiseMb(),
        d.rssMinRiseMb(),
        d.diskMaxRise(),
        d.diskMinRiseMb(),
        d.maxSnapshots(),
        d.maxLeaderChanges(),
        d.maxRestarts(),
        d.maxFailedShare(),
        d.baselineTolerance());
  }
}

package io.tern.benchmark.soak;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The verdicts' thresholds on the command line ({@code soak} and {@code soak-report} both take
 * them); defaults are {@link Thresholds#defaults()}. The ones given are kept as given, so that
 * {@code soak-report} judges a run with the thresholds it ran with.
 */
final class ThresholdOptions {
  private static final Thresholds D = Thresholds.defaults();

  @Option(
      names = "--warmup",
      paramLabel = "DUR",
      converter = DurationConverter.class,
      description =
          "left out of latency, drift, leak and leader-change verdicts; at most half the run (default 10m)")
  Duration warmup = D.warmup();

  @Option(
      names = "--throughput-window",
      paramLabel = "DUR",
      converter = DurationConverter.class,
      description = "how long completions may fall behind the rate sent (default 5m)")
  Duration throughputWindow = D.throughputWindow();

  @Option(
      names = "--throughput-tolerance",
      paramLabel = "SHARE",
      description = "share of what was sent in such a window that may be missing (default 0.05)")
  double throughputTolerance = D.throughputTolerance();

  @Option(
      names = "--slo-p99",
      paramLabel = "DUR",
      converter = DurationConverter.class,
      description = "PEL p99 limit (default 1s)")
  Duration sloP99 = D.sloP99();

  @Option(
      names = "--slo-share",
      paramLabel = "SHARE",
      description = "share of intervals allowed over --slo-p99 (default 0.05)")
  double sloShare = D.sloShare();

  @Option(
      names = "--slo-processing-p99",
      paramLabel = "DUR",
      converter = DurationConverter.class,
      description = "brokers' processing latency p99 limit, 0 = not judged (default 0)")
  Duration sloProcessingP99 = D.sloProcessingP99();

  @Option(
      names = "--drift-max-rise",
      paramLabel = "SHARE",
      description = "latency or CPU per instance rise allowed over the run (default 0.5)")
  double driftMaxRise = D.driftMaxRise();

  @Option(
      names = "--leak-max-rise",
      paramLabel = "SHARE",
      description = "heap after GC or RSS rise allowed over the run (default 0.2)")
  double leakMaxRise = D.leakMaxRise();

  @Option(
      names = "--heap-min-rise",
      paramLabel = "MB",
      description = "a heap rise under this is never a leak (default 32)")
  double heapMinRiseMb = D.heapMinRiseMb();

  @Option(
      names = "--rss-min-rise",
      paramLabel = "MB",
      description = "an RSS rise under this is never a leak (default 64)")
  double rssMinRiseMb = D.rssMinRiseMb();

  @Option(
      names = "--disk-max-rise",
      paramLabel = "SHARE",
      description = "a partition replica's disk rise allowed over the run (default 0.5)")
  double diskMaxRise = D.diskMaxRise();

  @Option(
      names = "--disk-min-rise",
      paramLabel = "MB",
      description = "a disk rise under this is never a leak (default 256)")
  double diskMinRiseMb = D.diskMinRiseMb();

  @Option(
      names = "--max-snapshots",
      paramLabel = "N",
      description = "snapshots a replica may keep (default 2)")
  int maxSnapshots = D.maxSnapshots();

  @Option(
      names = "--max-leader-changes",
      paramLabel = "N",
      description = "leader changes allowed after the warmup (default 0)")
  int maxLeaderChanges = D.maxLeaderChanges();

  @Option(
      names = "--max-restarts",
      paramLabel = "N",
      description = "broker restarts allowed (default 0)")
  int maxRestarts = D.maxRestarts();

  @Option(
      names = "--max-failed-share",
      paramLabel = "SHARE",
      description = "share of instances that may fail other than by backpressure (default 0.001)")
  double maxFailedShare = D.maxFailedShare();

  @Option(
      names = "--baseline-tolerance",
      paramLabel = "SHARE",
      description = "how much worse than --baseline a signal may be (default 0.1)")
  double baselineTolerance = D.baselineTolerance();

  Thresholds thresholds() {
    for (double share :
        new double[] {
          throughputTolerance,
          sloShare,
          driftMaxRise,
          leakMaxRise,
          diskMaxRise,
          maxFailedShare,
          baselineTolerance
        }) {
      if (share < 0) {
        throw new IllegalArgumentException("a share or rise must be 0 or more, got " + share);
      }
    }
    if (warmup.isNegative() || throughputWindow.isZero() || sloP99.isZero()) {
      throw new IllegalArgumentException(
          "--warmup must be 0 or more, --throughput-window and --slo-p99 positive");
    }
    return new Thresholds(
        warmup,
        throughputWindow,
        throughputTolerance,
        sloP99,
        sloShare,
        sloProcessingP99,
        driftMaxRise,
        D.driftMinRiseMs(),
        leakMaxRise,
        heapMinRiseMb,
        rssMinRiseMb,
        diskMaxRise,
        diskMinRiseMb,
        maxSnapshots,
        maxLeaderChanges,
        maxRestarts,
        maxFailedShare,
        baselineTolerance);
  }

  /** The threshold options among {@code args}, with their values, in order. */
  static List<String> among(String[] args) {
    List<String> names =
        List.of(
            "--warmup",
            "--throughput-window",
            "--throughput-tolerance",
            "--slo-p99",
            "--slo-share",
            "--slo-processing-p99",
            "--drift-max-rise",
            "--leak-max-rise",
            "--heap-min-rise",
            "--rss-min-rise",
            "--disk-max-rise",
            "--disk-min-rise",
            "--max-snapshots",
            "--max-leader-changes",
            "--max-restarts",
            "--max-failed-share",
            "--baseline-tolerance");
    List<String> kept = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String name = args[i].contains("=") ? args[i].substring(0, args[i].indexOf('=')) : args[i];
      if (names.contains(name)) {
        kept.add(args[i]);
        if (!args[i].contains("=") && i + 1 < args.length) {
          kept.add(args[++i]);
        }
      }
    }
    return kept;
  }
}

package io.tern.benchmark.soak;

import java.util.ArrayList;
import java.util.List;

/**
 * The leak verdict: a broker's heap after GC or anonymous RSS (the total where a broker does not
 * report it), or a partition replica's disk use (journal, snapshots and runtime state together),
 * rising over the run after the warmup; or a replica keeping more snapshots than allowed for three
 * intervals or more. A rise is judged on the lows of {@link #STRETCHES} stretches of the run, what
 * is left after each collection or compaction, so that a sawtooth (garbage collected, a journal
 * compacted after each snapshot) is not a leak: it fails when the slope fitted through the lows
 * stands out of their noise and the rise is over both its share of the start and its floor in MB.
 */
final class LeakVerdict {
  /** Stretches of the run whose lows are fitted. */
  static final int STRETCHES = 10;

  private LeakVerdict() {}

  static Verdict judge(SoakSeries series, Thresholds limits) {
    String name = "leak";
    int first = Verdicts.afterWarmup(series, limits);
    List<String> findings = new ArrayList<>();
    List<String> evidence = new ArrayList<>();
    for (String signal : series.names(s -> Signals.isBrokers(s, Signals.HEAP_AFTER_GC))) {
      judgeLows(
          series,
          first,
          signal,
          Signals.owner(signal) + " heap after GC",
          series.values(signal),
          limits.leakMaxRise(),
          limits.heapMinRiseMb(),
          findings,
          evidence);
    }
    for (String signal : series.names(s -> Signals.isBrokers(s, Signals.RSS))) {
      String owner = Signals.owner(signal);
      String anonymous =
          signal.substring(0, signal.length() - Signals.RSS.length()) + Signals.RSS_ANONYMOUS;
      boolean judgeAnonymous = anyFinite(series.values(anonymous), first);
      // The total counts the journal's memory-mapped pages, which grow until compaction and are
      // the kernel's to take back: where the broker reports its anonymous part, that is judged
      // and the total is only shown.
      judgeLows(
          series,
          first,
          signal,
          owner + " RSS" + (judgeAnonymous ? " (with mapped journal, not judged)" : ""),
          series.values(signal),
          limits.leakMaxRise(),
          limits.rssMinRiseMb(),
          judgeAnonymous ? evidence : findings,
          evidence);
      if (judgeAnonymous) {
        judgeLows(
            series,
            first,
            anonymous,
            owner + " anonymous RSS",
            series.values(anonymous),
            limits.leakMaxRise(),
            limits.rssMinRiseMb(),
            findings,
            evidence);
      }
    }
    for (String journal : series.names(s -> s.endsWith("." + Signals.DISK_JOURNAL))) {
      String replica = journal.substring(0, journal.length() - Signals.DISK_JOURNAL.length());
      double[] total = series.values(journal);
      double[] snapshots = series.values(replica + Signals.DISK_SNAPSHOTS);
      double[] runtime = series.values(replica + Signals.DISK_RUNTIME);
      for (int i = 0; i < total.length; i++) {
        total[i] = total[i] + Verdicts.orZero(snapshots[i]) + Verdicts.orZero(runtime[i]);
      }
      judgeLows(
          series,
          first,
          journal,
          Signals.owner(journal) + " disk",
          total,
          limits.diskMaxRise(),
          limits.diskMinRiseMb(),
          findings,
          evidence);
    }
    for (String count : series.names(s -> s.endsWith("." + Signals.SNAPSHOT_COUNT))) {
      int run = 0;
      int longest = 0;
      double most = 0;
      for (double value : series.values(count)) {
        run = value > limits.maxSnapshots() ? run + 1 : 0;
        longest = Math.max(longest, run);
        most = Double.isNaN(value) ? most : Math.max(most, value);
      }
      if (longest >= 3) {
        findings.add(
            String.format(
                "%s kept %s snapshots on disk (allowed %d) for %d intervals",
                Signals.owner(count), Format.number(most), limits.maxSnapshots(), longest));
      }
    }
    return Verdicts.verdict(name, findings, evidence, "heap, RSS and disk flat");
  }

  private static boolean anyFinite(double[] values, int from) {
    for (int i = from; i < values.length; i++) {
      if (Double.isFinite(values[i])) {
        return true;
      }
    }
    return false;
  }

  /** Fits the lows of {@link #STRETCHES} stretches of {@code values} from {@code first} on. */
  private static void judgeLows(
      SoakSeries series,
      int first,
      String signal,
      String label,
      double[] values,
      double maxRise,
      double minRiseMb,
      List<String> findings,
      List<String> evidence) {
    int n = values.length - first;
    if (n < 3) {
      return;
    }
    int stretches = Math.min(STRETCHES, n);
    double[] x = new double[stretches];
    double[] lows = new double[stretches];
    for (int s = 0; s < stretches; s++) {
      int from = first + s * n / stretches;
      int to = first + (s + 1) * n / stretches;
      double low = Double.NaN;
      for (int i = from; i < to; i++) {
        low = Double.isNaN(low) || values[i] < low ? values[i] : low;
      }
      x[s] = (series.elapsedS(from) + series.elapsedS(to - 1)) / 2;
      lows[s] = low;
    }
    Trend trend = Trend.fit(x, lows, 0);
    if (trend.points() < 3) {
      return;
    }
    String finding = Verdicts.rise(label, trend, "MB", series);
    boolean leaks =
        trend.t() > Thresholds.MIN_T && trend.rise() > minRiseMb && trend.relativeRise(1) > maxRise;
    (leaks ? findings : evidence).add(finding);
  }
}

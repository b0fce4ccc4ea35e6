package io.tern.benchmark.soak;

import static io.tern.benchmark.soak.Format.change;
import static io.tern.benchmark.soak.Format.duration;
import static io.tern.benchmark.soak.Format.number;
import static io.tern.benchmark.soak.Format.percent;

import java.util.ArrayList;
import java.util.List;

/**
 * The soak's automatic verdicts, judged from its series alone (so that {@code soak-report} judges a
 * finished run exactly as the run itself did):
 *
 * <ul>
 *   <li><b>throughput</b>: in some window, completions fell behind what was sent (refusals count as
 *       not completed) by more than the tolerance: a backlog growing.
 *   <li><b>latency</b>: PEL p99 over the SLO in more than the allowed share of intervals; an
 *       interval that sent but completed nothing counts as over.
 *   <li><b>drift</b>: PEL p50, p99 or the brokers' CPU per instance rising over the run by a fitted
 *       slope that stands out of the noise.
 *   <li><b>leak</b>: a broker's heap after GC or RSS, or a partition replica's disk use, rising
 *       over the run; judged on the lows of ten stretches of the run (what is left after each
 *       collection or compaction), so a sawtooth is not a leak; or more snapshots kept than
 *       allowed.
 *   <li><b>stability</b>: leader changes after the warmup, broker restarts, brokers not answering,
 *       instances failing other than by backpressure.
 * </ul>
 */
final class Verdicts {
  private Verdicts() {}

  static List<Verdict> judge(SoakSeries series, Thresholds limits) {
    return List.of(
        throughput(series, limits),
        latency(series, limits),
        drift(series, limits),
        LeakVerdict.judge(series, limits),
        stability(series, limits));
  }

  /** Each interval's length in seconds; a gap (the soak was down) counts as one interval. */
  static double[] lengths(SoakSeries series) {
    double typical = series.intervalS();
    double[] lengths = new double[series.size()];
    for (int i = 0; i < lengths.length; i++) {
      double gap = i == 0 ? series.elapsedS(0) : series.elapsedS(i) - series.elapsedS(i - 1);
      lengths[i] = i == 0 || gap > 2 * typical || gap <= 0 ? typical : gap;
    }
    return lengths;
  }

  static Verdict throughput(SoakSeries series, Thresholds limits) {
    String name = "throughput";
    int n = series.size();
    if (n < 2) {
      return Verdict.pass(name, "too few intervals to judge", List.of());
    }
    double[] t = series.elapsedS();
    double[] sent = series.values(Signals.SENT);
    double[] completed = series.values(Signals.COMPLETED);
    double[] lengths = lengths(series);
    double[] backlog = new double[n + 1]; // backlog[i + 1]: after interval i
    double[] offered = new double[n + 1];
    for (int i = 0; i < n; i++) {
      backlog[i + 1] = backlog[i] + (orZero(sent[i]) - orZero(completed[i])) * lengths[i];
      offered[i + 1] = offered[i] + orZero(sent[i]) * lengths[i];
    }
    double[] start = new double[n]; // when each interval began
    for (int i = 0; i < n; i++) {
      start[i] = t[i] - lengths[i];
    }
    // A run shorter than the window is judged as one window.
    double window = Math.min(limits.throughputWindow().toMillis() / 1000.0, t[n - 1] - start[0]);
    double worstShare = 0;
    int worstFrom = -1; // the worst window: intervals worstFrom..worstTo
    int worstTo = -1;
    int from = 0;
    for (int to = 0; to < n; to++) {
      while (from < to && t[to] - start[from + 1] >= window) {
        from++; // the shortest window ending here that is at least as long as asked
      }
      if (t[to] - start[from] < window - 1e-9) {
        continue;
      }
      double growth = backlog[to + 1] - backlog[from];
      double sentThere = offered[to + 1] - offered[from];
      double share = sentThere > 0 ? growth / sentThere : 0;
      if (growth >= 1 && share > worstShare) {
        worstShare = share;
        worstFrom = from;
        worstTo = to;
      }
    }
    List<String> evidence = new ArrayList<>();
    evidence.add(
        String.format(
            "over the run: %s sent, %s completed, %s refused by backpressure, %s failed",
            number(offered[n]),
            number(total(completed, lengths)),
            number(total(series.values(Signals.REJECTED), lengths)),
            number(total(series.values(Signals.FAILED), lengths))));
    if (worstFrom < 0) {
      return Verdict.pass(
          name,
          "completions kept up with the rate sent in every " + duration(window) + " window",
          evidence);
    }
    double spanS = t[worstTo] - start[worstFrom];
    double sentThere = offered[worstTo + 1] - offered[worstFrom];
    double growth = backlog[worstTo + 1] - backlog[worstFrom];
    String finding =
        String.format(
            "from %s to %s: %s/s completed against %s/s sent; the backlog grew by %s instances"
                + " (%s of what was sent, allowed %s)",
            duration(start[worstFrom]),
            duration(t[worstTo]),
            number((sentThere - growth) / spanS),
            number(sentThere / spanS),
            number(growth),
            percent(worstShare),
            percent(limits.throughputTolerance()));
    evidence.add(finding);
    return worstShare > limits.throughputTolerance()
        ? Verdict.fail(name, "backlog growing: " + finding, evidence)
        : Verdict.pass(
            name, "completions kept up within " + percent(limits.throughputTolerance()), evidence);
  }

  /** The first interval that ends after the warmup. */
  static int afterWarmup(SoakSeries series, Thresholds limits) {
    return series.indexAt(limits.warmupS(series.spanS()) + 1e-6);
  }

  static Verdict latency(SoakSeries series, Thresholds limits) {
    String name = "latency";
    int first = afterWarmup(series, limits);
    List<String> evidence = new ArrayList<>();
    boolean failed =
        overLimit(
                series,
                first,
                Signals.PEL_P99,
                "PEL p99",
                limits.sloP99().toMillis(),
                limits.sloShare(),
                true,
                evidence)
            | (!limits.sloProcessingP99().isZero()
                && overLimit(
                    series,
                    first,
                    Signals.PROCESSING_P99,
                    "processing latency p99",
                    limits.sloProcessingP99().toMillis(),
                    limits.sloShare(),
                    false,
                    evidence));
    return failed
        ? Verdict.fail(name, evidence.get(0), evidence)
        : Verdict.pass(
            name, evidence.isEmpty() ? "no intervals to judge" : evidence.get(0), evidence);
  }

  /** Adds a finding about {@code signal} over {@code limitMs}; true if over the allowed share. */
  private static boolean overLimit(
      SoakSeries series,
      int first,
      String signal,
      String label,
      double limitMs,
      double allowedShare,
      boolean nothingCompletedIsOver,
      List<String> evidence) {
    int judged = 0;
    int over = 0;
    int starvedCount = 0;
    int worst = -1;
    for (int i = first; i < series.size(); i++) {
      double value = series.value(signal, i);
      boolean starved =
          nothingCompletedIsOver
              && orZero(series.value(Signals.SENT, i)) > 0
              && orZero(series.value(Signals.COMPLETED, i)) == 0;
      if (Double.isNaN(value) && !starved) {
        continue;
      }
      judged++;
      if (starved || value > limitMs) {
        over++;
        starvedCount += starved ? 1 : 0;
        if (!Double.isNaN(value) && (worst < 0 || value > series.value(signal, worst))) {
          worst = i;
        }
      }
    }
    if (judged == 0) {
      return false;
    }
    double share = (double) over / judged;
    String finding =
        String.format(
            "%s over %s ms in %d of %d intervals (%s, allowed %s)%s%s",
            label,
            number(limitMs),
            over,
            judged,
            percent(share),
            percent(allowedShare),
            worst < 0
                ? ""
                : String.format(
                    "; worst %s ms at %s",
                    number(series.value(signal, worst)), duration(series.elapsedS(worst))),
            starvedCount == 0 ? "" : "; nothing completed in " + starvedCount + " of them");
    boolean failed = share > allowedShare;
    evidence.add(failed ? 0 : evidence.size(), finding);
    return failed;
  }

  static Verdict drift(SoakSeries series, Thresholds limits) {
    String name = "drift";
    int first = afterWarmup(series, limits);
    double[] t = series.elapsedS();
    List<String> findings = new ArrayList<>();
    List<String> evidence = new ArrayList<>();
    for (String[] signal :
        new String[][] {
          {Signals.PEL_P50, "PEL p50", "ms"},
          {Signals.PEL_P99, "PEL p99", "ms"},
          {Signals.CPU_PER_INSTANCE, "broker CPU per instance", "ms"}
        }) {
      Trend trend = Trend.fit(t, series.values(signal[0]), first);
      if (trend.points() < 3) {
        continue;
      }
      double minRise = signal[0].equals(Signals.CPU_PER_INSTANCE) ? 0 : limits.driftMinRiseMs();
      String finding = rise(signal[1], trend, signal[2], series);
      boolean drifts =
          trend.t() > Thresholds.MIN_T
              && trend.rise() > minRise
              && trend.relativeRise(1e-3) > limits.driftMaxRise();
      (drifts ? findings : evidence).add(finding);
    }
    return verdict(name, findings, evidence, "no latency or CPU per instance rising");
  }

  static Verdict stability(SoakSeries series, Thresholds limits) {
    String name = "stability";
    double[] lengths = lengths(series);
    int first = afterWarmup(series, limits);
    List<String> findings = new ArrayList<>();
    List<String> evidence = new ArrayList<>();
    double leaderChanges = 0;
    double[] changes = series.values(Signals.LEADER_CHANGES);
    for (int i = first; i < changes.length; i++) {
      leaderChanges += orZero(changes[i]);
    }
    String changesLine =
        String.format(
            "%s leader changes after the warmup (allowed %d)",
            number(leaderChanges), limits.maxLeaderChanges());
    (leaderChanges > limits.maxLeaderChanges() ? findings : evidence).add(changesLine);
    double restarts = 0;
    int down = 0;
    for (String signal : series.names(s -> Signals.isBrokers(s, Signals.RESTARTS))) {
      restarts += total(series.values(signal), null);
    }
    for (String signal : series.names(s -> Signals.isBrokers(s, Signals.UP))) {
      for (double up : series.values(signal)) {
        down += up == 0 ? 1 : 0;
      }
    }
    (restarts > limits.maxRestarts() ? findings : evidence)
        .add(
            String.format(
                "%s broker restarts (allowed %d)", number(restarts), limits.maxRestarts()));
    (down > 0 ? findings : evidence).add(down + " intervals with a broker's metrics not answering");
    double sent = total(series.values(Signals.SENT), lengths);
    double failed = total(series.values(Signals.FAILED), lengths);
    double share = sent > 0 ? failed / sent : 0;
    (share > limits.maxFailedShare() ? findings : evidence)
        .add(
            String.format(
                "%s of %s instances failed other than by backpressure (%s, allowed %s)",
                number(failed), number(sent), percent(share), percent(limits.maxFailedShare())));
    int segments = series.isEmpty() ? 0 : series.segment(series.size() - 1) - series.segment(0) + 1;
    if (segments > 1) {
      evidence.add(
          "the soak itself was restarted " + (segments - 1) + " time(s); its series go on");
    }
    return verdict(name, findings, evidence, "no leader change, restart or error");
  }

  static Verdict verdict(
      String name, List<String> findings, List<String> evidence, String passSummary) {
    if (findings.isEmpty()) {
      return Verdict.pass(name, passSummary, evidence);
    }
    List<String> all = new ArrayList<>(findings);
    all.addAll(evidence);
    return Verdict.fail(name, String.join("; ", findings), all);
  }

  /** "PEL p99 rose from 40 to 95 ms over 1h50m (+137%; slope 30 ms/h, t=12)". */
  static String rise(String label, Trend trend, String unit, SoakSeries series) {
    return String.format(
        "%s %s from %s to %s %s over %s (%s; slope %s %s/h, t=%s)",
        label,
        trend.rise() >= 0 ? "rose" : "fell",
        number(trend.start()),
        number(trend.start() + trend.rise()),
        unit,
        duration(trend.rise() == 0 ? 0 : trend.rise() / trend.slopePerS()),
        change(trend.relativeRise(1e-3)),
        number(trend.slopePerS() * 3600),
        unit,
        Double.isInfinite(trend.t()) ? "inf" : number(trend.t()));
  }

  /** The sum of a rate times each interval's length (or of the values, without lengths). */
  static double total(double[] values, double[] lengths) {
    double total = 0;
    for (int i = 0; i < values.length; i++) {
      total += orZero(values[i]) * (lengths == null ? 1 : lengths[i]);
    }
    return total;
  }

  static double orZero(double value) {
    return Double.isNaN(value) ? 0 : value;
  }
}

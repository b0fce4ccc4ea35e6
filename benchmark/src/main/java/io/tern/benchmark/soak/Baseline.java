package io.tern.benchmark.soak;

import static io.tern.benchmark.soak.Format.change;
import static io.tern.benchmark.soak.Format.number;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * This run next to an earlier one (last week's), interval by interval: each interval is paired with
 * the baseline's interval at the same time into the run. A signal regressed if its median over the
 * pairs is worse than the baseline's by more than the tolerance <em>and</em> most pairs are worse
 * (at least {@link #MOST} of them): one bad stretch or a noisy signal does not make a regression.
 */
final class Baseline {
  /** The share of paired intervals that must be worse for a regression. */
  static final double MOST = 0.7;

  /** A compared signal: its name, how it is called, and whether higher is worse. */
  private record Compared(String signal, String label, boolean higherIsWorse) {}

  private static final List<Compared> COMPARED =
      List.of(
          new Compared(Signals.COMPLETED, "completed/s", false),
          new Compared(Signals.PEL_P50, "PEL p50", true),
          new Compared(Signals.PEL_P99, "PEL p99", true),
          new Compared(Signals.CPU_PER_INSTANCE, "broker CPU per instance", true),
          new Compared(Signals.COMMIT_P99, "commit latency p99", true),
          new Compared(Signals.PROCESSING_P99, "processing latency p99", true));

  private Baseline() {}

  static Verdict compare(SoakSeries current, SoakSeries baseline, double tolerance) {
    String name = "baseline";
    List<String> findings = new ArrayList<>();
    List<String> evidence = new ArrayList<>();
    int[] pairs = pairs(current, baseline);
    long paired = Arrays.stream(pairs).filter(index -> index >= 0).count();
    if (paired < 3) {
      return Verdict.pass(
          name, "the baseline has too few intervals at the same times to compare", List.of());
    }
    for (Compared compared : COMPARED) {
      List<Double> now = new ArrayList<>();
      List<Double> then = new ArrayList<>();
      int worse = 0;
      for (int i = 0; i < pairs.length; i++) {
        double a = current.value(compared.signal(), i);
        double b = pairs[i] < 0 ? Double.NaN : baseline.value(compared.signal(), pairs[i]);
        if (Double.isFinite(a) && Double.isFinite(b)) {
          now.add(a);
          then.add(b);
          worse += compared.higherIsWorse() ? (a > b ? 1 : 0) : (a < b ? 1 : 0);
        }
      }
      if (now.size() < 3) {
        continue;
      }
      double medianNow = median(now);
      double medianThen = median(then);
      double relative = medianThen == 0 ? 0 : (medianNow - medianThen) / Math.abs(medianThen);
      double worseBy = compared.higherIsWorse() ? relative : -relative;
      double worseShare = (double) worse / now.size();
      String line =
          String.format(
              "%s: median %s against %s (%s), worse in %d of %d intervals",
              compared.label(),
              number(medianNow),
              number(medianThen),
              change(relative),
              worse,
              now.size());
      (worseBy > tolerance && worseShare >= MOST ? findings : evidence).add(line);
    }
    if (findings.isEmpty()) {
      return Verdict.pass(
          name,
          "no regression beyond " + Format.percent(tolerance) + " against the baseline",
          evidence);
    }
    List<String> all = new ArrayList<>(findings);
    all.addAll(evidence);
    return Verdict.fail(name, "regressed: " + String.join("; ", findings), all);
  }

  /** For each of this run's intervals, the baseline's at the same time into the run, or -1. */
  static int[] pairs(SoakSeries current, SoakSeries baseline) {
    int[] pairs = new int[current.size()];
    double halfInterval = Math.max(current.intervalS(), baseline.intervalS()) / 2;
    for (int i = 0; i < pairs.length; i++) {
      double at = current.elapsedS(i);
      int j = baseline.indexAt(at - halfInterval);
      pairs[i] =
          j < baseline.size() && Math.abs(baseline.elapsedS(j) - at) <= halfInterval ? j : -1;
    }
    return pairs;
  }

  private static double median(List<Double> values) {
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return sorted[sorted.length / 2];
  }
}

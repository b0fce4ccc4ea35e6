package io.tern.benchmark.soak;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A soak run's intervals, kept column by column (a week at 10 s intervals is 60,000 rows of a
 * hundred signals: a map per row would weigh far more than the doubles). A signal missing from an
 * interval is NaN there; a gap in the plots.
 */
final class SoakSeries {
  /** One interval as recorded: when it ended, since the run's first start, and its signals. */
  record Interval(long epochMs, double elapsedS, int segment, Map<String, Double> signals) {}

  private long[] epochMs = new long[64];
  private double[] elapsedS = new double[64];
  private int[] segments = new int[64];
  private final Map<String, double[]> columns = new TreeMap<>();
  private int size;

  static SoakSeries of(List<Interval> intervals) {
    SoakSeries series = new SoakSeries();
    intervals.forEach(series::add);
    return series;
  }

  void add(Interval interval) {
    if (size == elapsedS.length) {
      int grown = size * 2;
      epochMs = Arrays.copyOf(epochMs, grown);
      elapsedS = Arrays.copyOf(elapsedS, grown);
      segments = Arrays.copyOf(segments, grown);
      columns.replaceAll((name, column) -> grow(column, grown));
    }
    epochMs[size] = interval.epochMs();
    elapsedS[size] = interval.elapsedS();
    segments[size] = interval.segment();
    for (Map.Entry<String, Double> signal : interval.signals().entrySet()) {
      double value = signal.getValue() == null ? Double.NaN : signal.getValue();
      columns.computeIfAbsent(signal.getKey(), name -> grow(new double[0], elapsedS.length))[size] =
          value;
    }
    size++;
  }

  private static double[] grow(double[] column, int length) {
    double[] grown = Arrays.copyOf(column, length);
    Arrays.fill(grown, column.length, length, Double.NaN);
    return grown;
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  double elapsedS(int index) {
    return elapsedS[index];
  }

  long epochMs(int index) {
    return epochMs[index];
  }

  int segment(int index) {
    return segments[index];
  }

  double[] elapsedS() {
    return Arrays.copyOf(elapsedS, size);
  }

  /** The run's length: from its first start to its last interval's end. */
  double spanS() {
    return size == 0 ? 0 : elapsedS[size - 1];
  }

  /** The typical interval (the median gap between intervals), or 0 with fewer than two. */
  double intervalS() {
    if (size < 2) {
      return size == 1 ? elapsedS[0] : 0;
    }
    double[] gaps = new double[size - 1];
    for (int i = 1; i < size; i++) {
      gaps[i - 1] = elapsedS[i] - elapsedS[i - 1];
    }
    Arrays.sort(gaps);
    return gaps[gaps.length / 2];
  }

  boolean has(String name) {
    return columns.containsKey(name);
  }

  /** The signal's values, one per interval (NaN where missing; all NaN for an unknown signal). */
  double[] values(String name) {
    double[] column = columns.get(name);
    if (column == null) {
      double[] missing = new double[size];
      Arrays.fill(missing, Double.NaN);
      return missing;
    }
    return Arrays.copyOf(column, size);
  }

  double value(String name, int index) {
    double[] column = columns.get(name);
    return column == null ? Double.NaN : column[index];
  }

  /** The signals recorded, in name order, that {@code filter} accepts. */
  List<String> names(Predicate<String> filter) {
    return columns.keySet().stream().filter(filter).toList();
  }

  /** The first interval at or after {@code elapsedS}, or {@link #size()} if none. */
  int indexAt(double elapsed) {
    int index = Arrays.binarySearch(elapsedS, 0, size, elapsed);
    return index >= 0 ? index : -index - 1;
  }
}

package io.tern.benchmark.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/** What a latency experiment measured: windows, and their medians per configuration. */
final class ExperimentResults {
  private ExperimentResults() {}

  /** One measured window of one workload under one configuration. Latencies in ms. */
  record Window(
      long instances,
      double seconds,
      long refused,
      long failed,
      double pelP50,
      double pelP90,
      double pelP99,
      double pelMean,
      double commitP50,
      double commitP99,
      double commitMean,
      double processingP50,
      double processingP99,
      double processingMean,
      double processingLatencyP50,
      double processingLatencyP99,
      double commitsPerInstance,
      double commandsPerInstance,
      Map<Integer, Double> pelP50ByPartition,
      double commitP50Interpolated,
      double processingMsPerInstance,
      double commitP50Lower) {

    static Window of(LoadStats.Interval load, MetricsWindow.Figures brokers, double seconds) {
      Histogram pel = load.endLatency;
      MetricsWindow.Histogram commit = brokers.histogram(MetricsWindow.COMMIT_LATENCY);
      MetricsWindow.Histogram processing = brokers.histogram(MetricsWindow.PROCESSING_DURATION);
      MetricsWindow.Histogram waited = brokers.histogram(MetricsWindow.PROCESSING_LATENCY);
      double instances = Math.max(1, load.ended);
      return new Window(
          load.ended,
          seconds,
          load.refused,
          load.failed,
          pel.getValueAtPercentile(50) / 1e6,
          pel.getValueAtPercentile(90) / 1e6,
          pel.getValueAtPercentile(99) / 1e6,
          pel.getTotalCount() == 0 ? Double.NaN : pel.getMean() / 1e6,
          commit.quantileMs(0.5),
          commit.quantileMs(0.99),
          commit.meanMs(),
          processing.quantileMs(0.5),
          processing.quantileMs(0.99),
          processing.meanMs(),
          waited.quantileMs(0.5),
          waited.quantileMs(0.99),
          brokers.committedEntries() / instances,
          brokers.counterGrowth("tern_processor_commands_processed_total") / instances,
          p50ByPartition(load),
          commit.quantileMsInterpolated(0.5),
          // Every batch's processing time, summed: what processing adds to an instance whose
          // commands run one after another.
          processing.sumSeconds() * 1000 / instances,
          commit.quantileLowerBoundMs(0.5));
    }

    private static Map<Integer, Double> p50ByPartition(LoadStats.Interval load) {
      Map<Integer, Double> p50 = new TreeMap<>();
      load.endLatencyByPartition.forEach(
          (partition, latency) -> {
            if (latency.getTotalCount() > 0) {
              p50.put(partition, latency.getValueAtPercentile(50) / 1e6);
            }
          });
      return p50;
    }

    double throughput() {
      return instances / seconds;
    }
  }

  /**
   * The results of several rounds merged: one per workload and configuration (in the order they
   * first ran), with the windows of every round, and the probe's round trips of the first.
   */
  static List<Result> mergeRounds(List<Result> rounds) {
    Map<List<String>, Result> merged = new LinkedHashMap<>();
    for (Result result : rounds) {
      merged.merge(
          List.of(result.workload(), result.configuration()),
          result,
          (first, next) -> {
            List<Window> windows = new ArrayList<>(first.windows());
            windows.addAll(next.windows());
            return new Result(
                first.workload(),
                first.configuration(),
                first.keys(),
                first.rate(),
                List.copyOf(windows),
                first.roundTripMsByPartition());
          });
    }
    return List.copyOf(merged.values());
  }

  /** One workload under one configuration: its windows, and where the probe found latency. */
  record Result(
      String workload,
      String configuration,
      Map<String, String> keys,
      double rate,
      List<Window> windows,
      Map<Integer, Long> roundTripMsByPartition) {

    /** The median over the windows of one figure. */
    double median(ToDoubleFunction<Window> figure) {
      double[] values =
          windows.stream().mapToDouble(figure).filter(v -> !Double.isNaN(v)).toArray();
      if (values.length == 0) {
        return Double.NaN;
      }
      Arrays.sort(values);
      int middle = values.length / 2;
      return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    double min(ToDoubleFunction<Window> figure) {
      return windows.stream().mapToDouble(figure).min().orElse(Double.NaN);
    }

    double max(ToDoubleFunction<Window> figure) {
      return windows.stream().mapToDouble(figure).max().orElse(Double.NaN);
    }

    /** The commit share of the mean PEL: commits per instance x mean commit latency. */
    double commitShare() {
      return median(Window::commitsPerInstance) * median(Window::commitMean);
    }

    /** The processing share of the mean PEL: commands per instance x mean processing time. */
    double processingShare() {
      return median(Window::commandsPerInstance) * median(Window::processingMean);
    }

    /** What the model leaves of the mean PEL: job round trips, the network, queueing. */
    double overhead() {
      return median(Window::pelMean) - commitShare() - processingShare();
    }

    /**
     * The commit-gated steps an instance waits for one after another ({@link FloorModel}), from the
     * workload's process and this configuration's keys, or from the measured commits per instance
     * where every entry is one (batches limited, the flag off).
     */
    FloorModel.Steps steps() {
      return FloorModel.steps(workload, keys, median(Window::commitsPerInstance));
    }

    /**
     * The client's round trip to a leader and back, without commits: the probe's (the mean over
     * partitions) less its own commit-gated steps, as the probe's cancel is written to the log,
     * rejected, and answered once the rejection commits (2 steps; 1 with processing.uncommitted,
     * which rejects before the command commits). Where commits cross a 35 ms delay the probe is
     * mostly commits. NaN without a probe.
     */
    double roundTripMs() {
      double probe =
          roundTripMsByPartition.values().stream()
              .mapToLong(Long::longValue)
              .average()
              .orElse(Double.NaN);
      double commit = median(Window::commitP50Interpolated);
      if (Double.isNaN(probe) || Double.isNaN(commit)) {
        return probe;
      }
      return Math.max(0, probe - FloorModel.probeSteps(keys) * commit);
    }

    /**
     * The lowest PEL p50 the commits allow: the commit-gated steps in order x commit p50
     * (interpolated in its bucket), plus a round trip to the leader per job and one for the create
     * and its answer, plus the instance's processing time.
     */
    double floor() {
      return floorAt(median(Window::commitP50Interpolated));
    }

    /**
     * The floor with the commit p50 at the lower or the upper bound of its bucket: where the true
     * floor lies, as the histogram knows the p50 only to its bucket.
     */
    double[] floorRange() {
      return new double[] {
        floorAt(median(Window::commitP50Lower)), floorAt(median(Window::commitP50))
      };
    }

    private double floorAt(double commitP50) {
      double trips = roundTripMs();
      return steps().count() * commitP50
          + (Double.isNaN(trips) ? 0 : (FloorModel.jobs(workload) + 1) * trips)
          + median(Window::processingMsPerInstance);
    }

    /** PEL p50 over the floor: 1.0 means nothing is spent beyond it. */
    double pelOverFloor() {
      return median(Window::pelP50) / floor();
    }

    /** Per partition, the median over the windows of its PEL p50. */
    Map<Integer, Double> pelP50ByPartition() {
      Map<Integer, Double> medians = new TreeMap<>();
      windows.stream()
          .flatMap(window -> window.pelP50ByPartition().keySet().stream())
          .distinct()
          .forEach(
              partition ->
                  medians.put(
                      partition,
                      median(
                          window ->
                              window.pelP50ByPartition().getOrDefault(partition, Double.NaN))));
      return medians;
    }

    long refused() {
      return windows.stream().mapToLong(Window::refused).sum();
    }

    long failed() {
      return windows.stream().mapToLong(Window::failed).sum();
    }

    Map<String, Object> json() {
      Map<String, Object> json = new LinkedHashMap<>();
      json.put("workload", workload);
      json.put("configuration", configuration);
      json.put("keys", new LinkedHashMap<>(keys));
      json.put("ratePerSecond", rate);
      json.put("pelMsP50", median(Window::pelP50));
      json.put("pelMsP50Min", min(Window::pelP50));
      json.put("pelMsP50Max", max(Window::pelP50));
      json.put("pelMsP90", median(Window::pelP90));
      json.put("pelMsP99", median(Window::pelP99));
      json.put("pelMsMean", median(Window::pelMean));
      json.put("instancesPerSecond", median(Window::throughput));
      json.put("commitMsP50", median(Window::commitP50));
      json.put("commitMsP99", median(Window::commitP99));
      json.put("commitMsMean", median(Window::commitMean));
      json.put("processingMsP50", median(Window::processingP50));
      json.put("processingMsP99", median(Window::processingP99));
      json.put("processingMsMean", median(Window::processingMean));
      json.put("processingLatencyMsP50", median(Window::processingLatencyP50));
      json.put("processingLatencyMsP99", median(Window::processingLatencyP99));
      json.put("commitsPerInstance", median(Window::commitsPerInstance));
      json.put("commandsPerInstance", median(Window::commandsPerInstance));
      json.put("commitShareMs", commitShare());
      json.put("processingShareMs", processingShare());
      json.put("overheadMs", overhead());
      json.put("commitMsP50Interpolated", median(Window::commitP50Interpolated));
      json.put("processingMsPerInstance", median(Window::processingMsPerInstance));
      json.put("commitGatedSteps", steps().count());
      json.put("commitGatedStepsDerivation", steps().derivation());
      json.put("roundTripMs", roundTripMs());
      json.put("floorMs", floor());
      json.put("floorMsWithCommitP50AtBucketBounds", List.of(floorRange()[0], floorRange()[1]));
      json.put("pelP50OverFloor", pelOverFloor());
      Map<String, Object> byPartition = new LinkedHashMap<>();
      pelP50ByPartition().forEach((partition, ms) -> byPartition.put(partition.toString(), ms));
      json.put("pelMsP50ByPartition", byPartition);
      json.put("refused", refused());
      json.put("failed", failed());
      Map<String, Object> trips = new LinkedHashMap<>();
      roundTripMsByPartition.forEach((partition, ms) -> trips.put(partition.toString(), ms));
      json.put("roundTripMsByPartition", trips);
      List<Map<String, Object>> each = new ArrayList<>();
      for (Window window : windows) {
        Map<String, Object> one = new LinkedHashMap<>();
        one.put("instances", window.instances());
        one.put("seconds", window.seconds());
        one.put("pelMsP50", window.pelP50());
        one.put("pelMsP99", window.pelP99());
        one.put("commitMsP50", window.commitP50());
        one.put("commitsPerInstance", window.commitsPerInstance());
        one.put("commandsPerInstance", window.commandsPerInstance());
        each.add(one);
      }
      json.put("windows", each);
      return json;
    }
  }
}

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
      Map<Integer, Double> pelP50ByPartition) {

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
          p50ByPartition(load));
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

    /** The lowest PEL these commits allow: commits per instance x commit latency p50. */
    double floor() {
      return median(Window::commitsPerInstance) * median(Window::commitP50);
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
      json.put("floorMs", floor());
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

package io.tern.benchmark.soak;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import javax.imageio.ImageIO;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's time-series plots, one per signal (drawn with XChart as PNG): a line per broker,
 * partition or replica where the signal has one each, and the baseline's run dashed where one is
 * given. A long run is drawn from at most {@link #MAX_POINTS} points a line (means of consecutive
 * intervals), so that a week's plot stays light.
 */
final class SoakPlots {
  static final int MAX_POINTS = 1500;
  private static final int WIDTH = 960;
  private static final int HEIGHT = 300;
  private static final BasicStroke DASHED =
      new BasicStroke(
          1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {5f, 4f}, 0f);

  /** One drawn plot. */
  record Plot(String id, String title, String description, byte[] png) {}

  /** What a plot shows: the signals it draws, by label. */
  private record Spec(
      String id, String title, String unit, String description, Map<String, String> lines) {}

  static {
    // In memory, not through a cache file: ImageIO would otherwise register a shutdown hook for
    // it, which fails while the JVM shuts down (SIGTERM), when the soak writes its last report.
    ImageIO.setUseCache(false);
  }

  private SoakPlots() {}

  /** Every plot of {@code series}; {@code baseline} may be null. */
  static List<Plot> all(SoakSeries series, SoakSeries baseline, Thresholds limits) {
    List<Spec> specs = new ArrayList<>();
    specs.add(
        spec(
            "throughput",
            "Throughput",
            "per second",
            "instances sent, accepted, completed, refused by backpressure and failed",
            fixed(
                Signals.SENT,
                "sent",
                Signals.STARTED,
                "started",
                Signals.COMPLETED,
                "completed",
                Signals.REJECTED,
                "rejected",
                Signals.FAILED,
                "failed")));
    specs.add(
        spec(
            "pel",
            "Process instance execution latency (PEL)",
            "ms",
            "from the instance's send to its end, seen by the soak's client; the line is the SLO",
            fixed(
                Signals.PEL_P50,
                "p50",
                Signals.PEL_P90,
                "p90",
                Signals.PEL_P99,
                "p99",
                Signals.PEL_MAX,
                "max")));
    specs.add(
        spec(
            "job-activation",
            "Job activation latency p99",
            "ms",
            "a job's creation to its activation, the brokers' histogram",
            fixed(Signals.JOB_ACTIVATION_P99, "p99")));
    specs.add(
        spec(
            "commit",
            "Commit latency p99",
            "ms",
            "proposal to commit on the leaders",
            fixed(Signals.COMMIT_P99, "p99")));
    specs.add(
        spec(
            "processing",
            "Processing latency p99",
            "ms",
            "a command's write to its processing",
            fixed(Signals.PROCESSING_P99, "p99")));
    specs.add(
        perBroker(
            series,
            "heap",
            "Heap after GC",
            "MB",
            "heap left by the latest collections, per broker",
            Signals.HEAP_AFTER_GC));
    specs.add(
        perBroker(
            series,
            "rss",
            "Resident memory (RSS)",
            "MB",
            "per broker process, with the journal's mapped pages",
            Signals.RSS));
    specs.add(
        perBroker(
            series,
            "rss-anonymous",
            "Anonymous resident memory",
            "MB",
            "per broker process: RSS without mapped files, what a leak grows",
            Signals.RSS_ANONYMOUS));
    specs.add(perBroker(series, "gc", "GC pause time", "ms per s", "per broker", Signals.GC_PAUSE));
    specs.add(perBroker(series, "cpu", "Broker CPU", "cores", "per broker process", Signals.CPU));
    specs.add(
        spec(
            "cpu-per-instance",
            "CPU per instance",
            "ms",
            "all brokers' CPU over the instances completed",
            fixed(Signals.CPU_PER_INSTANCE, "all brokers")));
    specs.add(perReplica(series, "disk-journal", "Disk: journal", "MB", Signals.DISK_JOURNAL));
    specs.add(
        perReplica(series, "disk-snapshots", "Disk: snapshots", "MB", Signals.DISK_SNAPSHOTS));
    specs.add(
        perReplica(series, "disk-runtime", "Disk: runtime state", "MB", Signals.DISK_RUNTIME));
    specs.add(
        perReplica(
            series, "snapshot-count", "Snapshot count", "snapshots", Signals.SNAPSHOT_COUNT));
    specs.add(
        spec(
            "backpressure",
            "Backpressure limit",
            "commands",
            "per partition, its leader's",
            named(series, name -> name.endsWith("." + Signals.BACKPRESSURE_LIMIT))));
    specs.add(
        spec(
            "leader-changes",
            "Leader changes",
            "per interval",
            "as the members saw them",
            fixed(Signals.LEADER_CHANGES, "leader changes")));
    specs.add(
        spec(
            "client-cpu",
            "Soak client CPU",
            "cores",
            "the soak process' own",
            fixed(Signals.CLIENT_CPU, "soak client")));
    specs.add(
        spec(
            "client-heap",
            "Soak client heap after GC",
            "MB",
            "the soak process' own",
            fixed(Signals.CLIENT_HEAP, "soak client")));
    List<Plot> plots = new ArrayList<>();
    for (Spec spec : specs) {
      XYChart chart = chart(spec, series, baseline);
      if (spec.id().equals("pel")) {
        chart.addAnnotation(new AnnotationLine(limits.sloP99().toMillis(), false, false));
      }
      plots.add(
          new Plot(
              spec.id(), spec.title(), spec.description() + " (" + spec.unit() + ")", png(chart)));
    }
    return plots;
  }

  private static Spec spec(
      String id, String title, String unit, String description, Map<String, String> lines) {
    return new Spec(id, title, unit, description, lines);
  }

  private static Spec perBroker(
      SoakSeries series, String id, String title, String unit, String description, String suffix) {
    return spec(
        id, title, unit, description, named(series, name -> Signals.isBrokers(name, suffix)));
  }

  private static Spec perReplica(
      SoakSeries series, String id, String title, String unit, String suffix) {
    return spec(
        id,
        title,
        unit,
        "per partition replica",
        named(series, name -> name.contains(".partition.") && name.endsWith("." + suffix)));
  }

  private static Map<String, String> fixed(String... signalsAndLabels) {
    Map<String, String> lines = new LinkedHashMap<>();
    for (int i = 0; i < signalsAndLabels.length; i += 2) {
      lines.put(signalsAndLabels[i], signalsAndLabels[i + 1]);
    }
    return lines;
  }

  private static Map<String, String> named(SoakSeries series, Predicate<String> filter) {
    Map<String, String> lines = new LinkedHashMap<>();
    series.names(filter).forEach(name -> lines.put(name, Signals.owner(name)));
    return lines;
  }

  private static XYChart chart(Spec spec, SoakSeries series, SoakSeries baseline) {
    boolean hours = series.spanS() > 3 * 3600;
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(spec.title())
            .xAxisTitle(hours ? "hours" : "minutes")
            .yAxisTitle(spec.unit())
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setMarkerSize(0);
    chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(14f));
    double scale = hours ? 3600 : 60;
    int drawn = 0;
    for (Map.Entry<String, String> line : spec.lines().entrySet()) {
      drawn += line(chart, line.getValue(), series, line.getKey(), scale, null) ? 1 : 0;
      if (baseline != null && spec.lines().size() <= 5) {
        line(chart, line.getValue() + " (baseline)", baseline, line.getKey(), scale, DASHED);
      }
    }
    if (drawn == 0) {
      XYSeries none = chart.addSeries("not recorded", new double[] {0}, new double[] {0});
      none.setMarker(SeriesMarkers.NONE);
    }
    return chart;
  }

  /** Adds {@code signal} of {@code series} as a line; false if it has no value at all. */
  private static boolean line(
      XYChart chart,
      String label,
      SoakSeries series,
      String signal,
      double scale,
      BasicStroke stroke) {
    double[][] points = downsample(series.elapsedS(), series.values(signal));
    boolean any = false;
    for (double y : points[1]) {
      any |= Double.isFinite(y);
    }
    if (!any) {
      return false;
    }
    for (int i = 0; i < points[0].length; i++) {
      points[0][i] /= scale;
      if (Double.isInfinite(points[1][i])) {
        points[1][i] = Double.NaN;
      }
    }
    XYSeries drawn = chart.addSeries(label, points[0], points[1]);
    drawn.setMarker(SeriesMarkers.NONE);
    if (stroke != null) {
      drawn.setLineStyle(stroke);
      drawn.setLineColor(Color.GRAY);
    }
    return true;
  }

  /** At most {@link #MAX_POINTS} points: means of consecutive runs of intervals, NaNs left out. */
  static double[][] downsample(double[] x, double[] y) {
    int n = x.length;
    int per = Math.max(1, (n + MAX_POINTS - 1) / MAX_POINTS);
    int points = (n + per - 1) / per;
    double[][] out = new double[2][points];
    for (int p = 0; p < points; p++) {
      double sum = 0;
      int count = 0;
      int to = Math.min(n, (p + 1) * per);
      for (int i = p * per; i < to; i++) {
        if (!Double.isNaN(y[i])) {
          sum += y[i];
          count++;
        }
      }
      out[0][p] = x[to - 1];
      out[1][p] = count == 0 ? Double.NaN : sum / count;
    }
    return out;
  }

  private static byte[] png(XYChart chart) {
    try {
      return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

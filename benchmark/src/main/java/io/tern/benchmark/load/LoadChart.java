package io.tern.benchmark.load;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A load run's seconds as one PNG of three panels sharing the time axis: instances ended and
 * refused per second; end-to-end latency p50 and p99; each partition leader's backpressure limit
 * and commands in flight. Vertical lines mark where the measured window starts and ends.
 */
final class LoadChart {
  private static final int WIDTH = 1000;
  private static final int PANEL_HEIGHT = 300;
  private static final Color[] PALETTE = {
    new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd),
    new Color(0xff7f0e), new Color(0x8c564b), new Color(0x17becf), new Color(0x7f7f7f)
  };
  private static final BasicStroke DASHED =
      new BasicStroke(
          1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);

  private LoadChart() {}

  static void write(Path png, String title, List<LoadReporter.Row> rows) throws IOException {
    double[] seconds = rows.stream().mapToDouble(LoadReporter.Row::seconds).toArray();
    XYChart rates = panel(title, "per second");
    line(rates, "ended", seconds, rows.stream().mapToDouble(LoadReporter.Row::ended).toArray());
    line(rates, "refused", seconds, rows.stream().mapToDouble(LoadReporter.Row::refused).toArray());

    XYChart latency = panel("End-to-end latency", "ms");
    line(
        latency,
        "p50",
        seconds,
        rows.stream().mapToDouble(LoadReporter.Row::latencyMsP50).toArray());
    line(
        latency,
        "p99",
        seconds,
        rows.stream().mapToDouble(LoadReporter.Row::latencyMsP99).toArray());

    XYChart limiter = panel("Backpressure, per partition leader", "commands");
    TreeSet<Integer> partitions = new TreeSet<>();
    rows.forEach(row -> partitions.addAll(row.partitions().keySet()));
    int index = 0;
    for (int partition : partitions) {
      // One colour per partition: its limit a solid line, its commands in flight a dashed one.
      Color colour = PALETTE[index++ % PALETTE.length];
      line(limiter, "p" + partition + " limit", seconds, gauge(rows, partition, true))
          .setLineColor(colour);
      line(limiter, "p" + partition + " in flight", seconds, gauge(rows, partition, false))
          .setLineColor(colour)
          .setLineStyle(DASHED);
    }
    if (partitions.isEmpty()) {
      line(limiter, "no gauges", seconds, new double[seconds.length]);
    }

    List<XYChart> panels = List.of(rates, latency, limiter);
    markWindow(panels, rows);
    Path parent = png.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (OutputStream out = Files.newOutputStream(png)) {
      BitmapEncoder.saveBitmap(panels, panels.size(), 1, out, BitmapEncoder.BitmapFormat.PNG);
    }
  }

  private static XYChart panel(String title, String yTitle) {
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(PANEL_HEIGHT)
            .title(title)
            .xAxisTitle("seconds")
            .yAxisTitle(yTitle)
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setMarkerSize(0);
    chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(14f));
    chart.getStyler().setXAxisTickMarkSpacingHint(80); // a label every few seconds, not each
    chart.getStyler().setXAxisDecimalPattern("#,##0");
    return chart;
  }

  private static XYSeries line(XYChart chart, String name, double[] x, double[] y) {
    if (x.length == 0) {
      x = new double[] {0};
      y = new double[] {0};
    }
    XYSeries series = chart.addSeries(name, x, y);
    series.setMarker(SeriesMarkers.NONE);
    return series;
  }

  /** A partition's limit (or in flight) per row; NaN where it had no leader, a gap in the line. */
  private static double[] gauge(List<LoadReporter.Row> rows, int partition, boolean limit) {
    double[] values = new double[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      LimiterGauges.Partition gauge = rows.get(i).partitions().get(partition);
      values[i] = gauge == null ? Double.NaN : limit ? gauge.limit() : gauge.inFlight();
    }
    return values;
  }

  /** Lines at the start and the end of the measured window. */
  private static void markWindow(List<XYChart> panels, List<LoadReporter.Row> rows) {
    List<Double> edges = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      boolean measured = rows.get(i).phase().equals("measure");
      boolean before = i > 0 && rows.get(i - 1).phase().equals("measure");
      if (measured && !before) {
        edges.add(rows.get(i).seconds() - 1); // the row covers the second before it
      } else if (!measured && before) {
        edges.add(rows.get(i - 1).seconds());
      }
    }
    for (XYChart panel : panels) {
      for (double edge : edges) {
        panel.addAnnotation(new AnnotationLine(edge, true, false));
      }
    }
  }
}

package io.tern.benchmark.raft;

import io.tern.benchmark.common.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The figures of a run, one row per figure with one column per cluster under test, printed as a
 * table and written as JSON. A value is a number in the row's unit, a text (settings), or absent
 * with the reason in the notes.
 */
final class RaftReport {

  /**
   * One figure for every cluster.
   *
   * @param lowerIsBetter how to read the ratio column (latencies: below 1 means Tern is faster)
   */
  record Row(
      String scenario,
      String mode,
      int partitions,
      String metric,
      String unit,
      boolean lowerIsBetter,
      Map<String, Object> values) {}

  private final List<String> clusters;

  /** Column headers: the name a cluster gave itself (with its version), by its key. */
  private final Map<String, String> clusterNames = new LinkedHashMap<>();

  private final Map<String, Object> environment = new LinkedHashMap<>();
  private final Map<String, Object> settings = new LinkedHashMap<>();

  /** Per cluster, per flush mode: what the cluster said it ran with. */
  private final Map<String, Map<String, Map<String, String>>> clusterSettings =
      new LinkedHashMap<>();

  private final List<Row> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private final List<RaftTargets.Verdict> verdicts = new ArrayList<>();
  private final Set<String> uncompared = new HashSet<>();

  /** The ratio column divides Tern's figure by this cluster's: the first other one measured. */
  private final String baseline;

  RaftReport(List<String> clusters) {
    this.clusters = List.copyOf(clusters);
    this.baseline =
        clusters.stream().filter(c -> !c.equals(Clusters.TERN)).findFirst().orElse(null);
  }

  void environment(String key, Object value) {
    environment.put(key, value);
  }

  void setting(String key, Object value) {
    settings.put(key, value);
  }

  void clusterName(String cluster, String name) {
    clusterNames.put(cluster, name);
  }

  void clusterSettings(String cluster, String mode, Map<String, String> values) {
    clusterSettings
        .computeIfAbsent(cluster, c -> new LinkedHashMap<>())
        .put(mode, new LinkedHashMap<>(values));
  }

  void note(String note) {
    if (!notes.contains(note)) {
      notes.add(note);
    }
  }

  List<Row> rows() {
    return rows;
  }

  /** The row for this figure, or null if no cluster reported it. */
  Row find(String scenario, String mode, int partitions, String metric, String unit) {
    for (Row row : rows) {
      if (row.scenario().equals(scenario)
          && row.mode().equals(mode)
          && row.partitions() == partitions
          && row.metric().equals(metric)
          && row.unit().equals(unit)) {
        return row;
      }
    }
    return null;
  }

  /** The run's verdicts on the targets, printed after the notes. */
  void verdicts(List<RaftTargets.Verdict> values) {
    verdicts.clear();
    verdicts.addAll(values);
  }

  /** The row for this figure, created empty on first use, so clusters fill it one by one. */
  Row row(
      String scenario,
      String mode,
      int partitions,
      String metric,
      String unit,
      boolean lowerIsBetter) {
    Row existing = find(scenario, mode, partitions, metric, unit);
    if (existing != null) {
      return existing;
    }
    Row row =
        new Row(scenario, mode, partitions, metric, unit, lowerIsBetter, new LinkedHashMap<>());
    rows.add(row);
    return row;
  }

  void put(
      String scenario,
      String mode,
      int partitions,
      String metric,
      String unit,
      boolean lowerIsBetter,
      String cluster,
      Object value) {
    row(scenario, mode, partitions, metric, unit, lowerIsBetter).values().put(cluster, value);
  }

  /** The baseline cluster's value in this row, or null. */
  Object baselineValue(Row row) {
    return baseline == null ? null : row.values().get(baseline);
  }

  /** Figures about the machine, not the cluster: their ratio would read as a merit of Tern's. */
  void withoutRatio(String metric) {
    uncompared.add(metric);
  }

  /** Tern's figure over the baseline's, NaN unless both are numbers. */
  double ratio(Row row) {
    if (uncompared.contains(row.metric())) {
      return Double.NaN;
    }
    Object tern = row.values().get(Clusters.TERN);
    Object other = baseline == null ? null : row.values().get(baseline);
    if (tern instanceof Double t && other instanceof Double o && o != 0) {
      return t / o;
    }
    return Double.NaN;
  }

  String ratioName() {
    return Clusters.TERN + "/" + (baseline == null ? "?" : baseline);
  }

  // ---------------------------------------------------------------- table

  void printTable(PrintStream out) {
    List<String> header = new ArrayList<>(List.of("Scenario", "Mode", "Parts", "Metric"));
    for (String cluster : clusters) {
      header.add(clusterNames.getOrDefault(cluster, cluster));
    }
    header.add(ratioName());
    List<String[]> cells = new ArrayList<>();
    cells.add(header.toArray(String[]::new));
    for (Row row : rows) {
      List<String> line = new ArrayList<>();
      line.add(row.scenario());
      line.add(row.mode());
      line.add(row.partitions() == 0 ? "" : Integer.toString(row.partitions()));
      line.add(row.metric() + (row.unit().isEmpty() ? "" : " (" + row.unit() + ")"));
      for (String cluster : clusters) {
        line.add(format(row.values().get(cluster)));
      }
      double ratio = ratio(row);
      line.add(Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.2fx", ratio));
      cells.add(line.toArray(String[]::new));
    }
    int columns = header.size();
    int[] widths = new int[columns];
    for (String[] line : cells) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], line[i].length());
      }
    }
    String previousScenario = null;
    for (int r = 0; r < cells.size(); r++) {
      String[] line = cells.get(r);
      if (r == 1 || (r > 1 && !line[0].equals(previousScenario))) {
        out.println(separator(widths));
      }
      previousScenario = line[0];
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        // Text columns left-aligned, figures right-aligned.
        boolean numeric = i >= 4 && r > 0;
        String format = numeric ? "%" + widths[i] + "s" : "%-" + widths[i] + "s";
        text.append(i == 0 ? "" : " | ").append(String.format(Locale.ROOT, format, line[i]));
      }
      out.println(text.toString().stripTrailing());
    }
    out.println(separator(widths));
    for (Map.Entry<String, Map<String, Map<String, String>>> cluster : clusterSettings.entrySet()) {
      printSettings(
          out, clusterNames.getOrDefault(cluster.getKey(), cluster.getKey()), cluster.getValue());
    }
    for (String note : notes) {
      out.println("* " + note);
    }
    if (!verdicts.isEmpty()) {
      out.println();
      out.println("Targets:");
      for (RaftTargets.Verdict verdict : verdicts) {
        out.println("  " + verdict.line());
      }
    }
  }

  /** Settings shared by all modes once, then those that differ per mode (the flush mapping). */
  private static void printSettings(
      PrintStream out, String name, Map<String, Map<String, String>> byMode) {
    Map<String, String> first = byMode.values().iterator().next();
    List<String> shared = new ArrayList<>();
    List<String> perMode = new ArrayList<>();
    for (String key : first.keySet()) {
      boolean same = byMode.values().stream().allMatch(m -> first.get(key).equals(m.get(key)));
      (same ? shared : perMode).add(key);
    }
    out.println("* " + name + ":");
    for (String key : shared) {
      out.println("    " + key + ": " + first.get(key));
    }
    for (String key : perMode) {
      for (Map.Entry<String, Map<String, String>> mode : byMode.entrySet()) {
        out.println("    " + key + ", " + mode.getKey() + ": " + mode.getValue().get(key));
      }
    }
  }

  private static String separator(int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < widths.length; i++) {
      line.append(i == 0 ? "" : "-+-").append("-".repeat(widths[i]));
    }
    return line.toString();
  }

  static String format(Object value) {
    if (value == null) {
      return "n/a";
    }
    if (value instanceof Double d) {
      double magnitude = Math.abs(d);
      boolean whole = d == Math.rint(d);
      String format = magnitude >= 100 || whole ? "%,.0f" : magnitude >= 10 ? "%.1f" : "%.2f";
      return String.format(Locale.ROOT, format, d);
    }
    return value.toString();
  }

  // ---------------------------------------------------------------- JSON

  void writeJson(Path file) throws IOException {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("benchmark", "raft");
    root.put("environment", environment);
    root.put("settings", settings);
    root.put("clusterNames", clusterNames);
    root.put("clusterSettings", clusterSettings);
    List<Object> results = new ArrayList<>();
    for (Row row : rows) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("scenario", row.scenario());
      result.put("flushMode", row.mode());
      result.put("partitions", row.partitions() == 0 ? null : row.partitions());
      result.put("metric", row.metric());
      result.put("unit", row.unit());
      result.put("lowerIsBetter", row.lowerIsBetter());
      result.put("values", row.values());
      double ratio = ratio(row);
      result.put("ratio", Double.isNaN(ratio) ? null : ratio);
      results.add(result);
    }
    root.put("ratio", ratioName());
    root.put("results", results);
    root.put("notes", notes);
    List<Object> targets = new ArrayList<>();
    for (RaftTargets.Verdict verdict : verdicts) {
      Map<String, Object> target = new LinkedHashMap<>();
      target.put("target", verdict.target());
      target.put("figure", verdict.figure());
      target.put("limit", verdict.limit());
      target.put("pass", verdict.pass());
      target.put("comment", verdict.comment());
      targets.add(target);
    }
    root.put("targets", targets);
    Json.write(file, root);
  }
}

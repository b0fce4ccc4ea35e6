package io.tern.benchmark.journal;

import io.tern.benchmark.common.Json;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of a run, each next to the machine's limit it should be read against, printed as a
 * table and written as JSON. Values are kept in the unit they are shown in (MB/s, µs, ms).
 */
final class Report {

  enum Verdict {
    PASS,
    FAIL,
    /** A figure without a target: context for the others. */
    INFO
  }

  /**
   * One figure.
   *
   * @param entryBytes 0 when the figure does not depend on an entry size
   * @param limitValue NaN when there is no comparable limit
   */
  record Row(
      String phase,
      int entryBytes,
      String metric,
      String unit,
      double value,
      double limitValue,
      String limitName,
      String target,
      Verdict verdict) {

    double ratio() {
      return Double.isNaN(limitValue) || limitValue == 0 ? Double.NaN : value / limitValue;
    }
  }

  private final Map<String, Object> environment = new LinkedHashMap<>();
  private final Map<String, Object> settings = new LinkedHashMap<>();
  private final Map<String, Object> machineLoad = new LinkedHashMap<>();
  private final List<Row> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  void environment(String key, Object value) {
    environment.put(key, value);
  }

  void setting(String key, Object value) {
    settings.put(key, value);
  }

  /** CPU cores other processes (and the hypervisor, as steal) took while phases ran. */
  void machineLoad(String phases, double otherProcessesCores, double stealCores) {
    Map<String, Object> load = new LinkedHashMap<>();
    load.put("otherProcessesCores", otherProcessesCores);
    load.put("stealCores", stealCores);
    machineLoad.put(phases, load);
  }

  void add(Row row) {
    rows.add(row);
  }

  void info(String phase, int entryBytes, String metric, String unit, double value) {
    add(new Row(phase, entryBytes, metric, unit, value, Double.NaN, "", "", Verdict.INFO));
  }

  void note(String note) {
    notes.add(note);
  }

  /** Orders rows by phase (names start with the phase number), keeping their order within one. */
  void sortByPhase() {
    rows.sort(Comparator.comparing(Row::phase));
  }

  boolean allTargetsMet() {
    return rows.stream().noneMatch(row -> row.verdict() == Verdict.FAIL);
  }

  // ---------------------------------------------------------------- table

  void printTable(PrintStream out) {
    String[] header = {
      "Phase", "Size", "Metric", "Journal", "Limit", "Ratio", "Target", "Result", "Limit is"
    };
    List<String[]> cells = new ArrayList<>();
    cells.add(header);
    for (Row row : rows) {
      double ratio = row.ratio();
      cells.add(
          new String[] {
            row.phase(),
            sizeLabel(row.entryBytes()),
            row.metric() + " (" + row.unit() + ")",
            number(row.value()),
            Double.isNaN(row.limitValue()) ? "" : number(row.limitValue()),
            Double.isNaN(ratio) ? "" : String.format(Locale.ROOT, "%.2fx", ratio),
            row.target(),
            row.verdict() == Verdict.INFO ? "" : row.verdict().name(),
            row.limitName()
          });
    }
    int[] widths = new int[header.length];
    for (String[] line : cells) {
      for (int i = 0; i < line.length; i++) {
        widths[i] = Math.max(widths[i], line[i].length());
      }
    }
    String previousPhase = null;
    for (int r = 0; r < cells.size(); r++) {
      String[] line = cells.get(r);
      if (r == 1 || (r > 1 && !line[0].equals(previousPhase))) {
        out.println(separator(widths));
      }
      previousPhase = line[0];
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < line.length; i++) {
        // Text columns left-aligned, numbers right-aligned.
        boolean numeric = i >= 3 && i <= 5 && r > 0;
        String format = numeric ? "%" + widths[i] + "s" : "%-" + widths[i] + "s";
        text.append(i == 0 ? "" : " | ").append(String.format(Locale.ROOT, format, line[i]));
      }
      out.println(text.toString().stripTrailing());
    }
    out.println(separator(widths));
    for (String note : notes) {
      out.println("* " + note);
    }
  }

  private static String separator(int[] widths) {
    StringBuilder line = new StringBuilder();
    for (int i = 0; i < widths.length; i++) {
      line.append(i == 0 ? "" : "-+-").append("-".repeat(widths[i]));
    }
    return line.toString();
  }

  static String sizeLabel(int entryBytes) {
    if (entryBytes == 0) {
      return "";
    }
    if (entryBytes % 1024 == 0) {
      return entryBytes / 1024 + " KiB";
    }
    return entryBytes + " B";
  }

  static String number(double value) {
    double magnitude = Math.abs(value);
    boolean whole = value == Math.rint(value);
    String format = magnitude >= 100 || whole ? "%,.0f" : magnitude >= 10 ? "%.1f" : "%.2f";
    return String.format(Locale.ROOT, format, value);
  }

  // ---------------------------------------------------------------- JSON

  void writeJson(Path file) throws IOException {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("benchmark", "journal");
    root.put("environment", environment);
    root.put("settings", settings);
    root.put("machineLoad", machineLoad);
    List<Object> results = new ArrayList<>();
    for (Row row : rows) {
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("phase", row.phase());
      result.put("entrySizeBytes", row.entryBytes() == 0 ? null : row.entryBytes());
      result.put("metric", row.metric());
      result.put("unit", row.unit());
      result.put("value", row.value());
      result.put("limitValue", row.limitValue());
      result.put("limit", row.limitName().isEmpty() ? null : row.limitName());
      result.put("ratio", row.ratio());
      result.put("target", row.target().isEmpty() ? null : row.target());
      result.put("verdict", row.verdict().name());
      results.add(result);
    }
    root.put("results", results);
    root.put("notes", notes);
    root.put("allTargetsMet", allTargetsMet());
    Json.write(file, root);
  }
}

package io.tern.benchmark.soak;

import io.tern.benchmark.common.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A soak's report, written into its directory from the series alone: {@code report.html}, one page
 * with nothing to fetch (each plot a PNG in a data URI), {@code report.md}, the summary with the
 * verdicts and their evidence, and {@code verdicts.json} for machines.
 */
final class SoakReport {
  static final String HTML = "report.html";
  static final String MARKDOWN = "report.md";
  static final String VERDICTS = "verdicts.json";

  private SoakReport() {}

  /**
   * Judges the run in {@code dir} (against {@code baselineDir}'s if given), writes the report and
   * returns the verdicts.
   */
  static List<Verdict> write(Path dir, SoakSeries series, Thresholds limits, Path baselineDir)
      throws IOException {
    List<Verdict> verdicts = new ArrayList<>(Verdicts.judge(series, limits));
    SoakSeries baseline = null;
    if (baselineDir != null) {
      baseline = SoakSeries.of(SoakLog.read(baselineDir));
      verdicts.add(Baseline.compare(series, baseline, limits.baselineTolerance()));
    }
    Map<String, String> setup = new LinkedHashMap<>(RunInfo.shown(RunInfo.read(dir)));
    setup.put("recorded", series.size() + " intervals over " + Format.duration(series.spanS()));
    if (baselineDir != null) {
      setup.put("baseline", baselineDir + " (" + baseline.size() + " intervals)");
    }
    List<SoakPlots.Plot> plots = SoakPlots.all(series, baseline, limits);
    Files.writeString(dir.resolve(HTML), html(setup, verdicts, plots), StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve(MARKDOWN), markdown(setup, verdicts, plots), StandardCharsets.UTF_8);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("passed", verdicts.stream().allMatch(Verdict::passed));
    json.put(
        "verdicts",
        verdicts.stream()
            .map(
                v -> {
                  Map<String, Object> entry = new LinkedHashMap<>();
                  entry.put("name", v.name());
                  entry.put("passed", v.passed());
                  entry.put("summary", v.summary());
                  entry.put("evidence", v.evidence());
                  return entry;
                })
            .toList());
    Json.write(dir.resolve(VERDICTS), json);
    return verdicts;
  }

  /** {@code soak-report}: the threshold options the run was started with. */
  static String[] thresholdArgs(Path dir) throws IOException {
    Properties info = RunInfo.read(dir);
    return RunInfo.thresholdArgs(info);
  }

  static String html(
      Map<String, String> setup, List<Verdict> verdicts, List<SoakPlots.Plot> plots) {
    StringBuilder page = new StringBuilder();
    boolean passed = verdicts.stream().allMatch(Verdict::passed);
    page.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>Tern soak report</title><style>")
        .append("body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}")
        .append("table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px;")
        .append("text-align:left;vertical-align:top}.pass{color:#1a7f37}.fail{color:#cf222e}")
        .append("img{max-width:100%}</style></head><body>\n");
    page.append("<h1>Tern soak report: <span class=\"")
        .append(passed ? "pass\">PASS" : "fail\">FAIL")
        .append("</span></h1>\n<table>\n");
    setup.forEach(
        (key, value) ->
            page.append("<tr><th>")
                .append(escape(key))
                .append("</th><td>")
                .append(escape(value))
                .append("</td></tr>\n"));
    page.append("</table>\n<h2>Verdicts</h2>\n<table>\n");
    page.append("<tr><th>verdict</th><th></th><th>why</th><th>evidence</th></tr>\n");
    for (Verdict verdict : verdicts) {
      page.append("<tr><td>")
          .append(verdict.name())
          .append("</td><td class=\"")
          .append(verdict.passed() ? "pass\">PASS" : "fail\">FAIL")
          .append("</td><td>")
          .append(escape(verdict.summary()))
          .append("</td><td><ul>");
      verdict.evidence().forEach(line -> page.append("<li>").append(escape(line)).append("</li>"));
      page.append("</ul></td></tr>\n");
    }
    page.append("</table>\n<h2>Signals</h2>\n");
    for (SoakPlots.Plot plot : plots) {
      page.append("<h3 id=\"")
          .append(plot.id())
          .append("\">")
          .append(escape(plot.title()))
          .append("</h3>\n<p>")
          .append(escape(plot.description()))
          .append("</p>\n")
          .append("<img alt=\"")
          .append(escape(plot.title()))
          .append("\" src=\"data:image/png;base64,")
          .append(Base64.getEncoder().encodeToString(plot.png()))
          .append("\">\n");
    }
    return page.append("</body></html>\n").toString();
  }

  static String markdown(
      Map<String, String> setup, List<Verdict> verdicts, List<SoakPlots.Plot> plots) {
    StringBuilder page = new StringBuilder();
    boolean passed = verdicts.stream().allMatch(Verdict::passed);
    page.append("# Tern soak report: ").append(passed ? "PASS" : "FAIL").append("\n\n");
    setup.forEach(
        (key, value) -> page.append("- ").append(key).append(": ").append(value).append('\n'));
    page.append("\n## Verdicts\n\n");
    for (Verdict verdict : verdicts) {
      page.append("- **")
          .append(verdict.passed() ? "PASS" : "FAIL")
          .append(' ')
          .append(verdict.name())
          .append("**: ")
          .append(verdict.summary())
          .append('\n');
      verdict.evidence().forEach(line -> page.append("  - ").append(line).append('\n'));
    }
    page.append("\nPlots (in ").append(HTML).append("): ");
    page.append(String.join(", ", plots.stream().map(SoakPlots.Plot::title).toList()));
    return page.append(".\n").toString();
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}

package io.tern.benchmark.soak;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * {@code DIR/soak.properties}: how the run was set up (for the report's heading), the threshold
 * options it ran with (so that {@code soak-report} judges it alike), and when it was started, each
 * time it was.
 */
final class RunInfo {
  static final String FILE = "soak.properties";
  static final String THRESHOLDS = "thresholds";
  private static final List<String> SHOWN =
      List.of(
          "workload",
          "rate",
          "workers",
          "capacity",
          "completionDelay",
          "streaming",
          "cluster",
          "interval",
          "duration",
          "starts");

  private RunInfo() {}

  static void record(SoakOptions options, String[] args) throws IOException {
    Files.createDirectories(options.dir);
    Properties info = read(options.dir);
    info.setProperty("workload", options.workload.name());
    info.setProperty("rate", Format.number(options.rate) + "/s");
    info.setProperty("workers", Integer.toString(options.workers));
    info.setProperty("capacity", Integer.toString(options.capacity));
    info.setProperty("completionDelay", options.completionDelay.toMillis() + "ms");
    info.setProperty("streaming", Boolean.toString(!options.polling));
    info.setProperty(
        "cluster",
        options.gateway != null
            ? "existing, gateway " + options.gateway + ", " + options.management.size() + " brokers"
            : String.format(
                "local, %d brokers, %d partitions, replication %d%s",
                options.brokers,
                options.partitions,
                options.replication,
                options.config.isEmpty() ? "" : ", " + options.config));
    info.setProperty("interval", Format.duration(options.interval.toMillis() / 1000.0));
    info.setProperty(
        "duration",
        options.duration.isZero()
            ? "until stopped"
            : Format.duration(options.duration.toMillis() / 1000.0));
    String starts = info.getProperty("starts", "");
    info.setProperty("starts", (starts.isEmpty() ? "" : starts + " ") + Instant.now());
    info.setProperty(THRESHOLDS, String.join(" ", ThresholdOptions.among(args)));
    try (Writer out = Files.newBufferedWriter(options.dir.resolve(FILE), StandardCharsets.UTF_8)) {
      info.store(out, "tern-benchmark soak " + String.join(" ", Arrays.asList(args)));
    }
  }

  static Properties read(Path dir) throws IOException {
    Properties info = new Properties();
    Path file = dir.resolve(FILE);
    if (Files.exists(file)) {
      try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        info.load(in);
      }
    }
    return info;
  }

  /** The setup, in a fixed order, for the report. */
  static Map<String, String> shown(Properties info) {
    Map<String, String> shown = new LinkedHashMap<>();
    for (String key : SHOWN) {
      if (info.getProperty(key) != null) {
        shown.put(key, info.getProperty(key));
      }
    }
    return shown;
  }

  /** The threshold options the run was started with. */
  static String[] thresholdArgs(Properties info) {
    String text = info.getProperty(THRESHOLDS, "").strip();
    return text.isEmpty() ? new String[0] : text.split(" ");
  }
}

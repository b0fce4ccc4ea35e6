package io.tern.engine.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configuration reference, generated from {@link ConfigKeys} so that it cannot drift: {@code
 * docs/configuration.md} (every key, its environment variable, default and meaning, by section) and
 * the annotated {@code config/tern.yaml} of the distribution (every key commented out at its
 * default). {@code ConfigReferenceTest} fails when either file differs from what this generates.
 */
public final class ConfigReference {
  /** Section titles by the keys' first segment, in the order sections first appear. */
  private static final Map<String, String> SECTIONS =
      Map.ofEntries(
          Map.entry("cluster", "Cluster"),
          Map.entry("network", "Network"),
          Map.entry("gateway", "Gateway"),
          Map.entry("management", "Management server"),
          Map.entry("security", "Security (all TLS settings)"),
          Map.entry("data", "Data and disk"),
          Map.entry("processing", "Processing"),
          Map.entry("log", "Log stream"),
          Map.entry("state", "State (RocksDB)"),
          Map.entry("journal", "Journal"),
          Map.entry("raft", "Raft"),
          Map.entry("backpressure", "Backpressure"),
          Map.entry("experimental", "Experiments (never in production)"),
          Map.entry("exporting", "Exporting (the exporters' director)"),
          Map.entry("logging", "Logging"));

  private ConfigReference() {}

  /** Writes both files: {@code ConfigReference <configuration.md> <tern.yaml>}. */
  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: ConfigReference <docs/configuration.md> <config/tern.yaml>");
      System.exit(2);
    }
    Files.writeString(Path.of(args[0]), markdown(), StandardCharsets.UTF_8);
    Files.writeString(Path.of(args[1]), yaml(), StandardCharsets.UTF_8);
  }

  /** The environment variable that sets {@code key}. */
  static String environmentVariable(String key) {
    return BrokerConfigLoader.environmentVariable(key);
  }

  static String markdown() {
    StringBuilder text = new StringBuilder();
    text.append("# Configuration reference\n\n")
        .append("<!-- Generated from ConfigKeys by ConfigReference; edit ConfigKeys, then run\n")
        .append(
            "     ./mvnw -q -pl engine test -Dtest=ConfigReferenceTest -Dtern.writeDocs=true -->\n\n")
        .append(
            String.join(
                "\n",
                "A broker (`bin/broker`) and a standalone gateway (`bin/gateway`) read these keys from, in order of",
                "precedence: `TERN_*` environment variables, the YAML file given as the only argument (else the",
                "file `TERN_CONFIG` names, else `config/tern.yaml` under the working directory if it exists), the",
                "distribution's own `config/tern.yaml` (beside `bin/`, read wherever the process is started from),",
                "and the defaults below. At start the log says which files were read. A YAML file takes nested maps",
                "or dotted keys; keys are case-insensitive. Unknown keys and bad values are all reported at start,",
                "each naming the key and where it was set, and the process exits with code 2. Durations take `ms`,",
                "`s`, `m`, `h`, `d` or ISO-8601 (`PT10S`); sizes take `KB`/`KiB`, `MB`/`MiB`, `GB`/`GiB` (all",
                "powers of 1024). The distribution's `config/tern.yaml` lists every key at its default, commented",
                "out.",
                ""));
    for (Map.Entry<String, List<ConfigKeys.Key>> section : bySection().entrySet()) {
      text.append("\n## ").append(title(section.getKey())).append("\n\n");
      text.append("| key | environment variable | default | meaning |\n");
      text.append("|---|---|---|---|\n");
      for (ConfigKeys.Key key : section.getValue()) {
        text.append("| `")
            .append(key.name())
            .append("` | `")
            .append(environmentVariable(key.name()))
            .append("` | ")
            .append(key.defaultValue().isEmpty() ? "(empty)" : "`" + key.defaultValue() + "`")
            .append(" | ")
            .append(key.meaning().replace("|", "\\|"))
            .append(" |\n");
      }
    }
    text.append("\n## Exporters\n\n")
        .append(
            String.join(
                "\n",
                "Exporters are loaded and configured at start (a broker whose exporter does not load or",
                "whose `configure` throws does not start) and run on each partition's leader, which",
                "hands them its committed records as Zeebe 8.6's; see [exporters.md](exporters.md).",
                "`<id>` is a name of your choosing; an exporter needs at least",
                "`className`. Any other key under `exporters.<id>` is refused.",
                "",
                ""));
    text.append("| key | environment variable | meaning |\n");
    text.append("|---|---|---|\n");
    for (ConfigKeys.Key key : ConfigKeys.EXPORTER_KEYS) {
      text.append("| `")
          .append(key.name())
          .append("` | `")
          .append(environmentVariable(key.name()))
          .append("` | ")
          .append(key.meaning().replace("|", "\\|"))
          .append(" |\n");
    }
    return text.toString();
  }

  static String yaml() {
    StringBuilder text = new StringBuilder();
    text.append("# Tern's configuration: every key at its default, commented out. Uncomment and\n")
        .append("# change what you need; TERN_* environment variables override this file (e.g.\n")
        .append("# TERN_CLUSTER_NODEID=1). bin/broker and bin/gateway always read this file;\n")
        .append("# a file given to them (or config/tern.yaml under the working directory) is\n")
        .append("# read after it, and its keys win. Reference: docs/configuration.md.\n")
        .append("# Generated from ConfigKeys by ConfigReference.\n");
    for (Map.Entry<String, List<ConfigKeys.Key>> section : bySection().entrySet()) {
      text.append("\n# --- ").append(title(section.getKey())).append(" ---\n");
      for (ConfigKeys.Key key : section.getValue()) {
        text.append("\n");
        for (String line : wrap(key.meaning(), 96)) {
          text.append("# ").append(line).append('\n');
        }
        text.append("# ")
            .append(key.name())
            .append(": ")
            .append(key.defaultValue().isEmpty() ? "\"\"" : yamlScalar(key.defaultValue()))
            .append('\n');
      }
    }
    return text.toString();
  }

  private static Map<String, List<ConfigKeys.Key>> bySection() {
    Map<String, List<ConfigKeys.Key>> sections = new LinkedHashMap<>();
    for (ConfigKeys.Key key : ConfigKeys.ALL) {
      String section = key.name().substring(0, key.name().indexOf('.'));
      sections.computeIfAbsent(section, s -> new java.util.ArrayList<>()).add(key);
    }
    return sections;
  }

  private static String title(String section) {
    String title = SECTIONS.get(section);
    if (title == null) {
      throw new IllegalStateException("no section title for keys starting with '" + section + "'");
    }
    return title;
  }

  /** A default as YAML reads it back as the same text. */
  private static String yamlScalar(String value) {
    boolean plain = value.matches("[A-Za-z0-9_./:,-]+") && !value.contains(": ");
    return plain ? value : "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static List<String> wrap(String text, int width) {
    List<String> lines = new java.util.ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        lines.add(line.toString());
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    if (line.length() > 0) {
      lines.add(line.toString());
    }
    return lines;
  }
}

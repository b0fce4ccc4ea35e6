package io.tern.engine.broker;

import io.tern.engine.exporter.ExporterDescriptor;
import io.tern.engine.gateway.history.HistoryReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The built-in history store's place among the exporters (key {@code exporting.history.enabled},
 * docs/history.md): when on, exporter {@code history} is the built-in class unless another is
 * named, and on a single broker its database defaults to an H2 file under the data directory. In a
 * cluster it runs only with a database URL, since an H2 file per broker would hold only the
 * partitions that broker led, and a new leader's file would miss the old one's history.
 */
final class HistoryDefaults {
  static final String ID = "history";
  static final String CLASS_NAME = "io.tern.exporter.history.HistoryExporter";
  static final String ENABLED_KEY = "exporting.history.enabled";

  private HistoryDefaults() {}

  /**
   * Adds the history store's defaults to {@code exporters}, reading the raw {@code values} (bad
   * values are left to {@link BrokerConfig#from}, which names them).
   */
  static void apply(Map<String, String> values, ExporterSettings exporters) {
    if (!"true".equals(lower(values.get(ENABLED_KEY)))) {
      return;
    }
    String named = exporters.className(ID);
    if (named != null && !named.isEmpty() && !named.equals(CLASS_NAME)) {
      return; // the id names an exporter of the user's own: it gets no defaults of ours
    }
    if (exporters.hasArg(ID, "url")) {
      exporters.builtIn(ID, CLASS_NAME, Map.of());
      return;
    }
    if (!"1".equals(values.getOrDefault("cluster.clusterSize", "1").strip())) {
      if (exporters.has(ID)) {
        // Args without a url: the exporter's own check names the missing url.
        exporters.builtIn(ID, CLASS_NAME, Map.of());
      }
      return; // otherwise Broker says at start why the store is off
    }
    Path file;
    try {
      file = Path.of(values.getOrDefault("data.directory", "data").strip(), ID, ID);
    } catch (InvalidPathException e) {
      return; // the data directory's own check names it
    }
    exporters.builtIn(ID, CLASS_NAME, Map.of("url", h2Url(file)));
  }

  /**
   * Where the REST searches read the history store: the database of the exporter {@code history}
   * when it is the built-in class, else null (no store, or one of the user's own that Tern cannot
   * read). Its args are read as the exporter reads them (names in any case, the password from
   * {@code passwordFile} when given); a password file that cannot be read leaves the searches
   * without a store (the exporter itself then stops the start, naming the file).
   */
  static HistoryReader.Location location(List<ExporterDescriptor> exporters) {
    for (ExporterDescriptor exporter : exporters) {
      if (!exporter.id().equals(ID) || !CLASS_NAME.equals(exporter.className())) {
        continue;
      }
      Map<String, String> args = new HashMap<>();
      exporter
          .args()
          .forEach((name, value) -> args.put(lower(name), value == null ? null : value.toString()));
      String url = args.get("url");
      if (url == null || url.isBlank()) {
        return null;
      }
      String password = args.get("password");
      String passwordFile = args.get("passwordfile");
      if (passwordFile != null) {
        try {
          password =
              Files.readString(Path.of(passwordFile.strip())).strip(); // as the exporter does
        } catch (IOException | InvalidPathException e) {
          return null;
        }
      }
      String username = args.get("username");
      return new HistoryReader.Location(
          url.strip(), username == null || username.isEmpty() ? null : username, password);
    }
    return null;
  }

  /** An H2 database in {@code file} (H2 adds {@code .mv.db}), by its absolute path. */
  static String h2Url(Path file) {
    return "jdbc:h2:file:" + file.toAbsolutePath().normalize();
  }

  private static String lower(String value) {
    return value == null ? null : value.strip().toLowerCase(Locale.ROOT);
  }
}

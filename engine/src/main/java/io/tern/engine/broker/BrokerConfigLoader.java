package io.tern.engine.broker;

import io.tern.engine.exporter.ExporterDescriptor;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

/**
 * Reads the broker's configuration: defaults, then the YAML files in order (nested maps or dotted
 * keys; a later file's key wins), then environment variables ({@code TERN_} + the key in upper case
 * with '_' for '.'). Unknown keys and bad values are reported all at once, each naming the key and
 * where it was set.
 */
public final class BrokerConfigLoader {
  /** Environment variables with the prefix that are not configuration keys. */
  private static final Set<String> NOT_KEYS = Set.of("TERN_HOME", "TERN_CONFIG", "TERN_JAVA_OPTS");

  private static final String ENV_PREFIX = "TERN_";

  private BrokerConfigLoader() {}

  /** A configuration that cannot be used: every problem, one per line. */
  public static final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ConfigException(List<String> problems) {
      super("invalid configuration:\n- " + String.join("\n- ", problems));
    }
  }

  /**
   * @param file the YAML file, or null for none
   * @param environment the process's environment (only {@code TERN_*} variables are read)
   * @throws ConfigException naming every unknown key and bad value
   */
  public static BrokerConfig load(Path file, Map<String, String> environment) {
    return loadFiles(file == null ? List.of() : List.of(file), environment);
  }

  /**
   * @param files the YAML files, lowest precedence first (a key set in two takes the later one's
   *     value)
   * @param environment the process's environment (only {@code TERN_*} variables are read)
   * @throws ConfigException naming every unknown key and bad value, and the file it is in
   */
  public static BrokerConfig loadFiles(List<Path> files, Map<String, String> environment) {
    List<String> problems = new ArrayList<>();
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, String> origins = new LinkedHashMap<>();
    for (ConfigKeys.Key key : ConfigKeys.ALL) {
      values.put(key.name(), key.defaultValue()); // no origin: see Values.isDefault
    }
    ExporterSettings exporters = new ExporterSettings(problems);
    for (Path file : files) {
      readFile(file, values, origins, exporters, problems);
    }
    environment.forEach(
        (name, value) -> {
          if (!name.startsWith(ENV_PREFIX) || NOT_KEYS.contains(name)) {
            return;
          }
          if (ExporterSettings.isExporterVariable(name)) {
            exporters.fromEnvironment(name, value);
            return;
          }
          String dotted =
              name.substring(ENV_PREFIX.length()).replace('_', '.').toLowerCase(Locale.ROOT);
          ConfigKeys.Key key = ConfigKeys.BY_LOWER_NAME.get(dotted);
          ConfigKeys.RemovedKey removed = key == null ? ConfigKeys.removed(dotted) : null;
          if (removed != null) {
            problems.add(removedKey(removed, value, "environment variable " + name));
          } else if (key == null) {
            problems.add(
                "environment variable "
                    + name
                    + " names no configuration key ("
                    + dotted
                    + ")"
                    + ConfigKeys.suggestion(dotted, true));
          } else {
            values.put(key.name(), value);
            origins.put(key.name(), "environment variable " + name);
          }
        });
    HistoryDefaults.apply(values, exporters);
    // The known keys' values are checked even when some keys are unknown: one run names every
    // problem.
    Values resolved = new Values(values, origins, exporters.descriptors(), problems);
    BrokerConfig config = BrokerConfig.from(resolved);
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    return config;
  }

  private static void readFile(
      Path file,
      Map<String, String> values,
      Map<String, String> origins,
      ExporterSettings exporters,
      List<String> problems) {
    if (!Files.exists(file)) {
      problems.add("configuration file " + file + " not found");
      return;
    }
    if (!Files.isRegularFile(file)) {
      problems.add("configuration file " + file + " is not a regular file");
      return;
    }
    Object document;
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      document = new Load(LoadSettings.builder().build()).loadFromReader(reader);
    } catch (IOException e) {
      problems.add("cannot read " + file + ": " + e.getMessage());
      return;
    } catch (YamlEngineException e) {
      problems.add(file + " is not valid YAML: " + e.getMessage());
      return;
    }
    if (document == null) {
      return; // an empty file
    }
    if (!(document instanceof Map<?, ?> root)) {
      problems.add(file + " must hold a mapping of keys to values");
      return;
    }
    flatten("", root, file, values, origins, exporters, problems);
  }

  private static void flatten(
      String prefix,
      Map<?, ?> map,
      Path file,
      Map<String, String> values,
      Map<String, String> origins,
      ExporterSettings exporters,
      List<String> problems) {
    map.forEach(
        (name, value) -> {
          String dotted = prefix + name;
          if (ExporterSettings.isExporterKey(dotted)) {
            exporters.fromFile(dotted, value, file); // args stay maps: not flattened
            return;
          }
          if (value instanceof Map<?, ?> nested) {
            flatten(dotted + ".", nested, file, values, origins, exporters, problems);
            return;
          }
          ConfigKeys.Key key = ConfigKeys.BY_LOWER_NAME.get(dotted.toLowerCase(Locale.ROOT));
          ConfigKeys.RemovedKey removed = key == null ? ConfigKeys.removed(dotted) : null;
          if (removed != null) {
            problems.add(removedKey(removed, String.valueOf(value), file.toString()));
          } else if (key == null) {
            problems.add(
                file + ": unknown key '" + dotted + "'" + ConfigKeys.suggestion(dotted, false));
          } else if (value == null || value instanceof List<?>) {
            problems.add(file + ": '" + dotted + "' needs a single value");
          } else {
            values.put(key.name(), value.toString());
            origins.put(key.name(), file.toString());
          }
        });
  }

  /** "'journal.writeMode' = 'mmap' (from ...) is no longer a setting: why". */
  private static String removedKey(ConfigKeys.RemovedKey key, String value, String origin) {
    return "'"
        + key.name()
        + "' = '"
        + value
        + "' (from "
        + origin
        + ") is no longer a setting (remove it): "
        + key.reason();
  }

  /** Size units, longest first so that "KIB" is not read as "B" after a number "...KI". */
  private static final String[][] SIZE_UNITS = {
    {"KIB", "1024"},
    {"MIB", "1048576"},
    {"GIB", "1073741824"},
    {"KB", "1024"},
    {"MB", "1048576"},
    {"GB", "1073741824"},
    {"K", "1024"},
    {"M", "1048576"},
    {"G", "1073741824"},
    {"B", "1"}
  };

  /** Typed access to the resolved values; a bad value adds a problem naming key and origin. */
  static final class Values {
    private final Map<String, String> values;
    private final Map<String, String> origins;
    private final List<ExporterDescriptor> exporters;
    private final List<String> problems;

    Values(
        Map<String, String> values,
        Map<String, String> origins,
        List<ExporterDescriptor> exporters,
        List<String> problems) {
      this.values = values;
      this.origins = origins;
      this.exporters = exporters;
      this.problems = problems;
    }

    /** The exporters configured under {@code exporters.<id>} ({@link ExporterSettings}). */
    List<ExporterDescriptor> exporters() {
      return exporters;
    }

    /** True when {@code key} was set neither in a file nor in the environment. */
    boolean isDefault(String key) {
      return !origins.containsKey(key);
    }

    /** Where {@code key} was set: a file's path, an environment variable, or "default". */
    String origin(String key) {
      return origins.getOrDefault(key, "default");
    }

    String text(String key) {
      String value = values.get(key);
      if (value == null) {
        throw new IllegalArgumentException("no configuration key " + key);
      }
      return value.strip();
    }

    int integer(String key, int min, int max) {
      try {
        long value = Long.parseLong(text(key));
        if (value >= min && value <= max) {
          return (int) value;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      bad(key, "a whole number from " + min + " to " + max);
      return min;
    }

    double decimal(String key) {
      try {
        return Double.parseDouble(text(key));
      } catch (NumberFormatException e) {
        bad(key, "a decimal number");
        return 0;
      }
    }

    boolean bool(String key) {
      String value = text(key).toLowerCase(Locale.ROOT);
      if (value.equals("true") || value.equals("false")) {
        return Boolean.parseBoolean(value);
      }
      bad(key, "true or false");
      return false;
    }

    /** A duration, as {@link Durations} reads it. */
    Duration duration(String key) {
      String value = text(key);
      try {
        return Durations.parse(value);
      } catch (IllegalArgumentException e) {
        bad(key, "a duration: " + Durations.EXPECTED);
        return Duration.ofSeconds(1);
      }
    }

    /**
     * A size in bytes: a number with an optional unit, KB, MB or GB, or KiB, MiB or GiB, or K, M or
     * G; all are powers of 1024 (as Zeebe reads them).
     */
    long bytes(String key) {
      String value = text(key).toUpperCase(Locale.ROOT).replace(" ", "");
      long factor = 1;
      for (String[] unit : SIZE_UNITS) {
        if (value.endsWith(unit[0])) {
          factor = Long.parseLong(unit[1]);
          value = value.substring(0, value.length() - unit[0].length());
          break;
        }
      }
      try {
        long number = Long.parseLong(value);
        if (number >= 0) {
          return Math.multiplyExact(number, factor);
        }
      } catch (RuntimeException e) {
        // reported below
      }
      bad(key, "a size in bytes, such as 1048576, 512KB, 64MiB or 2GB");
      return 0;
    }

    void bad(String key, String expected) {
      problems.add(
          "'"
              + key
              + "' = '"
              + values.get(key)
              + "' (from "
              + origins.getOrDefault(key, "default")
              + ") must be "
              + expected);
    }

    void problem(String text) {
      problems.add(text);
    }
  }

  /** The environment variable that sets {@code key}: {@code TERN_} and the key in upper case. */
  public static String environmentVariable(String key) {
    return ENV_PREFIX + key.replace('.', '_').toUpperCase(Locale.ROOT);
  }
}

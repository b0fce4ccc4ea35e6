package io.tern.engine.broker;

import io.tern.engine.exporter.ExporterDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Collects {@code exporters.<id>.*} from the YAML files and the environment into {@link
 * ExporterDescriptor}s (docs/exporters.md).
 *
 * <ul>
 *   <li>An id is a key under {@code exporters}; ids are case-insensitive and kept in lower case.
 *   <li>Under an id: {@code className}, {@code jarPath} (relative: to the working directory) and
 *       {@code args}, a map of anything YAML holds; other keys are refused.
 *   <li>{@code TERN_EXPORTERS_<ID>_CLASSNAME} and {@code TERN_EXPORTERS_<ID>_JARPATH} set the first
 *       two; {@code TERN_EXPORTERS_<ID>_ARGS_<NAME>} sets the arg {@code <name>} in lower case,
 *       each further {@code _} a level of nesting ({@code ARGS_BULK_SIZE} is {@code
 *       args.bulk.size}), as Zeebe's {@code ZEEBE_BROKER_EXPORTERS_...} variables do. The id is
 *       what lies between {@code EXPORTERS_} and the setting, so it may hold {@code _}.
 *   <li>Later sources win, arg by arg; an arg's name matches an earlier one in any case (an
 *       environment variable overrides the file's {@code clusterName} and keeps that spelling).
 * </ul>
 */
final class ExporterSettings {
  static final String PREFIX = "exporters";
  private static final String ENV_PREFIX = "TERN_EXPORTERS_";

  /** By id: className, jarPath (text) and args, as set so far. */
  private final Map<String, Entry> entries = new TreeMap<>();

  private final List<String> problems;

  private static final class Entry {
    String className;
    String jarPath;
    final Map<String, Object> args = new LinkedHashMap<>();
  }

  ExporterSettings(List<String> problems) {
    this.problems = problems;
  }

  /** Whether a dotted key from a file is an exporter's ({@code exporters} or under it). */
  static boolean isExporterKey(String dotted) {
    String lower = dotted.toLowerCase(Locale.ROOT);
    return lower.equals(PREFIX) || lower.startsWith(PREFIX + ".");
  }

  /** Whether an environment variable is an exporter's. */
  static boolean isExporterVariable(String name) {
    return name.startsWith(ENV_PREFIX);
  }

  /**
   * A key of a file at or under {@code exporters}, with its value (a map is taken whole: the loader
   * does not flatten it first).
   */
  void fromFile(String dotted, Object value, Path file) {
    String[] parts = dotted.split("\\.", 4);
    if (parts.length < 3) {
      if (value instanceof Map<?, ?> map) {
        if (parts.length == 2) { // an exporter, even if none of its keys is right
          entries.computeIfAbsent(parts[1].toLowerCase(Locale.ROOT), any -> new Entry());
        }
        map.forEach((name, nested) -> fromFile(dotted + "." + name, nested, file));
      } else if (value != null) {
        problems.add(
            file
                + ": '"
                + dotted
                + "' must be a mapping"
                + (parts.length == 1 ? " of exporter ids" : " of className, jarPath and args"));
      }
      return;
    }
    String id = parts[1].toLowerCase(Locale.ROOT);
    String setting = parts[2].toLowerCase(Locale.ROOT);
    if (setting.equals("args")) {
      List<String> path = parts.length == 4 ? List.of(parts[3].split("\\.")) : List.of();
      putArg(id, path, value, file + ": '" + dotted + "'");
      return;
    }
    if (parts.length == 4 || !(setting.equals("classname") || setting.equals("jarpath"))) {
      problems.add(file + ": unknown key '" + dotted + "'" + EXPECTED);
      return;
    }
    if (value == null || value instanceof Map<?, ?> || value instanceof List<?>) {
      problems.add(file + ": '" + dotted + "' needs a single value");
      return;
    }
    set(id, setting, value.toString());
  }

  private static final String EXPECTED =
      " (an exporter takes className, jarPath and args: docs/exporters.md)";

  /** {@code TERN_EXPORTERS_<ID>_CLASSNAME}, {@code _JARPATH} or {@code _ARGS_<NAME>}. */
  void fromEnvironment(String name, String value) {
    String rest = name.substring(ENV_PREFIX.length());
    int args = rest.indexOf("_ARGS_");
    if (rest.endsWith("_CLASSNAME") && rest.length() > "_CLASSNAME".length()) {
      set(id(rest, "_CLASSNAME".length()), "classname", value);
    } else if (rest.endsWith("_JARPATH") && rest.length() > "_JARPATH".length()) {
      set(id(rest, "_JARPATH".length()), "jarpath", value);
    } else if (args > 0 && args + "_ARGS_".length() < rest.length()) {
      String id = rest.substring(0, args).toLowerCase(Locale.ROOT);
      List<String> path =
          List.of(rest.substring(args + "_ARGS_".length()).toLowerCase(Locale.ROOT).split("_"));
      putArg(id, path, value, "environment variable " + name);
    } else {
      problems.add(
          "environment variable "
              + name
              + " names no exporter setting: TERN_EXPORTERS_<ID>_CLASSNAME, _JARPATH or"
              + " _ARGS_<NAME> (docs/exporters.md)");
    }
  }

  private static String id(String rest, int suffixLength) {
    return rest.substring(0, rest.length() - suffixLength).toLowerCase(Locale.ROOT);
  }

  private void set(String id, String setting, String value) {
    Entry entry = entries.computeIfAbsent(id, any -> new Entry());
    if (setting.equals("classname")) {
      entry.className = value.strip();
    } else {
      entry.jarPath = value.strip();
    }
  }

  private void putArg(String id, List<String> path, Object value, String origin) {
    Map<String, Object> args = entries.computeIfAbsent(id, any -> new Entry()).args;
    if (path.isEmpty()) {
      if (value instanceof Map<?, ?> map) {
        merge(args, map);
      } else if (value != null) {
        problems.add(origin + " must be a mapping of argument names to values");
      }
      return;
    }
    Map<String, Object> target = args;
    for (String name : path.subList(0, path.size() - 1)) {
      String key = existingKey(target, name);
      Object nested = target.get(key);
      if (!(nested instanceof Map<?, ?>)) {
        nested = new LinkedHashMap<String, Object>();
        target.put(key, nested);
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> map = (Map<String, Object>) nested;
      target = map;
    }
    String last = path.get(path.size() - 1);
    put(target, last, value);
  }

  /** Puts every entry of {@code source} into {@code target}: maps are merged, the rest replaced. */
  private static void merge(Map<String, Object> target, Map<?, ?> source) {
    source.forEach((name, value) -> put(target, String.valueOf(name), value));
  }

  private static void put(Map<String, Object> target, String name, Object value) {
    String key = existingKey(target, name);
    Object current = target.get(key);
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> nested = new LinkedHashMap<>();
      if (current instanceof Map<?, ?> existing) {
        merge(nested, existing);
      }
      merge(nested, map);
      target.put(key, nested);
    } else {
      target.put(key, value);
    }
  }

  /** The key of {@code map} that equals {@code name} ignoring case, else {@code name}. */
  private static String existingKey(Map<String, Object> map, String name) {
    for (String key : map.keySet()) {
      if (key.equalsIgnoreCase(name)) {
        return key;
      }
    }
    return name;
  }

  /** Whether an exporter {@code id} was configured at all (a class, a jar or any arg). */
  boolean has(String id) {
    return entries.containsKey(id);
  }

  /** The class exporter {@code id} names, or null. */
  String className(String id) {
    Entry entry = entries.get(id);
    return entry == null ? null : entry.className;
  }

  /** Whether exporter {@code id} was given the arg {@code name} (in any case). */
  boolean hasArg(String id, String name) {
    Entry entry = entries.get(id);
    return entry != null && entry.args.containsKey(existingKey(entry.args, name));
  }

  /**
   * A built-in exporter's defaults under {@code id}: its class where none was named (so that args
   * alone configure it) and {@code args} not set by the user.
   */
  void builtIn(String id, String className, Map<String, Object> args) {
    Entry entry = entries.computeIfAbsent(id, any -> new Entry());
    if (entry.className == null || entry.className.isEmpty()) {
      entry.className = className;
    }
    args.forEach(
        (name, value) -> {
          if (!entry.args.containsKey(existingKey(entry.args, name))) {
            entry.args.put(name, value);
          }
        });
  }

  /** The exporters, by id; one without className is a problem. */
  List<ExporterDescriptor> descriptors() {
    List<ExporterDescriptor> descriptors = new ArrayList<>();
    entries.forEach(
        (id, entry) -> {
          if (entry.className == null || entry.className.isEmpty()) {
            problems.add(
                "exporter '"
                    + id
                    + "' has no class name: set exporters."
                    + id
                    + ".className (or "
                    + ENV_PREFIX
                    + id.toUpperCase(Locale.ROOT)
                    + "_CLASSNAME)");
          }
          Path jar = null;
          if (entry.jarPath != null && !entry.jarPath.isEmpty()) {
            try {
              jar = Path.of(entry.jarPath).toAbsolutePath();
            } catch (java.nio.file.InvalidPathException e) {
              problems.add(
                  "'exporters." + id + ".jarPath' = '" + entry.jarPath + "' is not a path");
            }
          }
          descriptors.add(new ExporterDescriptor(id, entry.className, jar, entry.args));
        });
    return List.copyOf(descriptors);
  }
}

package io.tern.engine.exporter;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One configured exporter: {@code exporters.<id>.className}, {@code .jarPath} and {@code .args}.
 *
 * @param id the exporter's id (the configuration's key, in lower case)
 * @param className the class implementing {@code io.camunda.zeebe.exporter.api.Exporter}, or null
 *     when none was configured (reported when the exporter is loaded)
 * @param jarPath the jar holding the exporter and its dependencies, or null: the class is then on
 *     the broker's class path
 * @param args what the exporter's {@code Configuration} hands it: values, maps and lists as the
 *     YAML file has them (strings from environment variables); copied, unmodifiable
 */
public record ExporterDescriptor(
    String id, String className, Path jarPath, Map<String, Object> args) {

  public ExporterDescriptor {
    Objects.requireNonNull(id, "id");
    args = args == null ? Map.of() : copy(args);
  }

  /** Whether the exporter comes from its own jar rather than from the broker's class path. */
  public boolean hasJar() {
    return jarPath != null;
  }

  /** A deep, unmodifiable copy: nested maps and lists too (null values are kept). */
  static Map<String, Object> copy(Map<String, ?> map) {
    Map<String, Object> copy = new LinkedHashMap<>();
    map.forEach((key, value) -> copy.put(key, copyValue(value)));
    return Collections.unmodifiableMap(copy);
  }

  private static Object copyValue(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> nested = new LinkedHashMap<>();
      map.forEach((key, item) -> nested.put(String.valueOf(key), item));
      return copy(nested);
    }
    if (value instanceof List<?> list) {
      List<Object> items = new ArrayList<>(list.size());
      list.forEach(item -> items.add(copyValue(item)));
      return Collections.unmodifiableList(items);
    }
    return value;
  }
}

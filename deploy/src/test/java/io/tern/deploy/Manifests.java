package io.tern.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Rendered manifests, with lookups by kind and name and by path inside one. */
record Manifests(List<Map<String, Object>> all) {

  List<Map<String, Object>> ofKind(String kind) {
    return all.stream().filter(m -> kind.equals(m.get("kind"))).toList();
  }

  /** The one manifest of this kind; fails unless exactly one. */
  Map<String, Object> one(String kind) {
    List<Map<String, Object>> found = ofKind(kind);
    assertThat(found).as("%s manifests among %s", kind, kinds()).hasSize(1);
    return found.get(0);
  }

  Map<String, Object> named(String kind, String name) {
    return ofKind(kind).stream()
        .filter(m -> name.equals(Charts.name(m)))
        .findFirst()
        .orElseThrow(
            () -> new AssertionError("no " + kind + " named " + name + " among " + names()));
  }

  List<String> kinds() {
    return all.stream().map(m -> String.valueOf(m.get("kind"))).toList();
  }

  List<String> names() {
    List<String> names = new ArrayList<>();
    all.forEach(m -> names.add(m.get("kind") + "/" + Charts.name(m)));
    return names;
  }

  /** The value at a dotted path ("spec.template.spec"); list elements by index ("containers.0"). */
  @SuppressWarnings("unchecked")
  static <T> T at(Object node, String path) {
    Object current = node;
    for (String part : path.split("\\.")) {
      if (current instanceof Map<?, ?> map) {
        current = map.get(part);
      } else if (current instanceof List<?> list) {
        current = list.get(Integer.parseInt(part));
      } else {
        throw new AssertionError("no " + part + " in " + path + " of " + node);
      }
    }
    return (T) current;
  }
}

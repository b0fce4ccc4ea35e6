package io.tern.engine.workflow.dmn;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The DMN engine's results are Scala values (maps, lists, big decimals): these become the Java
 * values that {@link io.tern.engine.workflow.variables.JsonValues} writes as JSON.
 */
final class ScalaValues {
  private ScalaValues() {}

  static Object toJava(Object value) {
    if (value instanceof scala.collection.Map<?, ?> map) {
      return toJava(CollectionConverters.asJava(map));
    }
    if (value instanceof scala.collection.Iterable<?> iterable) {
      return toJava(CollectionConverters.asJava(iterable));
    }
    if (value instanceof scala.math.BigDecimal decimal) {
      return decimal.bigDecimal();
    }
    if (value instanceof scala.math.BigInt integer) {
      return integer.bigInteger();
    }
    if (value instanceof scala.Option<?> option) {
      return option.isEmpty() ? null : toJava(option.get());
    }
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      map.forEach((k, v) -> copy.put(String.valueOf(k), toJava(v)));
      return copy;
    }
    if (value instanceof Iterable<?> iterable) {
      List<Object> copy = new ArrayList<>();
      iterable.forEach(item -> copy.add(toJava(item)));
      return copy;
    }
    return value;
  }
}

package io.tern.engine.exporter.records;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tern's JSON documents as Zeebe's exporter records show theirs. Zeebe keeps variables as
 * MessagePack and hands exporters Jackson's reading of them: a map of maps, lists, strings,
 * booleans, nulls, Integer where the number fits an int, else Long (BigInteger beyond), and Double
 * for every fraction. Jackson's default reading of the same document as JSON gives exactly those
 * types, so Tern's JSON text is read the same way. A variable's value is JSON text in Zeebe's
 * record, written back from MessagePack, so compact: Tern's text is re-written compactly too.
 */
final class Documents {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Documents() {}

  /** A variables document (a JSON object) as a map; none (no bytes, or blank) as an empty map. */
  static Map<String, Object> variables(byte[] json) {
    if (isBlank(json)) {
      return Collections.emptyMap();
    }
    try {
      // One pass: Jackson's untyped reading gives the map, list and number types of the tree's.
      Object document = JSON.readValue(json, Object.class);
      if (!(document instanceof Map<?, ?>)) {
        return Collections.emptyMap(); // the engine accepts only objects; nothing else was logged
      }
      @SuppressWarnings("unchecked")
      Map<String, Object> map = (Map<String, Object>) document;
      return frozen(map);
    } catch (IOException e) {
      throw new UncheckedIOException("variables that are not JSON: " + e.getMessage(), e);
    }
  }

  /**
   * A job's custom headers: text to text in Zeebe; Tern keeps them as a JSON object of strings (a
   * value of another kind, which the model never gives, is kept as its JSON text).
   */
  static Map<String, String> headers(byte[] json) {
    Map<String, String> headers = new LinkedHashMap<>();
    variables(json)
        .forEach(
            (name, value) ->
                headers.put(name, value instanceof String text ? text : compact(value)));
    return Collections.unmodifiableMap(headers);
  }

  /** One JSON value, compact (Zeebe's VariableRecordValue.getValue()); empty bytes: "null". */
  static String compactJson(byte[] json) {
    if (isBlank(json)) {
      return "null";
    }
    try {
      return JSON.writeValueAsString(JSON.readTree(json));
    } catch (IOException e) {
      throw new UncheckedIOException("a value that is not JSON: " + e.getMessage(), e);
    }
  }

  /** A JSON document as a tree (Tern's decision evaluation); empty bytes: an empty object. */
  static JsonNode tree(byte[] json) {
    if (isBlank(json)) {
      return JSON.createObjectNode();
    }
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException("a document that is not JSON: " + e.getMessage(), e);
    }
  }

  /** A resource's checksum: Tern writes it as hex text, Zeebe's record holds the digest's bytes. */
  static byte[] checksum(String hex) {
    try {
      return HexFormat.of().parseHex(hex);
    } catch (IllegalArgumentException notHex) {
      return hex.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
  }

  /** The map, and the maps and lists in it, unmodifiable: the record is handed on as it is. */
  private static Map<String, Object> frozen(Map<String, Object> map) {
    map.replaceAll((name, value) -> frozenEntry(value));
    return Collections.unmodifiableMap(map);
  }

  @SuppressWarnings("unchecked")
  private static Object frozenEntry(Object value) {
    if (value instanceof Map<?, ?> map) {
      return frozen((Map<String, Object>) map);
    }
    if (value instanceof List<?> list) {
      ((List<Object>) list).replaceAll(Documents::frozenEntry);
      return Collections.unmodifiableList(list);
    }
    return value;
  }

  private static String compact(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean isBlank(byte[] json) {
    for (byte b : json) {
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return false;
      }
    }
    return true;
  }
}

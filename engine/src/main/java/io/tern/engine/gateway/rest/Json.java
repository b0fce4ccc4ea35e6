package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.RawValue;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reading a request's JSON fields (a wrong type is a 400 naming the field) and writing Camunda's
 * shapes: keys are strings in both directions (numbers are accepted too), variables are objects.
 */
final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  /** A request body, its UTF-8 bytes: an object ({} for none). */
  static ObjectNode object(byte[] body) {
    if (body == null || body.length == 0) {
      return MAPPER.createObjectNode();
    }
    JsonNode node;
    try {
      node = MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw new InvalidRequest(
          "the request body is not valid JSON: "
              + e.getOriginalMessage()
              + " (line "
              + e.getLocation().getLineNr()
              + ", column "
              + e.getLocation().getColumnNr()
              + ")");
    } catch (IOException e) {
      throw new UncheckedIOException(e); // from bytes in memory: not expected
    }
    if (node == null || node.isNull() || node.isMissingNode()) {
      return MAPPER.createObjectNode();
    }
    if (!node.isObject()) {
      throw new InvalidRequest("the request body must be a JSON object, not " + kind(node));
    }
    return (ObjectNode) node;
  }

  private static JsonNode field(ObjectNode body, String name) {
    JsonNode node = body.get(name);
    return node == null || node.isNull() ? null : node;
  }

  static String text(ObjectNode body, String name) {
    JsonNode node = field(body, name);
    if (node == null) {
      return "";
    }
    if (!node.isTextual()) {
      throw new InvalidRequest("'" + name + "' must be a string, not " + kind(node));
    }
    return node.textValue();
  }

  static long number(ObjectNode body, String name, long absent) {
    JsonNode node = field(body, name);
    if (node == null) {
      return absent;
    }
    if (!node.canConvertToLong() || !node.isIntegralNumber()) {
      throw new InvalidRequest("'" + name + "' must be a whole number, not " + kind(node));
    }
    return node.longValue();
  }

  static int integer(ObjectNode body, String name, int absent) {
    long value = number(body, name, absent);
    if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
      throw new InvalidRequest("'" + name + "' is out of range: " + value);
    }
    return (int) value;
  }

  static boolean bool(ObjectNode body, String name) {
    JsonNode node = field(body, name);
    if (node == null) {
      return false;
    }
    if (!node.isBoolean()) {
      throw new InvalidRequest("'" + name + "' must be true or false, not " + kind(node));
    }
    return node.booleanValue();
  }

  /**
   * A key: a string of digits, as Camunda sends keys, or a number; 0 when absent or not positive
   * (the client sends -1 for "none").
   */
  static long key(ObjectNode body, String name) {
    JsonNode node = field(body, name);
    if (node == null) {
      return 0;
    }
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return Math.max(0, node.longValue());
    }
    if (node.isTextual()) {
      try {
        return Math.max(0, Long.parseLong(node.textValue()));
      } catch (NumberFormatException e) {
        throw new InvalidRequest(
            "'" + name + "' must be a key (a string of digits), not '" + node.textValue() + "'");
      }
    }
    throw new InvalidRequest(
        "'" + name + "' must be a key (a string of digits), not " + kind(node));
  }

  /** A key from a path or field {@code name}. */
  static long key(String name, String text) {
    try {
      long key = Long.parseLong(text);
      if (key > 0) {
        return key;
      }
    } catch (NumberFormatException e) {
      // said below
    }
    throw new InvalidRequest(
        "'" + name + "' must be a key (a positive number), not '" + text + "'");
  }

  /** A variables document: a JSON object, as text ("" when absent: none). */
  static String variables(ObjectNode body, String name) {
    JsonNode node = field(body, name);
    if (node == null) {
      return "";
    }
    if (!node.isObject()) {
      throw new InvalidRequest("'" + name + "' must be a JSON object, not " + kind(node));
    }
    return node.toString();
  }

  static List<String> texts(ObjectNode body, String name) {
    JsonNode node = field(body, name);
    List<String> texts = new ArrayList<>();
    if (node == null) {
      return texts;
    }
    if (!node.isArray()) {
      throw new InvalidRequest("'" + name + "' must be an array of strings, not " + kind(node));
    }
    for (JsonNode element : node) {
      if (!element.isTextual()) {
        throw new InvalidRequest("'" + name + "' must hold strings only, not " + kind(element));
      }
      texts.add(element.textValue());
    }
    return texts;
  }

  /** An array of objects ([] when absent). */
  static List<ObjectNode> objects(ObjectNode body, String name) {
    JsonNode node = field(body, name);
    List<ObjectNode> objects = new ArrayList<>();
    if (node == null) {
      return objects;
    }
    if (!node.isArray()) {
      throw new InvalidRequest("'" + name + "' must be an array of objects, not " + kind(node));
    }
    for (JsonNode element : node) {
      if (!(element instanceof ObjectNode object)) {
        throw new InvalidRequest("'" + name + "' must hold objects only, not " + kind(element));
      }
      objects.add(object);
    }
    return objects;
  }

  /** Refuses a field Tern does not run, rather than ignore it. */
  static void unsupported(ObjectNode body, String name, String why) {
    JsonNode node = field(body, name);
    if (node != null && !(node.isContainerNode() && node.isEmpty())) {
      throw new InvalidRequest("'" + name + "' is not supported by Tern: " + why);
    }
  }

  /**
   * Puts a JSON document of the engine's ("{}" for none) into {@code parent} as it is: the engine
   * wrote it as JSON, so it is neither parsed nor written again.
   */
  static void putDocument(ObjectNode parent, String name, String text) {
    parent.putRawValue(name, new RawValue(text == null || text.isEmpty() ? "{}" : text));
  }

  private static String kind(JsonNode node) {
    return switch (node.getNodeType()) {
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case ARRAY -> "an array";
      case OBJECT -> "an object";
      default -> node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}

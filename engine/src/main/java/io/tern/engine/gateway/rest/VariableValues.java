package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import io.tern.engine.gateway.rest.SearchFilters.Where;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A filter on a variable's value (table alias {@code v}), the value given as JSON text as Camunda
 * takes it ({@code "\"A-1\""} for the text A-1, {@code "12"} for the number). A value that is not
 * JSON is taken as a text ({@code "A-1"} finds the text A-1 too): the client's {@code
 * variables(Map)} sends its values' {@code toString()}. Equality reads the (name, value_prefix)
 * index: a value of up to the prefix's length is matched by the prefix of a value that is no
 * longer; a longer one by its prefix, then in full.
 */
final class VariableValues {
  /** The length of {@code variable.value_prefix} (docs/history.md). */
  static final int PREFIX = 256;

  private static final String FULL = "CAST(v.value_json AS VARCHAR(1000000))";
  private static final Set<String> OPERATORS =
      Set.of("$eq", "$neq", "$exists", "$in", "$notIn", "$like");

  private static final ObjectReader STRICT =
      Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private VariableValues() {}

  static void add(Where where, String name, JsonNode node) {
    if (node == null || node.isNull()) {
      return;
    }
    if (!node.isObject()) {
      equal(where, json(SearchFilters.text(name, node)), false);
      return;
    }
    for (Iterator<Map.Entry<String, JsonNode>> entries = node.fields(); entries.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = entries.next();
      String operator = entry.getKey();
      String at = name + "." + operator;
      JsonNode operand = entry.getValue();
      if (!OPERATORS.contains(operator)) {
        throw new InvalidRequest(
            "'" + at + "' is not a filter operator of '" + name + "' (it takes " + OPERATORS + ")");
      }
      if (operand == null || operand.isNull()) {
        continue;
      }
      switch (operator) {
        case "$eq" -> equal(where, json(SearchFilters.text(at, operand)), false);
        case "$neq" -> equal(where, json(SearchFilters.text(at, operand)), true);
        case "$exists" -> {
          if (!operand.isBoolean()) {
            throw new InvalidRequest("'" + at + "' must be true or false, not " + operand);
          }
          // A variable always has a value (null is the JSON text null).
          if (!operand.booleanValue()) {
            where.add("1 = 0");
          }
        }
        case "$in" -> anyOf(where, texts(at, operand), false);
        case "$notIn" -> anyOf(where, texts(at, operand), true);
        case "$like" ->
            where.add(
                FULL + " LIKE ? ESCAPE '\\'", SearchFilters.like(SearchFilters.text(at, operand)));
        default -> throw new IllegalStateException(operator);
      }
    }
  }

  private static void equal(Where where, String value, boolean not) {
    anyOf(where, List.of(value), not);
  }

  private static void anyOf(Where where, List<String> values, boolean not) {
    if (values.isEmpty()) {
      return; // the client sends "$in": [] for a filter it was not given
    }
    List<String> alternatives = new ArrayList<>();
    List<Object> parameters = new ArrayList<>();
    for (String value : values) {
      if (value.length() <= PREFIX) {
        alternatives.add("(v.value_prefix = ? AND v.value_truncated = FALSE)");
        parameters.add(value);
      } else {
        alternatives.add("(v.value_prefix = ? AND v.value_truncated = TRUE AND " + FULL + " = ?)");
        parameters.add(prefix(value));
        parameters.add(value);
      }
    }
    String any = "(" + String.join(" OR ", alternatives) + ")";
    where.add(not ? "NOT " + any : any, parameters);
  }

  /** {@code value} as the store writes JSON (compact), or as a JSON text when it is not JSON. */
  static String json(String value) {
    try {
      return STRICT.readTree(value).toString();
    } catch (JsonProcessingException e) {
      return Json.MAPPER.getNodeFactory().textNode(value).toString();
    }
  }

  /** The exporter's prefix of a long value: never ending in half a surrogate pair. */
  private static String prefix(String value) {
    int end = Character.isHighSurrogate(value.charAt(PREFIX - 1)) ? PREFIX - 1 : PREFIX;
    return value.substring(0, end);
  }

  private static List<String> texts(String name, JsonNode node) {
    if (!node.isArray()) {
      throw new InvalidRequest("'" + name + "' must be an array of strings, not " + node);
    }
    List<String> texts = new ArrayList<>();
    for (JsonNode element : node) {
      texts.add(json(SearchFilters.text(name, element)));
    }
    return texts;
  }
}

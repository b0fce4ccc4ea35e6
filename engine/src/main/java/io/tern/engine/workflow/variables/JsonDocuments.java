package io.tern.engine.workflow.variables;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Variables documents: JSON objects whose top-level entries are the variables. Values are kept as
 * the JSON text they were given in (no re-encoding), so what a worker sends is what the next one
 * gets.
 */
public final class JsonDocuments {
  /** How deep a document may nest, against stack exhaustion by hostile input. */
  public static final int MAX_NESTING_DEPTH = 256;

  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .streamReadConstraints(
              StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING_DEPTH).build())
          .build();

  private JsonDocuments() {}

  /**
   * The variables of a document, name to JSON value, in document order; an empty or blank document
   * has none.
   *
   * @throws InvalidVariablesException if it is not one JSON object (saying what it is, or where the
   *     syntax breaks)
   */
  public static Map<String, byte[]> variables(byte[] document) {
    Map<String, byte[]> variables = new LinkedHashMap<>();
    if (isBlank(document)) {
      return variables;
    }
    try (JsonParser parser = FACTORY.createParser(document)) {
      JsonToken first = parser.nextToken();
      if (first != JsonToken.START_OBJECT) {
        throw new InvalidVariablesException(
            "variables must be a JSON object, like {\"amount\": 42}, but the document is "
                + describe(first));
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken token = parser.nextToken();
        int start = (int) parser.currentTokenLocation().getByteOffset();
        if (token.isStructStart()) {
          parser.skipChildren();
        } else {
          parser.finishToken(); // a string's end is only known once it is read
        }
        int end = (int) parser.currentLocation().getByteOffset();
        variables.put(name, Arrays.copyOfRange(document, start, end));
      }
      if (parser.nextToken() != null) {
        throw new InvalidVariablesException(
            "variables must be one JSON object; more follows it at byte "
                + parser.currentTokenLocation().getByteOffset());
      }
    } catch (JsonProcessingException e) {
      com.fasterxml.jackson.core.JsonLocation where = e.getLocation();
      throw new InvalidVariablesException(
          "variables are not valid JSON: "
              + e.getOriginalMessage()
              + (where == null
                  ? ""
                  : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")"));
    } catch (IOException e) {
      throw new InvalidVariablesException("variables cannot be read: " + e.getMessage());
    }
    return variables;
  }

  /**
   * A JSON value as Java objects for FEEL: objects as maps, arrays as lists, numbers as Long or
   * BigDecimal, strings, booleans, null.
   *
   * @throws InvalidVariablesException if the value is not valid JSON
   */
  public static Object toJava(byte[] json) {
    try (JsonParser parser = FACTORY.createParser(json)) {
      parser.nextToken();
      return read(parser);
    } catch (IOException e) {
      throw new InvalidVariablesException("a variable is not valid JSON: " + e.getMessage());
    }
  }

  private static Object read(JsonParser parser) throws IOException {
    JsonToken token = parser.currentToken();
    if (token == null) {
      return null;
    }
    switch (token) {
      case START_OBJECT -> {
        Map<String, Object> object = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
          String name = parser.currentName();
          parser.nextToken();
          object.put(name, read(parser));
        }
        return object;
      }
      case START_ARRAY -> {
        java.util.List<Object> array = new java.util.ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
          array.add(read(parser));
        }
        return array;
      }
      case VALUE_STRING -> {
        return parser.getText();
      }
      case VALUE_NUMBER_INT -> {
        return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER
            ? new java.math.BigDecimal(parser.getBigIntegerValue())
            : (Object) parser.getLongValue();
      }
      case VALUE_NUMBER_FLOAT -> {
        return parser.getDecimalValue();
      }
      case VALUE_TRUE -> {
        return Boolean.TRUE;
      }
      case VALUE_FALSE -> {
        return Boolean.FALSE;
      }
      default -> {
        return null;
      }
    }
  }

  /** A JSON object of the given variables, in the map's order. */
  public static byte[] document(Map<String, byte[]> variables) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(64);
    out.write('{');
    boolean first = true;
    for (Map.Entry<String, byte[]> variable : variables.entrySet()) {
      if (!first) {
        out.write(',');
      }
      first = false;
      writeString(out, variable.getKey());
      out.write(':');
      out.writeBytes(variable.getValue());
    }
    out.write('}');
    return out.toByteArray();
  }

  private static void writeString(ByteArrayOutputStream out, String text) {
    StringBuilder json = new StringBuilder(text.length() + 2).append('"');
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20) {
        json.append(String.format("\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    out.writeBytes(json.append('"').toString().getBytes(StandardCharsets.UTF_8));
  }

  private static boolean isBlank(byte[] document) {
    for (byte b : document) {
      if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
        return false;
      }
    }
    return true;
  }

  private static String describe(JsonToken token) {
    if (token == null) {
      return "empty";
    }
    return switch (token) {
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> token.toString();
    };
  }
}

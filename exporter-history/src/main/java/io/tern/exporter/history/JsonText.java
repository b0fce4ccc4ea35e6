package io.tern.exporter.history;

import java.util.List;
import java.util.Map;

/**
 * The JSON a user task's candidates and headers are stored as. A quote inside a string is written
 * {@code \u0022} (valid JSON, read back as a quote), never {@code \"}: a raw quote then only ever
 * delimits a string, so a search for a candidate is the exact {@code LIKE '%"name"%'} (the REST
 * gateway encodes the name it looks for the same way).
 */
final class JsonText {
  /** The width of the candidate columns ({@code VARCHAR(4000)}). */
  static final int LIST_LENGTH = 4000;

  private JsonText() {}

  /**
   * The names as a JSON array of at most {@link #LIST_LENGTH} characters, null for none. Names past
   * that are left out rather than cut: half a name would find tasks by a name nobody gave.
   */
  static String list(List<String> names) {
    if (names == null || names.isEmpty()) {
      return null;
    }
    StringBuilder json = new StringBuilder("[");
    for (String name : names) {
      String element = string(name);
      if (json.length() + element.length() + 2 > LIST_LENGTH) {
        break;
      }
      json.append(json.length() == 1 ? "" : ",").append(element);
    }
    return json.append(']').toString();
  }

  /** The map as a JSON object, null for none. */
  static String object(Map<String, String> entries) {
    if (entries == null || entries.isEmpty()) {
      return null;
    }
    StringBuilder json = new StringBuilder("{");
    entries.forEach(
        (key, value) ->
            json.append(json.length() == 1 ? "" : ",")
                .append(string(key))
                .append(':')
                .append(string(value)));
    return json.append('}').toString();
  }

  /** A JSON string, quotes inside it escaped as {@code \u0022}. */
  static String string(String text) {
    String value = text == null ? "" : text;
    StringBuilder json = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\\') {
        json.append("\\\\");
      } else if (c == '"' || c < 0x20) {
        json.append(String.format("\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    return json.append('"').toString();
  }
}

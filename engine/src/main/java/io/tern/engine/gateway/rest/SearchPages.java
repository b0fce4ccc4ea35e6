package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A search's {@code page}: {@code limit} (100 by default, at most 10,000, as Camunda's) and where
 * it starts, {@code from} an offset or {@code after}/{@code before} a cursor this API answered.
 * Cursors are opaque to clients: an offset into the sorted results and, in an end cursor, the key
 * of the row it follows. A search sorted by key alone (the default) reads the page after such a
 * cursor as the rows past that key, from the index, however deep (and without repeating or skipping
 * a row when rows were added before it); other sorts and start cursors use the offset (a page read
 * after rows were added can then repeat or skip one). Cursors without a key (answered before keys
 * were added to them) are read as offsets.
 */
final class SearchPages {
  static final int MAX_LIMIT = 10_000;

  private static final int DEFAULT_LIMIT = 100;
  private static final String CURSOR_PREFIX = "tern-offset:";

  /**
   * The rows to answer: {@code limit} of them from {@code offset} on, or, when {@code afterKey} is
   * not null and the search is sorted by key alone, those past that key ({@code offset} then only
   * says where they are in the results).
   */
  record Page(int offset, int limit, Long afterKey) {
    Page(int offset, int limit) {
      this(offset, limit, null);
    }
  }

  private SearchPages() {}

  static Page page(JsonNode page) {
    if (!page.isMissingNode() && !page.isNull() && !page.isObject()) {
      throw new InvalidRequest("'page' must be an object, not " + page.getNodeType());
    }
    int limit = limit(page.get("limit"));
    JsonNode from = page.get("from");
    JsonNode after = page.get("after");
    JsonNode before = page.get("before");
    int given = (present(from) ? 1 : 0) + (present(after) ? 1 : 0) + (present(before) ? 1 : 0);
    if (given > 1) {
      throw new InvalidRequest("'page' takes one of from, after and before, not several");
    }
    if (present(from)) {
      if (!from.canConvertToInt() || !from.isIntegralNumber() || from.intValue() < 0) {
        throw new InvalidRequest("'page.from' must be a whole number of at least 0, not " + from);
      }
      return new Page(from.intValue(), limit);
    }
    if (present(after)) {
      Cursor cursor = cursor("page.after", after);
      return new Page(cursor.offset(), limit, cursor.key());
    }
    if (present(before)) {
      // The page that ends where the cursor starts, shorter at the start of the results.
      int end = cursor("page.before", before).offset();
      int offset = Math.max(0, end - limit);
      return new Page(offset, end - offset);
    }
    return new Page(0, limit);
  }

  private static int limit(JsonNode limit) {
    if (!present(limit)) {
      return DEFAULT_LIMIT;
    }
    if (!limit.canConvertToInt()
        || !limit.isIntegralNumber()
        || limit.intValue() < 0
        || limit.intValue() > MAX_LIMIT) {
      throw new InvalidRequest(
          "'page.limit' must be a whole number from 0 to " + MAX_LIMIT + ", not " + limit);
    }
    return limit.intValue();
  }

  private static boolean present(JsonNode node) {
    return node != null && !node.isNull();
  }

  /** A cursor's content: the offset of the row it points at, and the key of the row before. */
  private record Cursor(int offset, Long key) {}

  /** The cursor of the row at {@code offset}. */
  static String cursor(int offset) {
    return encode(CURSOR_PREFIX + offset);
  }

  /** The cursor of the row at {@code offset}, which follows the row of {@code keyBefore}. */
  static String cursor(int offset, long keyBefore) {
    return encode(CURSOR_PREFIX + offset + ":" + keyBefore);
  }

  private static String encode(String cursor) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(cursor.getBytes(StandardCharsets.UTF_8));
  }

  private static Cursor cursor(String name, JsonNode node) {
    String text = node.asText("");
    try {
      String decoded = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
      if (decoded.startsWith(CURSOR_PREFIX)) {
        String[] parts = decoded.substring(CURSOR_PREFIX.length()).split(":", -1);
        int offset = Integer.parseInt(parts[0]);
        if (offset >= 0 && parts.length <= 2) {
          return new Cursor(offset, parts.length == 2 ? Long.valueOf(parts[1]) : null);
        }
      }
    } catch (IllegalArgumentException e) {
      // said below (NumberFormatException is one)
    }
    throw new InvalidRequest(
        "'" + name + "' is not a cursor of this API (give a startCursor or endCursor it answered)");
  }
}

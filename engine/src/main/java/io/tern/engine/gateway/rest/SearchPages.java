package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A search's {@code page}: {@code limit} (100 by default, at most 10,000, as Camunda's) and where
 * it starts, {@code from} an offset or {@code after}/{@code before} a cursor this API answered.
 * Cursors are offsets into the sorted results: a page read after rows were added can repeat or skip
 * a row that moved in between (Camunda's cursors hold the last row's sort values).
 */
final class SearchPages {
  static final int MAX_LIMIT = 10_000;

  private static final int DEFAULT_LIMIT = 100;
  private static final String CURSOR_PREFIX = "tern-offset:";

  /** The rows to answer: {@code limit} of them from {@code offset} on. */
  record Page(int offset, int limit) {}

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
      return new Page(cursor("page.after", after), limit);
    }
    if (present(before)) {
      // The page that ends where the cursor starts, shorter at the start of the results.
      int end = cursor("page.before", before);
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

  /** The cursor of the row at {@code offset}. */
  static String cursor(int offset) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString((CURSOR_PREFIX + offset).getBytes(StandardCharsets.UTF_8));
  }

  private static int cursor(String name, JsonNode node) {
    String text = node.asText("");
    try {
      String decoded = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
      if (decoded.startsWith(CURSOR_PREFIX)) {
        int offset = Integer.parseInt(decoded.substring(CURSOR_PREFIX.length()));
        if (offset >= 0) {
          return offset;
        }
      }
    } catch (IllegalArgumentException e) {
      // said below (NumberFormatException is one)
    }
    throw new InvalidRequest(
        "'" + name + "' is not a cursor of this API (give a startCursor or endCursor it answered)");
  }
}

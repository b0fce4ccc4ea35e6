package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import io.tern.engine.gateway.rest.SearchEntity.Field;
import io.tern.engine.gateway.rest.SearchEntity.Kind;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Camunda's search filters as SQL conditions over the history store: a field is either a plain
 * value (equals) or an object of operators ({@code $eq}, {@code $neq}, {@code $exists}, {@code
 * $in}, {@code $notIn}, {@code $like}, {@code $gt}, {@code $gte}, {@code $lt}, {@code $lte}), all
 * of which must hold. Values are bound as parameters, never written into the SQL. What a field's
 * type does not take is a 400 naming the field and the operator.
 */
final class SearchFilters {
  /** The conditions gathered (joined with AND) and their parameters, in order. */
  static final class Where {
    private final List<String> conditions = new ArrayList<>();
    private final List<Object> parameters = new ArrayList<>();
    private final Set<String> fixedColumns = new LinkedHashSet<>();

    void add(String condition, List<?> values) {
      conditions.add(condition);
      parameters.addAll(values);
    }

    void add(String condition, Object... values) {
      add(condition, List.of(values));
    }

    /** These conditions and {@code condition} (a new Where: this one is kept for the count). */
    Where and(String condition, Object value) {
      Where and = new Where();
      and.conditions.addAll(conditions);
      and.parameters.addAll(parameters);
      and.fixedColumns.addAll(fixedColumns);
      and.add(condition, value);
      return and;
    }

    String sql() {
      return conditions.isEmpty() ? "" : " WHERE " + String.join(" AND ", conditions);
    }

    List<Object> parameters() {
      return parameters;
    }

    /** The columns a condition holds to one value (in the order given): constant in the rows. */
    Set<String> fixedColumns() {
      return fixedColumns;
    }
  }

  /** A column of a table (an alias, a dot, a name), not an expression over it. */
  private static final Pattern COLUMN = Pattern.compile("[a-z]+\\.[a-z_]+");

  private static final Map<Kind, Set<String>> OPERATORS =
      Map.of(
          Kind.KEY, Set.of("$eq", "$neq", "$exists", "$in", "$notIn"),
          Kind.TEXT, Set.of("$eq", "$neq", "$exists", "$in", "$notIn", "$like"),
          Kind.INT, Set.of("$eq", "$neq", "$exists", "$in", "$notIn", "$gt", "$gte", "$lt", "$lte"),
          Kind.DATE,
              Set.of("$eq", "$neq", "$exists", "$in", "$notIn", "$gt", "$gte", "$lt", "$lte"),
          Kind.BOOL, Set.of("$eq", "$neq", "$exists"));

  private SearchFilters() {}

  /** Adds {@code field}'s filter {@code node}, named {@code name} in messages. */
  static void add(Where where, String name, Field field, JsonNode node) {
    if (node == null || node.isNull()) {
      return;
    }
    if (!node.isObject()) {
      equal(where, field.sql(), value(name, field, node));
      return;
    }
    if (node.isEmpty()) {
      return;
    }
    Set<String> allowed = OPERATORS.get(field.kind());
    Iterator<Map.Entry<String, JsonNode>> operators = node.fields();
    while (operators.hasNext()) {
      Map.Entry<String, JsonNode> entry = operators.next();
      String operator = entry.getKey();
      JsonNode operand = entry.getValue();
      String at = name + "." + operator;
      if (!allowed.contains(operator)) {
        throw new InvalidRequest(
            "'" + at + "' is not a filter operator of '" + name + "' (it takes " + allowed + ")");
      }
      if (operand == null || operand.isNull()) {
        continue;
      }
      String column = field.sql();
      switch (operator) {
        case "$eq" -> equal(where, column, value(at, field, operand));
        case "$neq" ->
            where.add("(" + column + " IS NULL OR " + column + " <> ?)", value(at, field, operand));
        case "$exists" -> where.add(column + (bool(at, operand) ? " IS NOT NULL" : " IS NULL"));
        case "$in" -> in(where, column, values(at, field, operand), false);
        case "$notIn" -> in(where, column, values(at, field, operand), true);
        case "$like" -> where.add(column + " LIKE ? ESCAPE '\\'", like(text(at, operand)));
        case "$gt" -> where.add(column + " > ?", value(at, field, operand));
        case "$gte" -> where.add(column + " >= ?", value(at, field, operand));
        case "$lt" -> where.add(column + " < ?", value(at, field, operand));
        case "$lte" -> where.add(column + " <= ?", value(at, field, operand));
        default -> throw new IllegalStateException(operator);
      }
    }
  }

  private static void equal(Where where, String column, Object value) {
    if (value instanceof Boolean bool) {
      // The condition itself, not "(x > 0) = ?": a planner serves "incident_count > 0" from an
      // index, never a comparison of an expression's truth with a parameter.
      where.add(bool ? column : "NOT " + column);
      return;
    }
    where.add(column + " = ?", value);
    if (COLUMN.matcher(column).matches()) {
      where.fixedColumns().add(column);
    }
  }

  private static void in(Where where, String column, List<Object> values, boolean not) {
    if (values.isEmpty()) {
      return; // the client sends "$in": [] for a filter it was not given
    }
    String marks = String.join(", ", java.util.Collections.nCopies(values.size(), "?"));
    where.add(
        not
            ? "(" + column + " IS NULL OR " + column + " NOT IN (" + marks + "))"
            : column + " IN (" + marks + ")",
        values);
  }

  private static List<Object> values(String name, Field field, JsonNode node) {
    if (!node.isArray()) {
      throw new InvalidRequest("'" + name + "' must be an array, not " + node.getNodeType());
    }
    List<Object> values = new ArrayList<>();
    for (JsonNode element : node) {
      values.add(value(name, field, element));
    }
    return values;
  }

  /** {@code node} as the parameter of {@code field}'s column. */
  static Object value(String name, Field field, JsonNode node) {
    return switch (field.kind()) {
      case KEY -> key(name, node);
      case INT -> {
        if (!node.isIntegralNumber() || !node.canConvertToInt()) {
          throw new InvalidRequest("'" + name + "' must be a whole number, not " + node);
        }
        yield node.intValue();
      }
      case BOOL -> bool(name, node);
      case DATE -> date(name, node);
      case JSON -> throw new IllegalStateException(name + " does not filter");
      case TEXT -> {
        String text = text(name, node);
        if (!field.values().isEmpty() && !field.values().contains(text)) {
          throw new InvalidRequest(
              "'" + name + "' must be one of " + field.values() + ", not '" + text + "'");
        }
        yield text;
      }
    };
  }

  static long key(String name, JsonNode node) {
    if (node.isIntegralNumber() && node.canConvertToLong()) {
      return node.longValue();
    }
    if (node.isTextual()) {
      try {
        return Long.parseLong(node.textValue());
      } catch (NumberFormatException e) {
        // said below
      }
    }
    throw new InvalidRequest("'" + name + "' must be a key (a string of digits), not " + node);
  }

  static String text(String name, JsonNode node) {
    if (!node.isTextual()) {
      throw new InvalidRequest("'" + name + "' must be a string, not " + node);
    }
    return node.textValue();
  }

  private static boolean bool(String name, JsonNode node) {
    if (!node.isBoolean()) {
      throw new InvalidRequest("'" + name + "' must be true or false, not " + node);
    }
    return node.booleanValue();
  }

  private static OffsetDateTime date(String name, JsonNode node) {
    String text = text(name, node);
    try {
      return OffsetDateTime.parse(text);
    } catch (DateTimeParseException e) {
      throw new InvalidRequest(
          "'"
              + name
              + "' must be a date-time with an offset (RFC 3339, such as"
              + " 2026-12-07T10:15:30.000Z), not '"
              + text
              + "'");
    }
  }

  /** Camunda's wildcards ({@code *} any text, {@code ?} one character) as a SQL LIKE pattern. */
  static String like(String pattern) {
    StringBuilder sql = new StringBuilder(pattern.length() + 8);
    for (int i = 0; i < pattern.length(); i++) {
      char c = pattern.charAt(i);
      switch (c) {
        case '*' -> sql.append('%');
        case '?' -> sql.append('_');
        case '%', '_', '\\' -> sql.append('\\').append(c);
        default -> sql.append(c);
      }
    }
    return sql.toString();
  }
}

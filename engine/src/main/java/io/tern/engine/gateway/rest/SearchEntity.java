package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import io.tern.engine.gateway.rest.SearchFilters.Where;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One kind of thing the REST API searches in the history store (process instances, variables, ...):
 * the table it reads, the fields Camunda's API gives it (each a column or SQL expression that
 * filters, sorts and is answered), and the filters Camunda has that Tern cannot serve. Turns a
 * search request into SQL and the rows into Camunda's result shape.
 */
final class SearchEntity {
  /** How a field's values are read, compared and written in JSON. */
  enum Kind {
    KEY,
    TEXT,
    INT,
    DATE,
    BOOL,
    /** JSON text the store holds (a user task's candidates), answered as JSON; never filters. */
    JSON
  }

  /**
   * A field of the entity.
   *
   * @param sql its column or expression over {@link #from}'s tables
   * @param values the only values a TEXT field holds (an enumeration), or empty
   * @param comparable whether it filters and sorts (long text does not, in H2)
   */
  record Field(String name, String sql, Kind kind, Set<String> values, boolean comparable) {}

  /** A filter that is not one field's (process instances by a variable's value, say). */
  interface CustomFilter {
    void add(Where where, String name, JsonNode node);
  }

  /** The count past which a total is given as "at least" (Camunda's, whose store caps it too). */
  private static final int COUNT_CAP = 10_000;

  private static final DateTimeFormatter DATES =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX", Locale.ROOT);

  final String noun;
  private final String from;
  private String countFrom;
  private String joinedAlias;
  private final Field key;
  private final Map<String, Field> fields = new LinkedHashMap<>();
  private final Map<String, String> unsupported = new LinkedHashMap<>();
  private final Map<String, CustomFilter> custom = new LinkedHashMap<>();
  private final Map<String, JsonNode> constants = new LinkedHashMap<>();

  /**
   * @param noun what one row is, in messages ("process instance")
   * @param from the FROM clause: the table and what it joins
   * @param key the key field, the last sort (pages are stable) and the one a GET reads by
   */
  SearchEntity(String noun, String from, String keyName, String keySql) {
    this.noun = noun;
    this.from = from;
    this.key = new Field(keyName, keySql, Kind.KEY, Set.of(), true);
    fields.put(keyName, key);
    // Tern has no tenants: everything is the default tenant's.
    text("tenantId", "'<default>'");
  }

  SearchEntity field(String name, String sql, Kind kind) {
    fields.put(name, new Field(name, sql, kind, Set.of(), true));
    return this;
  }

  SearchEntity text(String name, String sql) {
    return field(name, sql, Kind.TEXT);
  }

  /** A TEXT field that holds one of {@code values} only (a state): other values are a 400. */
  SearchEntity enumerated(String name, String sql, String... values) {
    fields.put(name, new Field(name, sql, Kind.TEXT, Set.of(values), true));
    return this;
  }

  /** A field that is answered but neither filters nor sorts. */
  SearchEntity answered(String name, String sql, Kind kind) {
    fields.put(name, new Field(name, sql, kind, Set.of(), false));
    return this;
  }

  /** A value every row answers (the client reads an absent list as null, not empty). */
  SearchEntity constant(String name, JsonNode value) {
    constants.put(name, value);
    return this;
  }

  /** A filter Camunda has that Tern does not serve, and why. */
  SearchEntity unsupported(String name, String why) {
    unsupported.put(name, why);
    return this;
  }

  /**
   * Counts from {@code table} alone when no condition reads the table {@link #from} joins as {@code
   * alias}: a LEFT JOIN on the joined table's key adds no rows, so it cannot change the count, and
   * skipping it spares a lookup for each of up to 10,001 rows counted.
   */
  SearchEntity countingFrom(String table, String alias) {
    this.countFrom = table;
    this.joinedAlias = alias;
    return this;
  }

  SearchEntity custom(String name, CustomFilter filter) {
    custom.put(name, filter);
    return this;
  }

  String keyName() {
    return key.name();
  }

  /**
   * What a search request asks: its SQL conditions, order and page. {@code rows} are the conditions
   * the page's rows are read with: {@code where}'s, and past a cursor's key those past it, read
   * from {@code skip} on (0 then, not the page's {@code offset} in the results).
   */
  record Query(Where where, String orderBy, int offset, int limit, Where rows, int skip) {
    Query(Where where, String orderBy, int offset, int limit) {
      this(where, orderBy, offset, limit, where, offset);
    }
  }

  /** Reads {@code body} ({@code filter}, {@code sort}, {@code page}); a 400 names what is wrong. */
  Query query(ObjectNode body) {
    for (Iterator<String> names = body.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!Set.of("filter", "sort", "page").contains(name)) {
        throw new InvalidRequest(
            "'" + name + "' is not part of a search request (it has filter, sort and page)");
      }
    }
    SearchPages.Page page = SearchPages.page(body.path("page"));
    Where where = where(body.get("filter"));
    JsonNode sort = body.get("sort");
    String orderBy = orderBy(sort, where);
    if (page.afterKey() != null && (sort == null || sort.isNull() || sort.isEmpty())) {
      // Sorted by key alone: the rows past the cursor's key are the next page, read from the
      // key's index, where an offset walks every row before it (0.2-0.9 s at 500,000).
      Where past = where.and(key.sql() + " > ?", page.afterKey());
      return new Query(where, orderBy, page.offset(), page.limit(), past, 0);
    }
    return new Query(where, orderBy, page.offset(), page.limit());
  }

  /** The condition that picks the row of {@code key}. */
  Where byKey(long value) {
    Where where = new Where();
    where.add(key.sql() + " = ?", value);
    return where;
  }

  private Where where(JsonNode filter) {
    Where where = new Where();
    if (filter == null || filter.isNull()) {
      return where;
    }
    if (!filter.isObject()) {
      throw new InvalidRequest("'filter' must be an object, not " + filter.getNodeType());
    }
    for (Iterator<Map.Entry<String, JsonNode>> entries = filter.fields(); entries.hasNext(); ) {
      Map.Entry<String, JsonNode> entry = entries.next();
      String name = entry.getKey();
      String at = "filter." + name;
      CustomFilter special = custom.get(name);
      Field field = fields.get(name);
      if (special != null) {
        special.add(where, at, entry.getValue());
      } else if (unsupported.containsKey(name)) {
        JsonNode value = entry.getValue();
        // The client sends some of them empty ("tags": []) whatever is asked.
        if (!value.isNull() && !(value.isContainerNode() && value.isEmpty())) {
          throw new InvalidRequest(
              "'" + at + "' is not supported by Tern: " + unsupported.get(name));
        }
      } else if (field != null && field.comparable()) {
        SearchFilters.add(where, at, field, entry.getValue());
      } else {
        throw new InvalidRequest(
            "'" + at + "' is not a filter of " + noun + " searches (they take " + filters() + ")");
      }
    }
    return where;
  }

  private Set<String> filters() {
    Set<String> names = new TreeSet<>(custom.keySet());
    fields.values().stream().filter(Field::comparable).forEach(f -> names.add(f.name()));
    return names;
  }

  private String orderBy(JsonNode sort, Where where) {
    List<String> terms = new ArrayList<>();
    if (sort != null && !sort.isNull()) {
      if (!sort.isArray()) {
        throw new InvalidRequest("'sort' must be an array, not " + sort.getNodeType());
      }
      for (JsonNode term : sort) {
        String name = term.path("field").asText("");
        Field field = fields.get(name);
        if (field == null || !field.comparable()) {
          throw new InvalidRequest(
              "'sort.field' "
                  + (name.isEmpty() ? "is missing" : "'" + name + "' is not a field to sort by")
                  + ": "
                  + noun
                  + " searches sort by "
                  + filters().stream().filter(fields::containsKey).toList());
        }
        String order = term.path("order").asText("ASC").toUpperCase(Locale.ROOT);
        if (!order.equals("ASC") && !order.equals("DESC")) {
          throw new InvalidRequest("'sort.order' must be ASC or DESC, not '" + order + "'");
        }
        // Both databases then put rows without the value at the same end.
        terms.add(field.sql() + (order.equals("ASC") ? " ASC NULLS LAST" : " DESC NULLS FIRST"));
      }
    }
    if (!terms.isEmpty()) {
      // The columns the filter holds to one value lead the order: the rows are the same, in the
      // same order, but H2 reads rows in an index's order only if the ORDER BY starts with the
      // index's first columns. "process-4, ACTIVE, newest first" is then the first 50 entries of
      // the (bpmn_process_id, state, start_date DESC, key) index instead of all 100,000 matching
      // rows sorted (PostgreSQL drops such terms itself).
      List<String> fixed = new ArrayList<>();
      where.fixedColumns().forEach(column -> fixed.add(column + " ASC"));
      terms.addAll(0, fixed);
    }
    terms.add(key.sql() + " ASC");
    return " ORDER BY " + String.join(", ", terms);
  }

  /** Runs {@code query} and answers Camunda's search result: items and page. */
  ObjectNode search(Connection connection, int timeout, Query query) throws SQLException {
    int limit = query.limit();
    ArrayNode items = Json.MAPPER.createArrayNode();
    if (limit > 0) {
      rows(
          connection,
          timeout,
          query.rows(),
          query.orderBy() + " LIMIT " + limit + " OFFSET " + query.skip(),
          items);
    }
    // A page short of its limit holds the last rows: the total is known without counting (a
    // search by an order id, say, is then one query, not two).
    boolean last = items.size() < limit && (!items.isEmpty() || query.offset() == 0);
    long total = last ? query.offset() + items.size() : count(connection, timeout, query.where());
    ObjectNode result = Json.MAPPER.createObjectNode();
    result.set("items", items);
    ObjectNode page = result.putObject("page");
    page.put("totalItems", Math.min(total, COUNT_CAP));
    page.put("hasMoreTotalItems", total > COUNT_CAP);
    if (items.isEmpty()) {
      page.putNull("startCursor");
      page.putNull("endCursor");
    } else {
      page.put("startCursor", SearchPages.cursor(query.offset()));
      JsonNode lastKey = items.get(items.size() - 1).path(key.name());
      page.put(
          "endCursor",
          !lastKey.isTextual()
              ? SearchPages.cursor(query.offset() + items.size())
              : SearchPages.cursor(
                  query.offset() + items.size(), Long.parseLong(lastKey.textValue())));
    }
    return result;
  }

  /** The row of {@code value}, or null. */
  ObjectNode get(Connection connection, int timeout, long value) throws SQLException {
    ArrayNode items = Json.MAPPER.createArrayNode();
    rows(connection, timeout, byKey(value), "", items);
    return items.isEmpty() ? null : (ObjectNode) items.get(0);
  }

  private void rows(Connection connection, int timeout, Where where, String tail, ArrayNode items)
      throws SQLException {
    List<Field> columns = List.copyOf(fields.values());
    StringBuilder sql = new StringBuilder("SELECT ");
    for (int i = 0; i < columns.size(); i++) {
      sql.append(i == 0 ? "" : ", ").append(columns.get(i).sql());
    }
    sql.append(" FROM ").append(from).append(where.sql()).append(tail);
    try (PreparedStatement statement = prepare(connection, timeout, sql.toString(), where);
        ResultSet rows = statement.executeQuery()) {
      while (rows.next()) {
        ObjectNode item = items.addObject();
        for (int i = 0; i < columns.size(); i++) {
          put(item, columns.get(i), rows, i + 1);
        }
        constants.forEach((name, value) -> item.set(name, value.deepCopy()));
      }
    }
  }

  private long count(Connection connection, int timeout, Where where) throws SQLException {
    // Counting stops past the cap: a total over a million rows would cost a scan of them all.
    boolean joinUnread = countFrom != null && !where.sql().contains(joinedAlias + ".");
    String sql =
        "SELECT COUNT(*) FROM (SELECT 1 AS one FROM "
            + (joinUnread ? countFrom : from)
            + where.sql()
            + " LIMIT "
            + (COUNT_CAP + 1)
            + ") counted";
    try (PreparedStatement statement = prepare(connection, timeout, sql, where);
        ResultSet rows = statement.executeQuery()) {
      rows.next();
      return rows.getLong(1);
    }
  }

  private static PreparedStatement prepare(
      Connection connection, int timeout, String sql, Where where) throws SQLException {
    PreparedStatement statement = connection.prepareStatement(sql);
    statement.setQueryTimeout(timeout);
    List<Object> parameters = where.parameters();
    for (int i = 0; i < parameters.size(); i++) {
      statement.setObject(i + 1, parameters.get(i));
    }
    return statement;
  }

  private static void put(ObjectNode item, Field field, ResultSet rows, int column)
      throws SQLException {
    String name = field.name();
    switch (field.kind()) {
      case KEY -> {
        long value = rows.getLong(column);
        if (rows.wasNull()) {
          item.putNull(name);
        } else {
          item.put(name, Long.toString(value)); // keys are strings in Camunda's JSON
        }
      }
      case INT -> {
        int value = rows.getInt(column);
        if (rows.wasNull()) {
          item.putNull(name);
        } else {
          item.put(name, value);
        }
      }
      case BOOL -> item.put(name, rows.getBoolean(column));
      case DATE -> {
        OffsetDateTime value = rows.getObject(column, OffsetDateTime.class);
        if (value == null) {
          item.putNull(name);
        } else {
          item.put(name, DATES.format(value.withOffsetSameInstant(ZoneOffset.UTC)));
        }
      }
      case TEXT -> item.put(name, rows.getString(column));
      case JSON -> {
        String json = rows.getString(column);
        try {
          item.set(name, json == null ? null : Json.MAPPER.readTree(json));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
          throw new SQLException("the store holds malformed JSON in " + name, e);
        }
      }
    }
  }
}

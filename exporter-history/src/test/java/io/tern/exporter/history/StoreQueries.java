package io.tern.exporter.history;

import java.sql.Clob;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * Reads the store as a test checks it, over a connection of its own, with values made comparable on
 * both databases: timestamps as {@code Instant}, large text as {@code String}, column names in
 * lower case.
 */
final class StoreQueries implements AutoCloseable {
  private final String url;

  /**
   * Kept open: H2 closes a file database when its last connection closes, and reopens it slowly.
   */
  private Connection connection;

  private final Properties credentials = new Properties();

  StoreQueries(String url, String user, String password) {
    this.url = url;
    if (user != null) {
      credentials.setProperty("user", user);
    }
    if (password != null) {
      credentials.setProperty("password", password);
    }
  }

  /** The connection, opened again after the database went away in a test. */
  Connection connect() throws SQLException {
    if (connection == null || !connection.isValid(2)) {
      close();
      connection = DriverManager.getConnection(url, credentials);
    }
    return connection;
  }

  @Override
  public void close() {
    if (connection != null) {
      try {
        connection.close();
      } catch (SQLException ignored) {
        // Broken already.
      }
      connection = null;
    }
  }

  long count(String sql, Object... args) throws SQLException {
    return ((Number) list(sql, args).get(0).get(0)).longValue();
  }

  /** The one row {@code sql} selects (fails if none). */
  Map<String, Object> row(String sql, Object... args) throws SQLException {
    List<Map<String, Object>> rows = rows(sql, args);
    if (rows.size() != 1) {
      throw new AssertionError(rows.size() + " rows for " + sql + " " + Arrays.toString(args));
    }
    return rows.get(0);
  }

  /** Each row's values in column order. */
  List<List<Object>> list(String sql, Object... args) throws SQLException {
    return rows(sql, args).stream()
        .map(row -> (List<Object>) new ArrayList<>(row.values()))
        .toList();
  }

  List<Map<String, Object>> rows(String sql, Object... args) throws SQLException {
    try (PreparedStatement statement = connect().prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        statement.setObject(i + 1, args[i]);
      }
      List<Map<String, Object>> rows = new ArrayList<>();
      try (ResultSet result = statement.executeQuery()) {
        ResultSetMetaData meta = result.getMetaData();
        while (result.next()) {
          Map<String, Object> row = new LinkedHashMap<>();
          for (int c = 1; c <= meta.getColumnCount(); c++) {
            row.put(meta.getColumnLabel(c).toLowerCase(Locale.ROOT), plain(result.getObject(c)));
          }
          rows.add(row);
        }
      }
      return rows;
    }
  }

  void execute(String sql) throws SQLException {
    try (var statement = connect().createStatement()) {
      statement.execute(sql);
    }
  }

  /** Every row of the data tables, as text, for comparing whole stores. */
  Map<String, List<List<Object>>> dump() throws SQLException {
    Map<String, List<List<Object>>> tables = new LinkedHashMap<>();
    for (Table<?> table : Tables.WRITE_ORDER) {
      String order = String.join(", ", table.keys.stream().map(Column::sqlName).toList());
      tables.put(table.name, list("SELECT * FROM " + table.name + " ORDER BY " + order));
    }
    return tables;
  }

  private static Object plain(Object value) throws SQLException {
    if (value instanceof Clob clob) {
      return clob.getSubString(1, (int) clob.length());
    }
    if (value instanceof OffsetDateTime offset) {
      return offset.toInstant();
    }
    if (value instanceof Timestamp timestamp) {
      return timestamp.toInstant();
    }
    return value;
  }
}

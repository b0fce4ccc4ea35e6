package io.tern.exporter.history;

/**
 * A column of a history table, as the writer needs it: its SQL name and type, and how a newer
 * record's value combines with the one a row already holds ({@link Merge}). Implemented by the
 * enums in {@link Tables}, whose constants are the columns in table order.
 */
interface Column {
  String name();

  int ordinal();

  SqlType type();

  Merge merge();

  /** The column's name in SQL: the constant's name in lower case. */
  default String sqlName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** The SQL types the history tables use, with the JDBC type a null is bound as. */
  enum SqlType {
    BIGINT("BIGINT", java.sql.Types.BIGINT),
    INTEGER("INTEGER", java.sql.Types.INTEGER),
    BOOLEAN("BOOLEAN", java.sql.Types.BOOLEAN),
    /** Names, ids, states: every VARCHAR column is 255 wide; longer values are cut to fit. */
    SHORT_TEXT("VARCHAR(255)", java.sql.Types.VARCHAR),
    /**
     * A user task's candidates as JSON ({@link JsonText}): long enough for lists, still comparable.
     */
    LIST_TEXT("VARCHAR(4000)", java.sql.Types.VARCHAR),
    /** The variable's value prefix (see {@link RecordRows}). */
    PREFIX_TEXT("VARCHAR(256)", java.sql.Types.VARCHAR),
    LONG_TEXT("TEXT", java.sql.Types.VARCHAR),
    TIMESTAMP("TIMESTAMP WITH TIME ZONE", java.sql.Types.TIMESTAMP_WITH_TIMEZONE);

    final String sql;
    final int jdbcType;

    SqlType(String sql, int jdbcType) {
      this.sql = sql;
      this.jdbcType = jdbcType;
    }
  }

  /**
   * How a value from a newer record combines with the older one, in the buffer and in the
   * database's upsert alike. A record that does not know a value (a COMPLETED event knows no start)
   * leaves it null, which never overwrites.
   */
  enum Merge {
    /** Part of the primary key. */
    KEY,
    /** The first value known stays (a start date, the key a variable was created with). */
    FIRST,
    /** The newest value known wins (a state, an end date). */
    LAST,
    /**
     * The newest record's value, null included: for records that carry the whole entity each time
     * (a user task's), where null means the value was removed (an unassigned task).
     */
    CURRENT,
    /** The log position of the last record applied; a row only takes newer positions. */
    POSITION
  }
}

package io.tern.exporter.history;

import io.tern.exporter.history.Tables.ExporterPosition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Writes a buffer's rows and the partition's position in one transaction, over one connection that
 * it opens when first needed and drops after any failure (the next call opens a new one, so a
 * database that comes back is found again). Used from the exporter's thread only.
 */
final class HistoryWriter implements AutoCloseable {
  private static final String RECOUNT_INSTANCE_INCIDENTS =
      "UPDATE process_instance SET incident_count = (SELECT COUNT(*) FROM incident i"
          + " WHERE i.process_instance_key = process_instance.process_instance_key"
          + " AND i.state = 'ACTIVE') WHERE process_instance_key = ?";
  private static final String RECOUNT_ELEMENT_INCIDENTS =
      "UPDATE element_instance SET incident = EXISTS (SELECT 1 FROM incident i"
          + " WHERE i.element_instance_key = element_instance.element_instance_key"
          + " AND i.state = 'ACTIVE') WHERE element_instance_key = ?";
  private static final String READ_POSITION =
      "SELECT position FROM exporter_position WHERE partition_id = ?";

  private final JdbcSource source;
  private final SqlDialect dialect;
  private final Map<Table<?>, String> upserts = new HashMap<>();
  private final Map<Table<?>, String> inserts = new HashMap<>();
  private Connection connection;
  private final Map<String, PreparedStatement> statements = new HashMap<>();

  HistoryWriter(JdbcSource source) {
    this.source = source;
    this.dialect = source.dialect();
    for (Table<?> table : Tables.WRITE_ORDER) {
      upserts.put(table, source.dialect().upsert(table));
      inserts.put(table, source.dialect().insert(table));
    }
    upserts.put(Tables.EXPORTER_POSITIONS, source.dialect().upsert(Tables.EXPORTER_POSITIONS));
  }

  /** The partition's stored position, -1 if none. */
  long readPosition(int partitionId) throws SQLException {
    return inTransaction(
        connection -> {
          PreparedStatement read = statement(READ_POSITION);
          read.setInt(1, partitionId);
          try (ResultSet result = read.executeQuery()) {
            return result.next() ? result.getLong(1) : -1L;
          }
        });
  }

  /**
   * Writes the buffer's rows, recounts the incidents it touched and stores {@code
   * buffer.position()} for the partition, all in one transaction; the buffer is left as it was (the
   * caller clears it once this returns).
   *
   * <p>Rows made by the record that created their key ({@link Row#isCreated()}) are inserted: a
   * plain insert costs the database less than an upsert, which looks the key up and (on H2) joins a
   * one-row table per row. They cannot be there already while this exporter is the only one writing
   * the partition, for the store holds exactly the records up to its stored position and these come
   * after it. Should another exporter have written them (two leaders of a partition for a moment,
   * writing into one PostgreSQL), the insert fails on the key and the batch is written again, at
   * once, with upserts only, which leave a newer row as it is.
   *
   * @return the number of rows written
   */
  int write(RowBuffer buffer, int partitionId, Instant now) throws SQLException {
    try {
      return inTransaction(connection -> writeRows(buffer, partitionId, now, true));
    } catch (SQLException e) {
      if (!SqlErrors.isDuplicateKey(e)) {
        throw e;
      }
      return inTransaction(connection -> writeRows(buffer, partitionId, now, false));
    }
  }

  private int writeRows(RowBuffer buffer, int partitionId, Instant now, boolean insertCreated)
      throws SQLException {
    int rows = 0;
    for (Table<?> table : Tables.WRITE_ORDER) {
      rows += write(table, buffer.rows(table), insertCreated);
    }
    recount(RECOUNT_INSTANCE_INCIDENTS, buffer.incidentInstances());
    recount(RECOUNT_ELEMENT_INCIDENTS, buffer.incidentElements());
    PreparedStatement position = statement(upserts.get(Tables.EXPORTER_POSITIONS));
    bind(
        position,
        Tables.EXPORTER_POSITIONS
            .newRow()
            .set(ExporterPosition.PARTITION_ID, partitionId)
            .set(ExporterPosition.POSITION, buffer.position())
            .set(ExporterPosition.UPDATED_AT, now));
    position.executeUpdate();
    return rows;
  }

  /** Runs {@code work} in a transaction on the current connection (opened if needed). */
  <T> T inTransaction(Work<T> work) throws SQLException {
    Connection current = connection();
    try {
      T result = work.run(current);
      current.commit();
      return result;
    } catch (SQLException | RuntimeException e) {
      // Whatever the cause, this connection is suspect: roll back if it still can, then drop it.
      try {
        current.rollback();
      } catch (SQLException | RuntimeException ignored) {
        // The connection is gone; dropping it is all that is left.
      }
      dropConnection();
      throw e;
    }
  }

  PreparedStatement statement(String sql) throws SQLException {
    PreparedStatement statement = statements.get(sql);
    if (statement == null) {
      statement = connection().prepareStatement(sql);
      statements.put(sql, statement);
    }
    return statement;
  }

  /** Inserts the table's created rows (if {@code insertCreated}) and upserts the others. */
  private int write(Table<?> table, Collection<? extends Row<?>> rows, boolean insertCreated)
      throws SQLException {
    if (rows.isEmpty()) {
      return 0;
    }
    PreparedStatement upsert = null;
    PreparedStatement insert = null;
    for (Row<?> row : rows) {
      PreparedStatement statement;
      if (insertCreated && row.isCreated()) {
        statement = insert == null ? insert = statement(inserts.get(table)) : insert;
      } else {
        statement = upsert == null ? upsert = statement(upserts.get(table)) : upsert;
      }
      bind(statement, row);
      statement.addBatch();
    }
    if (insert != null) {
      insert.executeBatch();
    }
    if (upsert != null) {
      upsert.executeBatch();
    }
    return rows.size();
  }

  private <C extends Enum<C> & Column> void bind(PreparedStatement statement, Row<C> row)
      throws SQLException {
    int index = 1;
    for (C column : row.table.columns) {
      Object value = row.get(column);
      if (value == null) {
        statement.setNull(index, column.type().jdbcType);
      } else if (value instanceof Instant instant) {
        statement.setObject(index, dialect.timestamp(instant));
      } else if (value instanceof String text && column.type() == Column.SqlType.SHORT_TEXT) {
        statement.setString(index, fit(text));
      } else {
        statement.setObject(index, value);
      }
      index++;
    }
  }

  /** Cut to the VARCHAR columns' width: a value that does not fit must not stop the export. */
  private static String fit(String text) {
    if (text.length() <= RecordRows.SHORT_TEXT_LENGTH) {
      return text;
    }
    int end = RecordRows.SHORT_TEXT_LENGTH;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    return text.substring(0, end);
  }

  private void recount(String sql, Set<Long> keys) throws SQLException {
    if (keys.isEmpty()) {
      return;
    }
    PreparedStatement statement = statement(sql);
    for (long key : keys) {
      statement.setLong(1, key);
      statement.addBatch();
    }
    statement.executeBatch();
  }

  private Connection connection() throws SQLException {
    if (connection == null) {
      Connection opened = source.getConnection();
      try {
        opened.setAutoCommit(false);
      } catch (SQLException e) {
        opened.close();
        throw e;
      }
      connection = opened;
    }
    return connection;
  }

  private void dropConnection() {
    statements.clear();
    Connection dropped = connection;
    connection = null;
    if (dropped != null) {
      try {
        dropped.close();
      } catch (SQLException | RuntimeException ignored) {
        // Closing a broken connection may fail; it is dropped either way.
      }
    }
  }

  @Override
  public void close() {
    dropConnection();
  }

  /** Statements run in one transaction. */
  interface Work<T> {
    T run(Connection connection) throws SQLException;
  }
}

package io.tern.exporter.history;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Deletes a partition's finished process instances (COMPLETED or TERMINATED) that ended before a
 * cut-off, with everything recorded about them, a bounded batch of instances per transaction so
 * that exporting (which waits on the same thread) is held up briefly each time.
 */
final class Retention {
  /** The tables that hold rows of an instance, by their process_instance_key; the instance last. */
  private static final List<String> TABLES =
      List.of(
          "variable_history",
          "variable",
          "incident",
          "job",
          "user_task",
          "element_instance",
          "process_instance");

  /** At most this many batches per run; what is left waits for the next run. */
  static final int MAX_BATCHES_PER_RUN = 20;

  private final int partitionId;
  private final int batchSize;

  Retention(int partitionId, int batchSize) {
    this.partitionId = partitionId;
    this.batchSize = batchSize;
  }

  /** Deletes instances that ended before {@code cutOff}; returns how many. */
  int run(HistoryWriter writer, Instant cutOff) throws SQLException {
    int deleted = 0;
    for (int batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
      int count = writer.inTransaction(connection -> deleteBatch(connection, cutOff));
      deleted += count;
      if (count < batchSize) {
        break;
      }
    }
    return deleted;
  }

  private int deleteBatch(Connection connection, Instant cutOff) throws SQLException {
    List<Long> keys = new ArrayList<>();
    // The limit is this class's own number, so it is part of the text (both databases take it).
    String select =
        "SELECT process_instance_key FROM process_instance WHERE partition_id = ?"
            + " AND end_date < ? AND state IN ('COMPLETED', 'TERMINATED')"
            + " ORDER BY end_date FETCH FIRST "
            + batchSize
            + " ROWS ONLY";
    try (PreparedStatement statement = connection.prepareStatement(select)) {
      statement.setInt(1, partitionId);
      statement.setObject(2, OffsetDateTime.ofInstant(cutOff, ZoneOffset.UTC));
      try (ResultSet result = statement.executeQuery()) {
        while (result.next()) {
          keys.add(result.getLong(1));
        }
      }
    }
    if (keys.isEmpty()) {
      return 0;
    }
    String in = String.join(", ", Collections.nCopies(keys.size(), "?"));
    for (String table : TABLES) {
      try (PreparedStatement delete =
          connection.prepareStatement(
              "DELETE FROM " + table + " WHERE process_instance_key IN (" + in + ")")) {
        for (int i = 0; i < keys.size(); i++) {
          delete.setLong(i + 1, keys.get(i));
        }
        delete.executeUpdate();
      }
    }
    return keys.size();
  }
}

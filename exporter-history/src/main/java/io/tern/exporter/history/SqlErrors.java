package io.tern.exporter.history;

import java.sql.BatchUpdateException;
import java.sql.SQLException;

/**
 * Failures as they are logged and thrown: the database's reason, not the statement. PostgreSQL's
 * batch errors quote the whole statement with its values (variables' contents), which do not belong
 * in a log line; the reason is in the exception chained to it.
 */
final class SqlErrors {
  private static final int MAX_LENGTH = 500;

  private SqlErrors() {}

  static String describe(Throwable failure) {
    Throwable reason = cause(failure);
    StringBuilder text = new StringBuilder(reason.getClass().getSimpleName());
    if (reason instanceof SQLException sql && sql.getSQLState() != null) {
      text.append(" (SQLState ").append(sql.getSQLState()).append(')');
    }
    String message = reason.getMessage();
    if (message != null && !(reason == failure && failure instanceof BatchUpdateException)) {
      text.append(": ").append(message.strip());
    }
    return text.length() > MAX_LENGTH ? text.substring(0, MAX_LENGTH) + "..." : text.toString();
  }

  /**
   * Whether a key the statement wrote exists already (SQLState 23505 on H2 and PostgreSQL),
   * anywhere in the chain of a batch's failures.
   */
  static boolean isDuplicateKey(SQLException failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql) {
        for (SQLException e = sql; e != null; e = e.getNextException()) {
          if ("23505".equals(e.getSQLState())) {
            return true;
          }
        }
      }
    }
    return false;
  }

  /** The exception to chain to what the exporter throws: a batch's reason rather than the batch. */
  static Throwable cause(Throwable failure) {
    if (failure instanceof BatchUpdateException batch && batch.getNextException() != null) {
      return batch.getNextException();
    }
    return failure;
  }
}

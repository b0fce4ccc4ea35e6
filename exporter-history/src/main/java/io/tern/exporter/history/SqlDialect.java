package io.tern.exporter.history;

import java.sql.Driver;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.stream.Collectors;

/**
 * What differs between the databases the history store runs on: the JDBC driver and the upsert. The
 * schema and every other statement are the same SQL on both.
 */
abstract class SqlDialect {
  static final SqlDialect H2 = new H2Dialect();
  static final SqlDialect POSTGRESQL = new PostgresDialect();

  /** The dialect of a JDBC URL, or null if the history store does not support its database. */
  static SqlDialect of(String url) {
    if (url.startsWith("jdbc:h2:")) {
      return H2;
    }
    if (url.startsWith("jdbc:postgresql:")) {
      return POSTGRESQL;
    }
    return null;
  }

  abstract String name();

  /**
   * The driver, created directly rather than looked up in {@code DriverManager}, which only offers
   * drivers of the class loader that registered them (an exporter may have a loader of its own).
   */
  abstract Driver driver();

  /**
   * One row's upsert, parameters in column order: a versioned table's row takes the values of a
   * record from further on in the log only; an insert-only table's row is written once.
   */
  abstract String upsert(Table<?> table);

  /** A timestamp as a parameter of a TIMESTAMP WITH TIME ZONE column: JDBC's OffsetDateTime. */
  Object timestamp(Instant instant) {
    return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
  }

  /** One row's plain insert, parameters in column order: for rows whose key is new. */
  String insert(Table<?> table) {
    return "INSERT INTO "
        + table.name
        + " ("
        + columnList(table, "")
        + ") VALUES ("
        + table.columns.stream().map(c -> "?").collect(Collectors.joining(", "))
        + ")";
  }

  static String columnList(Table<?> table, String prefix) {
    return table.columns.stream().map(c -> prefix + c.sqlName()).collect(Collectors.joining(", "));
  }

  /** {@code t} is the stored row, {@code s} the new one. */
  static String updates(Table<?> table, String s) {
    return table.columns.stream()
        .filter(c -> c.merge() != Column.Merge.KEY)
        .map(
            c ->
                switch (c.merge()) {
                  case FIRST -> "%1$s = COALESCE(t.%1$s, %2$s.%1$s)".formatted(c.sqlName(), s);
                  case LAST -> "%1$s = COALESCE(%2$s.%1$s, t.%1$s)".formatted(c.sqlName(), s);
                  case POSITION, CURRENT -> "%1$s = %2$s.%1$s".formatted(c.sqlName(), s);
                  case KEY -> throw new IllegalStateException();
                })
        .collect(Collectors.joining(", "));
  }

  static String positionColumn(Table<?> table) {
    return table.columns.stream()
        .filter(c -> c.merge() == Column.Merge.POSITION)
        .findFirst()
        .orElseThrow(() -> new IllegalStateException(table + " has no position column"))
        .sqlName();
  }

  /** H2: the standard MERGE with a condition (H2's own MERGE ... KEY cannot skip older rows). */
  private static final class H2Dialect extends SqlDialect {
    @Override
    String name() {
      return "H2";
    }

    @Override
    Driver driver() {
      return new org.h2.Driver();
    }

    /**
     * The Instant itself: H2 takes it for this type, at UTC. Making an OffsetDateTime (with its
     * LocalDateTime and LocalTime) for each was about 6% of the exporter thread in a profile.
     */
    @Override
    Object timestamp(Instant instant) {
      return instant;
    }

    @Override
    String upsert(Table<?> table) {
      // H2 cannot type a parameter inside VALUES: each is cast to its column's type.
      String values =
          table.columns.stream()
              .map(c -> "CAST(? AS " + c.type().sql + ")")
              .collect(Collectors.joining(", "));
      String on =
          table.keys.stream()
              .map(c -> "t.%1$s = s.%1$s".formatted(c.sqlName()))
              .collect(Collectors.joining(" AND "));
      StringBuilder sql =
          new StringBuilder("MERGE INTO ")
              .append(table.name)
              .append(" t USING (VALUES (")
              .append(values)
              .append(")) AS s(")
              .append(columnList(table, ""))
              .append(") ON ")
              .append(on);
      if (table.versioned) {
        String position = positionColumn(table);
        sql.append(" WHEN MATCHED AND t.%1$s < s.%1$s THEN UPDATE SET ".formatted(position))
            .append(updates(table, "s"));
      }
      return sql.append(" WHEN NOT MATCHED THEN INSERT (")
          .append(columnList(table, ""))
          .append(") VALUES (")
          .append(columnList(table, "s."))
          .append(")")
          .toString();
    }
  }

  /** PostgreSQL: INSERT ... ON CONFLICT, with a condition on the update. */
  private static final class PostgresDialect extends SqlDialect {
    @Override
    String name() {
      return "PostgreSQL";
    }

    @Override
    Driver driver() {
      return new org.postgresql.Driver();
    }

    @Override
    String upsert(Table<?> table) {
      String parameters = table.columns.stream().map(c -> "?").collect(Collectors.joining(", "));
      StringBuilder sql =
          new StringBuilder("INSERT INTO ")
              .append(table.name)
              .append(" AS t (")
              .append(columnList(table, ""))
              .append(") VALUES (")
              .append(parameters)
              .append(") ON CONFLICT (")
              .append(table.keys.stream().map(Column::sqlName).collect(Collectors.joining(", ")))
              .append(")");
      if (!table.versioned) {
        return sql.append(" DO NOTHING").toString();
      }
      String position = positionColumn(table);
      return sql.append(" DO UPDATE SET ")
          .append(updates(table, "EXCLUDED"))
          .append(" WHERE t.%1$s < EXCLUDED.%1$s".formatted(position))
          .toString();
    }
  }
}

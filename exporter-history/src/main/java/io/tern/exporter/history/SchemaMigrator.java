package io.tern.exporter.history;

import java.util.HashSet;
import java.util.Set;
import org.flywaydb.core.Flyway;

/**
 * Brings the history store's schema up to date with Flyway, from the scripts under {@code
 * db/history} on the exporter's class path. Every partition's exporter opens against the same
 * database: within one broker, the first migrates and the others find it done (Flyway's own lock
 * guards against other brokers doing it at the same time).
 */
final class SchemaMigrator {
  static final String LOCATION = "classpath:db/history";

  /** Flyway's bookkeeping table, named for the history store so it shares a schema with others. */
  static final String HISTORY_TABLE = "history_schema_version";

  private static final Set<String> MIGRATED = new HashSet<>();

  private SchemaMigrator() {}

  /** Migrates the database behind {@code source} unless this JVM did it already. */
  static synchronized void migrate(JdbcSource source, String url) {
    if (MIGRATED.contains(url)) {
      return;
    }
    Flyway.configure(SchemaMigrator.class.getClassLoader())
        .dataSource(source)
        .locations(LOCATION)
        .table(HISTORY_TABLE)
        .failOnMissingLocations(true)
        .load()
        .migrate();
    MIGRATED.add(url);
  }
}

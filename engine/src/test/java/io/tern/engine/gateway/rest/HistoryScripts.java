package io.tern.engine.gateway.rest;

import io.micrometer.core.instrument.MeterRegistry;
import io.tern.engine.gateway.history.HistoryReader;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Statement;

/**
 * What the search tests and the search benchmark share: the history exporter's Flyway scripts run
 * on a database of their own, and a REST gateway that serves searches only.
 */
final class HistoryScripts {
  private HistoryScripts() {}

  /**
   * Runs one of the exporter's scripts statement by statement (comments are whole lines; no ; but
   * as a statement's end).
   *
   * @return false when the script is not on the class path
   */
  static boolean run(Statement sql, String name) throws Exception {
    String script;
    try (InputStream in = HistoryScripts.class.getResourceAsStream("/db/history/" + name)) {
      if (in == null) {
        return false;
      }
      script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    for (String statement : script.replaceAll("(?m)^--.*$", "").split(";")) {
      if (!statement.isBlank()) {
        sql.execute(statement);
      }
    }
    return true;
  }

  /** A REST gateway on a free port with the searches over {@code reader} and nothing else. */
  static RestGateway searchGateway(HistoryReader reader, MeterRegistry registry) {
    return RestGateway.start(
        "127.0.0.1", 0, null, null, null, null, null, null, null, 1 << 20, reader, registry);
  }
}

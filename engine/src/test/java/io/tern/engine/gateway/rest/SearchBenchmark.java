package io.tern.engine.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.gateway.history.HistoryReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * How long searches take over a million process instances in an H2 history store file (the single
 * broker's default): the store is filled by SQL (1,000,000 instances of 10 processes over 30 days,
 * a tenth active, one in a thousand with an incident, an {@code orderId} variable each), then each
 * search is sent over HTTP 5 times to warm up and 40 times measured, one at a time. Run by hand:
 * {@code ./mvnw -B -o -pl engine -am test -Dtest=SearchBenchmark -Dtern.bench=true
 * -Dsurefire.failIfNoSpecifiedTests=false}; figures in docs/benchmarks/.
 */
class SearchBenchmark {
  private static final int INSTANCES = 1_000_000;
  @TempDir Path dir;

  @Test
  @EnabledIfSystemProperty(named = "tern.bench", matches = "true")
  void searchesOverAMillionInstances() throws Exception {
    String url = "jdbc:h2:file:" + dir.resolve("history").toAbsolutePath();
    long loading = System.nanoTime();
    try (Connection connection = DriverManager.getConnection(url);
        Statement sql = connection.createStatement()) {
      sql.execute("RUNSCRIPT FROM 'classpath:/db/history/V1__history_schema.sql'");
      sql.execute(
          "INSERT INTO process_definition SELECT X, 'process-' || X, 1, NULL, 'p.bpmn', 1,"
              + " CURRENT_TIMESTAMP, 1, X FROM SYSTEM_RANGE(1, 10)");
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
              + " FROM SYSTEM_RANGE(1, "
              + INSTANCES
              + ")");
      sql.execute(
          "INSERT INTO variable (scope_key, name, variable_key, process_instance_key,"
              + " process_definition_key, value_json, value_prefix, value_truncated, partition_id,"
              + " position) SELECT 1000000 + X, 'orderId', 3000000 + X, 1000000 + X,"
              + " MOD(X, 10) + 1, '\"o-' || X || '\"', '\"o-' || X || '\"', FALSE, 1, X"
              + " FROM SYSTEM_RANGE(1, "
              + INSTANCES
              + ")");
      sql.execute("ANALYZE");
    }
    System.out.printf(
        "FIGURE loaded %,d instances in %.1f s%n", INSTANCES, (System.nanoTime() - loading) / 1e9);

    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (HistoryReader reader =
            new HistoryReader(new HistoryReader.Location(url, null, null), registry);
        RestGateway gateway =
            RestGateway.start(
                "127.0.0.1",
                0,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                1 << 20,
                reader,
                registry)) {
      HttpClient http = HttpClient.newHttpClient();
      Map<String, String> searches = new LinkedHashMap<>();
      searches.put(
          "active instances of a process, newest first, 50",
          "{\"filter\":{\"processDefinitionId\":\"process-4\",\"state\":\"ACTIVE\"},"
              + "\"sort\":[{\"field\":\"startDate\",\"order\":\"DESC\"}],\"page\":{\"limit\":50}}");
      searches.put(
          "an instance by a variable's value",
          "{\"filter\":{\"variables\":[{\"name\":\"orderId\",\"value\":\"\\\"o-777777\\\"\"}]}}");
      searches.put(
          "instances started in one hour, 50",
          "{\"filter\":{\"startDate\":{\"$gte\":\"2026-11-10T00:00:00Z\","
              + "\"$lt\":\"2026-11-10T01:00:00Z\"}},\"page\":{\"limit\":50}}");
      searches.put(
          "instances with an incident, 50",
          "{\"filter\":{\"state\":\"ACTIVE\",\"hasIncident\":true},\"page\":{\"limit\":50}}");
      searches.put("no filter, first 50 by key", "{\"page\":{\"limit\":50}}");
      searches.put(
          "no filter, 50 from offset 500,000", "{\"page\":{\"from\":500000,\"limit\":50}}");
      for (Map.Entry<String, String> search : searches.entrySet()) {
        HttpRequest request =
            HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:" + gateway.port() + "/v2/process-instances/search"))
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(search.getValue()))
                .build();
        double[] millis = new double[40];
        String body = "";
        for (int i = -5; i < millis.length; i++) {
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
            "FIGURE %s: %d items, p50 %.1f ms, p90 %.1f ms, max %.1f ms%n",
            search.getKey(), items, millis[19], millis[35], millis[39]);
      }
    }
  }
}

package io.tern.engine.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.gateway.history.HistoryReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The searches' SQL against a history store filled by hand (an in-memory H2 with the exporter's
 * schema), through the REST API on its own: the filters whose edges a broker run does not reach
 * (ranges, NULLs under $neq and $notIn, long variable values past the indexed prefix, wildcards,
 * the latest version), paging from the first page back, the capped total, and the answers without a
 * store (403) and with a store that cannot be read (503).
 */
class SearchStoreTest {
  private static final HttpClient http = HttpClient.newHttpClient();
  private static final String LONG = "\"" + "y".repeat(300) + "\"";
  private static final String LONG_OTHER = "\"" + "y".repeat(299) + "z\"";
  private static final String EXACTLY_PREFIX = "\"" + "p".repeat(254) + "\"";
  private static final List<AutoCloseable> closing = new ArrayList<>();
  private static Connection keepAlive;
  private static int store;
  private static int none;
  private static int empty;

  @BeforeAll
  static void start() throws SQLException {
    String url = "jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    keepAlive = DriverManager.getConnection(url);
    try (Statement sql = keepAlive.createStatement()) {
      sql.execute("RUNSCRIPT FROM 'classpath:/db/history/V1__history_schema.sql'");
      sql.execute(
          "INSERT INTO process_definition VALUES (1, 'order', 1, NULL, 'order.bpmn', 9,"
              + " TIMESTAMP WITH TIME ZONE '2026-12-01 00:00:00Z', 1, 1),"
              + " (2, 'order', 2, 'v2', 'order.bpmn', 9, TIMESTAMP WITH TIME ZONE"
              + " '2026-12-02 00:00:00Z', 1, 2), (3, 'other_process', 1, NULL, 'o.bpmn', 9,"
              + " NULL, 1, 3)");
      // 10: old, completed; 11: active, called by 10; 12: active, other process.
      sql.execute(
          "INSERT INTO process_instance (process_instance_key, process_definition_key,"
              + " bpmn_process_id, version, state, start_date, end_date,"
              + " parent_process_instance_key, incident_count, partition_id, position) VALUES"
              + " (10, 1, 'order', 1, 'COMPLETED', TIMESTAMP WITH TIME ZONE '2026-12-01 10:00:00Z',"
              + " TIMESTAMP WITH TIME ZONE '2026-12-01 11:00:00Z', NULL, 0, 1, 10),"
              + " (11, 2, 'order', 2, 'ACTIVE', TIMESTAMP WITH TIME ZONE '2026-12-02 10:00:00Z',"
              + " NULL, 10, 0, 1, 11),"
              + " (12, 3, 'other_process', 1, 'ACTIVE', TIMESTAMP WITH TIME ZONE"
              + " '2026-12-03 10:00:00Z', NULL, NULL, 1, 1, 12)");
      variable(sql, 10, "doc", LONG);
      variable(sql, 11, "doc", LONG_OTHER);
      variable(sql, 12, "doc", EXACTLY_PREFIX);
      // Past the count cap: 10,001 jobs.
      sql.execute(
          "INSERT INTO job (job_key, type, state, retries, partition_id, position)"
              + " SELECT X, 'bulk', 'CREATED', 3, 1, X FROM SYSTEM_RANGE(1000, 11000)");
    }
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    store = gateway(new HistoryReader(new HistoryReader.Location(url, null, null), registry));
    none = gateway(null);
    String emptyUrl = "jdbc:h2:mem:" + UUID.randomUUID();
    empty = gateway(new HistoryReader(new HistoryReader.Location(emptyUrl, null, null), registry));
  }

  private static void variable(Statement sql, long instance, String name, String json)
      throws SQLException {
    boolean truncated = json.length() > VariableValues.PREFIX;
    String prefix = truncated ? json.substring(0, VariableValues.PREFIX) : json;
    sql.execute(
        "INSERT INTO variable (scope_key, name, variable_key, process_instance_key, value_json,"
            + " value_prefix, value_truncated, partition_id, position) VALUES ("
            + instance
            + ", '"
            + name
            + "', "
            + (instance + 100)
            + ", "
            + instance
            + ", '"
            + json
            + "', '"
            + prefix
            + "', "
            + truncated
            + ", 1, 1)");
  }

  private static int gateway(HistoryReader reader) {
    RestGateway gateway =
        RestGateway.start(
            "127.0.0.1",
            0,
            null,
            null,
            null,
            null,
            null,
            1 << 20,
            reader,
            new SimpleMeterRegistry());
    closing.add(gateway);
    if (reader != null) {
      closing.add(reader);
    }
    return gateway.port();
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable closeable : closing) {
      closeable.close();
    }
    keepAlive.close();
  }

  private static HttpResponse<String> post(int port, String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static JsonNode search(String path, String body) throws Exception {
    HttpResponse<String> response = post(store, path, body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Json.MAPPER.readTree(response.body());
  }

  private static List<String> keys(String path, String body, String key) throws Exception {
    List<String> keys = new ArrayList<>();
    search(path, body).get("items").forEach(item -> keys.add(item.get(key).asText()));
    return keys;
  }

  private static List<String> instances(String filter) throws Exception {
    return keys(
        "/v2/process-instances/search", "{\"filter\":" + filter + "}", "processInstanceKey");
  }

  @Test
  void rangesNullsAndWildcardsFilterAsCamundaDoes() throws Exception {
    assertThat(
            instances(
                "{\"startDate\":{\"$gte\":\"2026-12-02T00:00:00Z\",\"$lt\":\"2026-12-03T10:00:00Z\"}}"))
        .containsExactly("11");
    assertThat(instances("{\"endDate\":{\"$exists\":false}}")).containsExactly("11", "12");
    // Rows without a parent are not equal to 10 either.
    assertThat(instances("{\"parentProcessInstanceKey\":{\"$neq\":\"10\"}}"))
        .containsExactly("10", "12");
    assertThat(instances("{\"processDefinitionKey\":{\"$notIn\":[\"1\",\"3\"]}}"))
        .containsExactly("11");
    assertThat(instances("{\"processDefinitionId\":{\"$like\":\"ord*\"}}"))
        .containsExactly("10", "11");
    assertThat(instances("{\"processDefinitionId\":{\"$like\":\"other?process\"}}"))
        .containsExactly("12");
    // _ is not a wildcard: other_process is found by its own name only.
    assertThat(instances("{\"processDefinitionId\":{\"$like\":\"other_*\"}}"))
        .containsExactly("12");
    assertThat(instances("{\"processDefinitionId\":{\"$like\":\"otherXprocess\"}}")).isEmpty();
    assertThat(instances("{\"processDefinitionVersionTag\":\"v2\",\"hasIncident\":false}"))
        .containsExactly("11");
    assertThat(instances("{\"tenantId\":\"<default>\",\"hasIncident\":true}"))
        .containsExactly("12");
    assertThat(instances("{\"tenantId\":\"other\"}")).isEmpty();
  }

  @Test
  void longVariableValuesAreComparedInFull() throws Exception {
    String byValue = "{\"variables\":[{\"name\":\"doc\",\"value\":%s}]}";
    assertThat(instances(byValue.formatted(Json.MAPPER.writeValueAsString(LONG))))
        .containsExactly("10");
    assertThat(instances(byValue.formatted(Json.MAPPER.writeValueAsString(LONG_OTHER))))
        .containsExactly("11");
    assertThat(instances(byValue.formatted(Json.MAPPER.writeValueAsString(EXACTLY_PREFIX))))
        .containsExactly("12");
    assertThat(
            instances(byValue.formatted("{\"$neq\":" + Json.MAPPER.writeValueAsString(LONG) + "}")))
        .containsExactly("11", "12");
    assertThat(
            keys(
                "/v2/variables/search",
                "{\"filter\":{\"value\":{\"$like\":\"*yz*\"}}}",
                "processInstanceKey"))
        .containsExactly("11");
  }

  @Test
  void definitionsByLatestVersion() throws Exception {
    assertThat(
            keys(
                "/v2/process-definitions/search",
                "{\"filter\":{\"isLatestVersion\":true},\"sort\":[{\"field\":\"processDefinitionId\"}]}",
                "processDefinitionKey"))
        .containsExactly("2", "3");
  }

  @Test
  void pagesGoForwardAndBackAndTotalsStopAtTheCap() throws Exception {
    JsonNode first = search("/v2/process-instances/search", "{\"page\":{\"limit\":2}}");
    assertThat(first.at("/page/totalItems").asInt()).isEqualTo(3);
    JsonNode second =
        search(
            "/v2/process-instances/search",
            "{\"page\":{\"limit\":2,\"after\":\"" + first.at("/page/endCursor").asText() + "\"}}");
    assertThat(second.get("items")).hasSize(1);
    JsonNode back =
        search(
            "/v2/process-instances/search",
            "{\"page\":{\"limit\":5,\"before\":\""
                + second.at("/page/startCursor").asText()
                + "\"}}");
    assertThat(back.get("items")).isEqualTo(first.get("items"));

    JsonNode jobs =
        search("/v2/jobs/search", "{\"filter\":{\"type\":\"bulk\"},\"page\":{\"limit\":1}}");
    assertThat(jobs.at("/page/totalItems").asInt()).isEqualTo(10_000);
    assertThat(jobs.at("/page/hasMoreTotalItems").asBoolean()).isTrue();
    assertThat(jobs.at("/items/0/state").asText()).isEqualTo("CREATED");
  }

  @Test
  void withoutAStoreSearchesAre403AndAnUnreadableStoreIs503() throws Exception {
    HttpResponse<String> refused = post(none, "/v2/process-instances/search", "{}");
    assertThat(refused.statusCode()).isEqualTo(403);
    assertThat(refused.body())
        .contains("reads no history store")
        .contains("exporting.history.enabled");
    HttpResponse<String> unreadable = post(empty, "/v2/incidents/search", "{}");
    assertThat(unreadable.statusCode()).isEqualTo(503);
    assertThat(unreadable.body())
        .contains("the history store could not be read")
        .doesNotContain("SQL statement");
  }
}

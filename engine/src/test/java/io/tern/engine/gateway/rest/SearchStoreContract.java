package io.tern.engine.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.gateway.history.HistoryReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The searches' SQL against a history store filled by hand (the exporter's schema, in H2 and in
 * PostgreSQL: {@link H2SearchStoreTest}, {@link PostgresSearchStoreTest}), through the REST API on
 * its own: the filters whose edges a broker run does not reach (ranges, NULLs under $neq and
 * $notIn, long variable values past the indexed prefix, wildcards, the latest version), paging from
 * the first page back, the capped total, and the answers without a store (403) and with a store
 * that cannot be read (503).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SearchStoreContract {
  private static final HttpClient http = HttpClient.newHttpClient();
  private static final String LONG = "\"" + "y".repeat(300) + "\"";
  private static final String LONG_OTHER = "\"" + "y".repeat(299) + "z\"";
  private static final String EXACTLY_PREFIX = "\"" + "p".repeat(254) + "\"";
  private final List<AutoCloseable> closing = new ArrayList<>();
  private Connection keepAlive;
  HistoryReader.Location location;
  private int store;
  private int none;
  private int empty;

  /** A new, empty database, its credentials in its URL. */
  abstract HistoryReader.Location database() throws Exception;

  /** A database without the store's tables (the exporter has not opened it yet). */
  abstract HistoryReader.Location emptyDatabase() throws Exception;

  @BeforeAll
  void start() throws Exception {
    location = database();
    keepAlive = DriverManager.getConnection(location.url());
    try (Statement sql = keepAlive.createStatement()) {
      schema(sql);
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
      userTasks(sql);
    }
    // Past the count cap: 10,001 jobs.
    try (PreparedStatement job =
        keepAlive.prepareStatement(
            "INSERT INTO job (job_key, type, state, retries, partition_id, position)"
                + " VALUES (?, 'bulk', 'CREATED', 3, 1, ?)")) {
      for (long key = 1000; key <= 11000; key++) {
        job.setLong(1, key);
        job.setLong(2, key);
        job.addBatch();
      }
      job.executeBatch();
    }
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    store = gateway(new HistoryReader(location, registry));
    none = gateway(null);
    empty = gateway(new HistoryReader(emptyDatabase(), registry));
  }

  /**
   * The exporter's migration scripts the searches read (the user tasks of V2 and the search indexes
   * of V3 included, so both databases take them), statement by statement (they hold no ; but as
   * their end).
   */
  private static void schema(Statement sql) throws Exception {
    for (String name :
        List.of(
            "V1__history_schema.sql",
            "V2__user_tasks.sql",
            "V3__search_indexes.sql",
            "V4__fewer_index_updates.sql")) {
      if (!HistoryScripts.run(sql, name)) {
        throw new IllegalStateException(name + " is not on the class path");
      }
    }
  }

  /**
   * 50: instance 11's, waiting, in a subprocess (element 500 in 501), a quote in a candidate's
   * name; 51: instance 10's, completed; 52: instance 12's, nobody's, due first. Variables of 50's
   * scopes (11, 501, 500) and of a scope beside them (599) that 50 does not see.
   */
  private static void userTasks(Statement sql) throws SQLException {
    sql.execute(
        "INSERT INTO user_task (user_task_key, state, assignee, candidate_groups,"
            + " candidate_users, due_date, priority, custom_headers, element_id,"
            + " element_instance_key, process_instance_key, process_definition_key,"
            + " bpmn_process_id, process_definition_version, creation_date, completion_date,"
            + " partition_id, position) VALUES"
            + " (50, 'CREATED', 'alice', '[\"sales\",\"say \\u0022hi\\u0022\"]', NULL,"
            + " TIMESTAMP WITH TIME ZONE '2026-12-10 00:00:00Z', 50, '{\"queue\":\"eu\"}',"
            + " 'approve', 500, 11, 2, 'order', 2, TIMESTAMP WITH TIME ZONE"
            + " '2026-12-02 11:00:00Z', NULL, 1, 50),"
            + " (51, 'COMPLETED', 'bob', '[\"ops\"]', '[\"carol\"]', NULL, 80, NULL,"
            + " 'approve', 510, 10, 1, 'order', 1, TIMESTAMP WITH TIME ZONE"
            + " '2026-12-01 10:30:00Z', TIMESTAMP WITH TIME ZONE '2026-12-01 10:45:00Z', 1, 51),"
            + " (52, 'CREATED', NULL, NULL, NULL, TIMESTAMP WITH TIME ZONE"
            + " '2026-12-05 00:00:00Z', 10, NULL, 'review', 520, 12, 3, 'other_process', 1,"
            + " TIMESTAMP WITH TIME ZONE '2026-12-03 11:00:00Z', NULL, 1, 52)");
    sql.execute(
        "INSERT INTO element_instance (element_instance_key, process_instance_key, element_id,"
            + " flow_scope_key, state, partition_id, position) VALUES"
            + " (500, 11, 'approve', 501, 'ACTIVE', 1, 500),"
            + " (501, 11, 'sub', 11, 'ACTIVE', 1, 501),"
            + " (599, 11, 'beside', 11, 'ACTIVE', 1, 599)");
    for (Object[] v :
        new Object[][] {{501L, "inSub", "1"}, {500L, "local", "2"}, {599L, "beside", "3"}}) {
      sql.execute(
          "INSERT INTO variable (scope_key, name, variable_key, process_instance_key, value_json,"
              + " value_prefix, partition_id, position) VALUES ("
              + v[0]
              + ", '"
              + v[1]
              + "', "
              + ((Long) v[0] + 10_000)
              + ", 11, '"
              + v[2]
              + "', '"
              + v[2]
              + "', 1, 1)");
    }
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

  int gateway(HistoryReader reader) {
    RestGateway gateway = HistoryScripts.searchGateway(reader, new SimpleMeterRegistry());
    closing.add(gateway);
    if (reader != null) {
      closing.add(reader);
    }
    return gateway.port();
  }

  @AfterAll
  void stop() throws Exception {
    for (AutoCloseable closeable : closing) {
      closeable.close();
    }
    keepAlive.close();
    closeDatabase();
  }

  /** Stops what {@link #database()} started, once everything reading it is closed. */
  void closeDatabase() throws Exception {}

  HttpResponse<String> post(int port, String path, String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            // A search the store holds forever fails here rather than hanging the build.
            .timeout(Duration.ofSeconds(30))
            .header("content-type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private JsonNode search(String path, String body) throws Exception {
    HttpResponse<String> response = post(store, path, body);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return Json.MAPPER.readTree(response.body());
  }

  private List<String> keys(String path, String body, String key) throws Exception {
    List<String> keys = new ArrayList<>();
    search(path, body).get("items").forEach(item -> keys.add(item.get(key).asText()));
    return keys;
  }

  private List<String> instances(String filter) throws Exception {
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

  /**
   * A sort behind a filter holding columns to one value: the search puts those columns first in its
   * ORDER BY (for H2 to read the descending index in order), which must not change the order, nor
   * may a filter that does not hold its column to one value ($like) lead it. hasIncident is
   * "incident_count > 0" or its negation, and the count skips the definition join.
   */
  @Test
  void sortsBehindFixedFiltersAndIncidentFiltersAnswerAsWithoutIndexes() throws Exception {
    try (Statement sql = keepAlive.createStatement()) {
      // 'sorted': 20 and 23 start at the same time, 21 has no start, 22 is completed.
      sql.execute(
          "INSERT INTO process_instance (process_instance_key, bpmn_process_id, state, start_date,"
              + " incident_count, partition_id, position) VALUES"
              + " (20, 'sorted', 'ACTIVE', TIMESTAMP WITH TIME ZONE '2026-12-05 10:00:00Z', 0, 1, 20),"
              + " (21, 'sorted', 'ACTIVE', NULL, 0, 1, 21),"
              + " (22, 'sorted', 'COMPLETED', TIMESTAMP WITH TIME ZONE '2026-12-06 10:00:00Z', 0, 1,"
              + " 22),"
              + " (23, 'sorted', 'ACTIVE', TIMESTAMP WITH TIME ZONE '2026-12-05 10:00:00Z', 2, 1, 23),"
              + " (24, 'sorted', 'ACTIVE', TIMESTAMP WITH TIME ZONE '2026-12-04 10:00:00Z', 0, 1, 24),"
              + " (25, 'sorted2', 'ACTIVE', TIMESTAMP WITH TIME ZONE '2026-12-07 10:00:00Z', 0, 1,"
              + " 25)");
    }
    try {
      String sorted =
          "{\"filter\":{\"processDefinitionId\":%s,\"state\":\"ACTIVE\"},"
              + "\"sort\":[{\"field\":\"startDate\",\"order\":\"%s\"}]}";
      String path = "/v2/process-instances/search";
      assertThat(keys(path, sorted.formatted("\"sorted\"", "DESC"), "processInstanceKey"))
          .containsExactly("21", "20", "23", "24");
      assertThat(keys(path, sorted.formatted("\"sorted\"", "ASC"), "processInstanceKey"))
          .containsExactly("24", "20", "23", "21");
      assertThat(
              keys(path, sorted.formatted("{\"$like\":\"sorted*\"}", "DESC"), "processInstanceKey"))
          .containsExactly("21", "25", "20", "23", "24");
      assertThat(
              search(path, sorted.formatted("\"sorted\"", "DESC")).at("/page/totalItems").asInt())
          .isEqualTo(4);
      assertThat(instances("{\"processDefinitionId\":\"sorted\",\"hasIncident\":true}"))
          .containsExactly("23");
      assertThat(
              instances(
                  "{\"processDefinitionId\":\"sorted\",\"state\":\"ACTIVE\","
                      + "\"hasIncident\":{\"$eq\":false}}"))
          .containsExactly("20", "21", "24");
    } finally {
      try (Statement sql = keepAlive.createStatement()) {
        sql.execute("DELETE FROM process_instance WHERE process_instance_key BETWEEN 20 AND 25");
      }
    }
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

  private List<String> userTasks(String body) throws Exception {
    return keys("/v2/user-tasks/search", body, "userTaskKey");
  }

  @Test
  void userTasksFilterAndSortAsCamundaDoes() throws Exception {
    assertThat(userTasks("{\"filter\":{\"state\":\"CREATED\"}}")).containsExactly("50", "52");
    // A state Camunda has and Tern never stores finds nothing; one Camunda has not is a 400.
    assertThat(userTasks("{\"filter\":{\"state\":{\"$eq\":\"ASSIGNING\"}}}")).isEmpty();
    HttpResponse<String> badState =
        post(store, "/v2/user-tasks/search", "{\"filter\":{\"state\":\"DONE\"}}");
    assertThat(badState.statusCode()).isEqualTo(400);
    assertThat(badState.body()).contains("filter.state");
    assertThat(userTasks("{\"filter\":{\"assignee\":{\"$exists\":false}}}")).containsExactly("52");
    assertThat(userTasks("{\"filter\":{\"assignee\":{\"$like\":\"al*\"}}}")).containsExactly("50");
    // Candidates are matched whole: a part of a name, or a quote in one, finds no other name.
    assertThat(userTasks("{\"filter\":{\"candidateGroup\":\"sales\"}}")).containsExactly("50");
    assertThat(userTasks("{\"filter\":{\"candidateGroup\":\"say \\\"hi\\\"\"}}"))
        .containsExactly("50");
    assertThat(userTasks("{\"filter\":{\"candidateGroup\":\"hi\"}}")).isEmpty();
    assertThat(userTasks("{\"filter\":{\"candidateGroup\":\"sale\"}}")).isEmpty();
    assertThat(userTasks("{\"filter\":{\"candidateGroup\":{\"$in\":[\"ops\",\"sales\"]}}}"))
        .containsExactly("50", "51");
    // $neq keeps tasks without candidates, as for other fields.
    assertThat(userTasks("{\"filter\":{\"candidateGroup\":{\"$neq\":\"ops\"}}}"))
        .containsExactly("50", "52");
    assertThat(userTasks("{\"filter\":{\"candidateGroup\":{\"$notIn\":[\"ops\",\"sales\"]}}}"))
        .containsExactly("52");
    assertThat(userTasks("{\"filter\":{\"candidateUser\":\"carol\"}}")).containsExactly("51");
    HttpResponse<String> like =
        post(
            store, "/v2/user-tasks/search", "{\"filter\":{\"candidateGroup\":{\"$like\":\"s*\"}}}");
    assertThat(like.statusCode()).isEqualTo(400);
    assertThat(like.body()).contains("filter.candidateGroup.$like");
    assertThat(userTasks("{\"filter\":{\"priority\":{\"$gte\":50}}}")).containsExactly("50", "51");
    assertThat(userTasks("{\"filter\":{\"dueDate\":{\"$lt\":\"2026-12-06T00:00:00Z\"}}}"))
        .containsExactly("52");
    assertThat(userTasks("{\"filter\":{\"completionDate\":{\"$gte\":\"2026-12-01T10:45:00Z\"}}}"))
        .containsExactly("51");
    assertThat(userTasks("{\"filter\":{\"processInstanceKey\":\"10\"}}")).containsExactly("51");
    assertThat(userTasks("{\"filter\":{\"elementId\":\"review\"}}")).containsExactly("52");
    assertThat(
            userTasks(
                "{\"filter\":{\"processInstanceVariables\":[{\"name\":\"doc\",\"value\":"
                    + Json.MAPPER.writeValueAsString(EXACTLY_PREFIX)
                    + "}]}}"))
        .containsExactly("52");
    assertThat(
            userTasks("{\"filter\":{\"localVariables\":[{\"name\":\"local\",\"value\":\"2\"}]}}"))
        .containsExactly("50");
    // Newest due first, tasks without a due date before them (as every descending sort here).
    assertThat(userTasks("{\"sort\":[{\"field\":\"dueDate\",\"order\":\"DESC\"}]}"))
        .containsExactly("51", "50", "52");
    assertThat(userTasks("{\"sort\":[{\"field\":\"priority\"}],\"page\":{\"limit\":1}}"))
        .containsExactly("52");
  }

  @Test
  void aUserTaskByKeyAndTheVariablesItSees() throws Exception {
    HttpResponse<String> got =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + store + "/v2/user-tasks/50"))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(got.statusCode()).as(got.body()).isEqualTo(200);
    JsonNode task = Json.MAPPER.readTree(got.body());
    assertThat(task.get("userTaskKey").asText()).isEqualTo("50");
    assertThat(task.get("state").asText()).isEqualTo("CREATED");
    assertThat(task.get("assignee").asText()).isEqualTo("alice");
    assertThat(task.get("candidateGroups"))
        .isEqualTo(Json.MAPPER.readTree("[\"sales\",\"say \\\"hi\\\"\"]"));
    assertThat(task.get("candidateUsers")).isEqualTo(Json.MAPPER.createArrayNode());
    assertThat(task.get("customHeaders")).isEqualTo(Json.MAPPER.readTree("{\"queue\":\"eu\"}"));
    assertThat(task.get("dueDate").asText()).isEqualTo("2026-12-10T00:00:00.000Z");
    assertThat(task.get("processInstanceKey").asText()).isEqualTo("11");
    assertThat(task.get("elementInstanceKey").asText()).isEqualTo("500");
    assertThat(task.get("processDefinitionVersion").asInt()).isEqualTo(2);
    assertThat(task.get("tenantId").asText()).isEqualTo("<default>");
    HttpResponse<String> missing =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + store + "/v2/user-tasks/999"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(missing.statusCode()).isEqualTo(404);

    // Its element's, its subprocess's and its instance's variables; not those of a scope beside.
    assertThat(
            keys("/v2/user-tasks/50/variables/search", "{\"sort\":[{\"field\":\"name\"}]}", "name"))
        .containsExactly("doc", "inSub", "local");
    assertThat(
            keys(
                "/v2/user-tasks/50/variables/search",
                "{\"filter\":{\"name\":\"local\"}}",
                "scopeKey"))
        .containsExactly("500");
    assertThat(post(store, "/v2/user-tasks/999/variables/search", "{}").statusCode())
        .isEqualTo(404);
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
    // The last page's total is its end, not counted, and a page past the end counts.
    assertThat(second.at("/page/totalItems").asInt()).isEqualTo(3);
    assertThat(
            search("/v2/process-instances/search", "{\"page\":{\"from\":10,\"limit\":2}}")
                .at("/page/totalItems")
                .asInt())
        .isEqualTo(3);
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

  /**
   * Sorted by key, the page after an end cursor is the rows past the cursor's last key: a row added
   * before the cursor since neither repeats a row on the next page (as an offset would) nor changes
   * it. A cursor of the old form (an offset alone) still reads as that offset.
   */
  @Test
  void pagesAfterAnEndCursorStartPastItsLastKey() throws Exception {
    String path = "/v2/process-instances/search";
    JsonNode first = search(path, "{\"page\":{\"limit\":2}}");
    assertThat(first.get("items").findValuesAsText("processInstanceKey"))
        .containsExactly("10", "11");
    String after = first.at("/page/endCursor").asText();
    try (Statement sql = keepAlive.createStatement()) {
      sql.execute(
          "INSERT INTO process_instance (process_instance_key, bpmn_process_id, state,"
              + " incident_count, partition_id, position) VALUES (5, 'early', 'ACTIVE', 0, 1, 5)");
    }
    try {
      assertThat(
              keys(
                  path,
                  "{\"page\":{\"limit\":2,\"after\":\"" + after + "\"}}",
                  "processInstanceKey"))
          .containsExactly("12");
      String offsetOnly =
          java.util.Base64.getUrlEncoder()
              .withoutPadding()
              .encodeToString("tern-offset:2".getBytes(StandardCharsets.UTF_8));
      assertThat(
              keys(
                  path,
                  "{\"page\":{\"limit\":2,\"after\":\"" + offsetOnly + "\"}}",
                  "processInstanceKey"))
          .containsExactly("11", "12");
    } finally {
      try (Statement sql = keepAlive.createStatement()) {
        sql.execute("DELETE FROM process_instance WHERE process_instance_key = 5");
      }
    }
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

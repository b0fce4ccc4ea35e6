package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.tern.engine.gateway.history.HistoryReader;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import io.tern.engine.gateway.rest.SearchEntity.Kind;
import io.vertx.core.http.HttpMethod;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Camunda's user task searches over the history store's {@code user_task} table (docs/history.md):
 * {@code POST /v2/user-tasks/search}, {@code GET /v2/user-tasks/{userTaskKey}} and {@code POST
 * /v2/user-tasks/{userTaskKey}/variables/search} (the variables the task sees: those of its element
 * instance and of every scope around it).
 */
final class UserTaskSearches {
  /** Camunda's states; Tern stores the settled ones only, so the others find nothing. */
  private static final String[] STATES = {
    "CREATING",
    "CREATED",
    "ASSIGNING",
    "UPDATING",
    "COMPLETING",
    "COMPLETED",
    "CANCELING",
    "CANCELED",
    "FAILED"
  };

  private static final Set<String> CANDIDATE_OPERATORS =
      Set.of("$eq", "$neq", "$exists", "$in", "$notIn");

  /** Nesting deeper than this (embedded subprocesses in subprocesses...) is not walked further. */
  private static final int MAX_SCOPE_DEPTH = 100;

  private UserTaskSearches() {}

  static void register(Routes routes, HistoryReader history, SearchEntity variables) {
    SearchRoutes.serve(routes, history, "/v2/user-tasks", userTasks(), true);
    routes.json(
        HttpMethod.POST,
        "/v2/user-tasks/{userTaskKey}/variables/search",
        exchange -> {
          long task = exchange.pathKey("userTaskKey");
          SearchRoutes.refuseWithout(history);
          SearchEntity.Query query = variables.query(exchange.body());
          history
              .read(
                  "user task variable search",
                  (connection, timeout) -> {
                    List<Long> scopes = scopes(connection, timeout, task);
                    if (scopes == null) {
                      return null;
                    }
                    String marks = String.join(", ", Collections.nCopies(scopes.size(), "?"));
                    query.where().add("v.scope_key IN (" + marks + ")", scopes);
                    return variables.search(connection, timeout, query);
                  })
              .whenComplete(
                  (result, error) -> {
                    if (error == null && result == null) {
                      exchange.fail(
                          new Problems.NotFound(
                              "the history store holds no user task with key "
                                  + task
                                  + " (it may not be exported yet, or retention removed it)"));
                    } else if (error != null) {
                      exchange.fail(error);
                    } else {
                      exchange.json(200, result);
                    }
                  });
        });
  }

  /**
   * The scopes whose variables {@code task} sees: its element instance, the flow scopes around it
   * and the process instance; null if the store holds no such task.
   */
  private static List<Long> scopes(Connection connection, int timeout, long task)
      throws SQLException {
    List<Long> scopes = new ArrayList<>();
    long element;
    long instance;
    try (PreparedStatement statement =
        connection.prepareStatement(
            "SELECT element_instance_key, process_instance_key FROM user_task"
                + " WHERE user_task_key = ?")) {
      statement.setQueryTimeout(timeout);
      statement.setLong(1, task);
      try (ResultSet row = statement.executeQuery()) {
        if (!row.next()) {
          return null;
        }
        element = row.getLong(1);
        instance = row.getLong(2);
      }
    }
    scopes.add(instance);
    try (PreparedStatement parent =
        connection.prepareStatement(
            "SELECT flow_scope_key FROM element_instance WHERE element_instance_key = ?")) {
      parent.setQueryTimeout(timeout);
      long scope = element;
      for (int depth = 0; depth < MAX_SCOPE_DEPTH && scope > 0 && scope != instance; depth++) {
        scopes.add(scope);
        parent.setLong(1, scope);
        try (ResultSet row = parent.executeQuery()) {
          scope = row.next() ? row.getLong(1) : 0;
        }
      }
    }
    return scopes;
  }

  private static SearchEntity userTasks() {
    return new SearchEntity("user task", "user_task ut", "userTaskKey", "ut.user_task_key")
        .enumerated("state", "ut.state", STATES)
        .text("assignee", "ut.assignee")
        .field("priority", "ut.priority", Kind.INT)
        .text("elementId", "ut.element_id")
        .answered("name", "CAST(NULL AS VARCHAR(1))", Kind.TEXT)
        .answered("candidateGroups", "COALESCE(ut.candidate_groups, '[]')", Kind.JSON)
        .answered("candidateUsers", "COALESCE(ut.candidate_users, '[]')", Kind.JSON)
        .text("processDefinitionId", "ut.bpmn_process_id")
        .field("creationDate", "ut.creation_date", Kind.DATE)
        .field("completionDate", "ut.completion_date", Kind.DATE)
        .field("followUpDate", "ut.follow_up_date", Kind.DATE)
        .field("dueDate", "ut.due_date", Kind.DATE)
        .text("externalFormReference", "ut.external_form_reference")
        .field("processDefinitionVersion", "ut.process_definition_version", Kind.INT)
        .answered("customHeaders", "COALESCE(ut.custom_headers, '{}')", Kind.JSON)
        .field("elementInstanceKey", "ut.element_instance_key", Kind.KEY)
        .field("processDefinitionKey", "ut.process_definition_key", Kind.KEY)
        .field("processInstanceKey", "ut.process_instance_key", Kind.KEY)
        .field("formKey", "ut.form_key", Kind.KEY)
        .answered("processName", "CAST(NULL AS VARCHAR(1))", Kind.TEXT)
        .answered("rootProcessInstanceKey", "CAST(NULL AS BIGINT)", Kind.KEY)
        .constant("tags", Json.MAPPER.createArrayNode())
        .custom("candidateGroup", candidates("ut.candidate_groups"))
        .custom("candidateUser", candidates("ut.candidate_users"))
        .custom(
            "processInstanceVariables",
            (where, name, node) ->
                SearchRoutes.variablesOf(
                    where, name, node, "ut.process_instance_key", "process_instance_key"))
        .custom(
            "localVariables",
            (where, name, node) ->
                SearchRoutes.variablesOf(where, name, node, "ut.element_instance_key", "scope_key"))
        .unsupported("name", "Tern keeps no BPMN names in its history store")
        .unsupported("tags", "Tern keeps no user task tags")
        .unsupported("$or", "give one filter per search");
  }

  /**
   * A filter on one candidate of a list column: a name, or {@code $eq}, {@code $neq}, {@code $in},
   * {@code $notIn}, {@code $exists}. The column holds a JSON array whose names have their quotes
   * written {@code \u0022} (docs/history.md), so {@code LIKE '%"name"%'} finds that name exactly;
   * {@code $like} is refused: a wildcard could match across two names.
   */
  private static SearchEntity.CustomFilter candidates(String column) {
    return (where, name, node) -> {
      if (node == null || node.isNull()) {
        return;
      }
      if (!node.isObject()) {
        where.add(column + " LIKE ? ESCAPE '\\'", pattern(SearchFilters.text(name, node)));
        return;
      }
      for (Iterator<Map.Entry<String, JsonNode>> entries = node.fields(); entries.hasNext(); ) {
        Map.Entry<String, JsonNode> entry = entries.next();
        String operator = entry.getKey();
        String at = name + "." + operator;
        JsonNode operand = entry.getValue();
        if (!CANDIDATE_OPERATORS.contains(operator)) {
          throw new InvalidRequest(
              "'"
                  + at
                  + "' is not a filter operator of '"
                  + name
                  + "' (it takes "
                  + CANDIDATE_OPERATORS
                  + ": a candidate is matched whole)");
        }
        if (operand == null || operand.isNull()) {
          continue;
        }
        switch (operator) {
          case "$eq" ->
              where.add(column + " LIKE ? ESCAPE '\\'", pattern(SearchFilters.text(at, operand)));
          case "$neq" ->
              where.add(
                  "(" + column + " IS NULL OR " + column + " NOT LIKE ? ESCAPE '\\')",
                  pattern(SearchFilters.text(at, operand)));
          case "$exists" -> {
            if (!operand.isBoolean()) {
              throw new InvalidRequest("'" + at + "' must be true or false, not " + operand);
            }
            where.add(column + (operand.booleanValue() ? " IS NOT NULL" : " IS NULL"));
          }
          case "$in", "$notIn" -> {
            if (!operand.isArray()) {
              throw new InvalidRequest(
                  "'" + at + "' must be an array, not " + operand.getNodeType());
            }
            List<Object> patterns = new ArrayList<>();
            for (JsonNode element : operand) {
              patterns.add(pattern(SearchFilters.text(at, element)));
            }
            if (patterns.isEmpty()) {
              continue; // the client sends "$in": [] for a filter it was not given
            }
            boolean in = operator.equals("$in");
            String each = column + (in ? " LIKE" : " NOT LIKE") + " ? ESCAPE '\\'";
            String joined =
                String.join(in ? " OR " : " AND ", Collections.nCopies(patterns.size(), each));
            where.add(
                in ? "(" + joined + ")" : "(" + column + " IS NULL OR (" + joined + "))", patterns);
          }
          default -> throw new IllegalStateException(operator);
        }
      }
    };
  }

  /** The LIKE pattern that finds {@code name} in a stored list: its JSON text, quotes and all. */
  static String pattern(String name) {
    StringBuilder json = new StringBuilder(name.length() + 2).append('"');
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      // Written as the exporter writes it (its JsonText).
      if (c == '\\') {
        json.append("\\\\");
      } else if (c == '"' || c < 0x20) {
        json.append(String.format("\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    json.append('"');
    StringBuilder like = new StringBuilder(json.length() + 8).append('%');
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      if (c == '%' || c == '_' || c == '\\') {
        like.append('\\');
      }
      like.append(c);
    }
    return like.append('%').toString();
  }
}

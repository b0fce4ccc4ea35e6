package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tern.engine.gateway.history.HistoryReader;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import io.tern.engine.gateway.rest.SearchEntity.Kind;
import io.tern.engine.gateway.rest.SearchFilters.Where;
import io.vertx.core.http.HttpMethod;
import java.util.List;

/**
 * Camunda's searches (POST /v2/.../search) and reads by key (GET /v2/.../{key}) over the history
 * store the history exporter writes (docs/history.md): process definitions, process instances,
 * element instances, variables, incidents, jobs and user tasks ({@link UserTaskSearches}). The
 * store is read on threads of its own and lags the engine by its exporter's flush interval (a
 * second by default). Without a store every such request is a 403 saying how to have one.
 */
final class SearchRoutes {
  private static final String NO_NAMES = "Tern keeps no BPMN names in its history store";
  private static final String NO_BATCHES = "Tern runs no batch operations";

  private SearchRoutes() {}

  static void register(Routes routes, HistoryReader history) {
    SearchEntity definitions = processDefinitions();
    SearchEntity instances = processInstances();
    SearchEntity elements = elementInstances();
    SearchEntity variables = variables();
    SearchEntity incidents = incidents();
    SearchEntity jobs = jobs();
    serve(routes, history, "/v2/process-definitions", definitions, true);
    serve(routes, history, "/v2/process-instances", instances, true);
    serve(routes, history, "/v2/element-instances", elements, true);
    serve(routes, history, "/v2/variables", variables, true);
    serve(routes, history, "/v2/incidents", incidents, true);
    serve(routes, history, "/v2/jobs", jobs, false);
    UserTaskSearches.register(routes, history, variables);
  }

  static void serve(
      Routes routes, HistoryReader history, String path, SearchEntity entity, boolean get) {
    routes.json(
        HttpMethod.POST,
        path + "/search",
        exchange -> {
          refuseWithout(history);
          SearchEntity.Query query = entity.query(exchange.body());
          history
              .read(
                  entity.noun + " search",
                  (connection, timeout) -> entity.search(connection, timeout, query))
              .whenComplete((result, error) -> answer(exchange, result, error));
        });
    if (!get) {
      return;
    }
    String keyName = entity.keyName();
    routes.json(
        HttpMethod.GET,
        path + "/{" + keyName + "}",
        exchange -> {
          long key = exchange.pathKey(keyName);
          refuseWithout(history);
          history
              .read(
                  entity.noun + " get",
                  (connection, timeout) -> entity.get(connection, timeout, key))
              .whenComplete(
                  (result, error) -> {
                    if (error == null && result == null) {
                      exchange.fail(
                          new Problems.NotFound(
                              "the history store holds no "
                                  + entity.noun
                                  + " with key "
                                  + key
                                  + " (it may not be exported yet, or retention removed it)"));
                    } else {
                      answer(exchange, result, error);
                    }
                  });
        });
  }

  static void refuseWithout(HistoryReader history) {
    if (history == null) {
      throw new Problems.NoHistoryStore(
          "this gateway reads no history store: searches need one (on a single broker"
              + " exporting.history.enabled, on by default; in a cluster"
              + " exporters.history.args.url: docs/history.md)");
    }
  }

  private static void answer(Exchange exchange, ObjectNode result, Throwable error) {
    if (error != null) {
      exchange.fail(error);
    } else {
      exchange.json(200, result);
    }
  }

  private static SearchEntity processDefinitions() {
    return new SearchEntity(
            "process definition",
            "process_definition pd",
            "processDefinitionKey",
            "pd.process_definition_key")
        .text("processDefinitionId", "pd.bpmn_process_id")
        .field("version", "pd.version", Kind.INT)
        .text("versionTag", "pd.version_tag")
        .text("resourceName", "pd.resource_name")
        .answered("name", "CAST(NULL AS VARCHAR(1))", Kind.TEXT)
        .answered("hasStartForm", "FALSE", Kind.BOOL)
        .custom(
            "isLatestVersion",
            (where, name, node) -> {
              if (!node.isBoolean()) {
                throw new InvalidRequest("'" + name + "' must be true or false, not " + node);
              }
              where.add(
                  (node.booleanValue() ? "" : "NOT ")
                      + "pd.version = (SELECT MAX(latest.version) FROM process_definition latest"
                      + " WHERE latest.bpmn_process_id = pd.bpmn_process_id)");
            })
        .unsupported("name", NO_NAMES)
        .unsupported("hasStartForm", "Tern serves no forms");
  }

  private static SearchEntity processInstances() {
    return new SearchEntity(
            "process instance",
            "process_instance pi LEFT JOIN process_definition pd"
                + " ON pd.process_definition_key = pi.process_definition_key",
            "processInstanceKey",
            "pi.process_instance_key")
        .countingFrom("process_instance pi", "pd")
        .text("processDefinitionId", "pi.bpmn_process_id")
        .answered("processDefinitionName", "CAST(NULL AS VARCHAR(1))", Kind.TEXT)
        .field("processDefinitionVersion", "pi.version", Kind.INT)
        .text("processDefinitionVersionTag", "pd.version_tag")
        .field("processDefinitionKey", "pi.process_definition_key", Kind.KEY)
        .field("parentProcessInstanceKey", "pi.parent_process_instance_key", Kind.KEY)
        .field("parentElementInstanceKey", "pi.parent_element_instance_key", Kind.KEY)
        .field("startDate", "pi.start_date", Kind.DATE)
        .field("endDate", "pi.end_date", Kind.DATE)
        .enumerated("state", "pi.state", "ACTIVE", "COMPLETED", "TERMINATED")
        .field("hasIncident", "(pi.incident_count > 0)", Kind.BOOL)
        .constant("tags", Json.MAPPER.createArrayNode())
        .custom(
            "variables",
            (where, name, node) ->
                variablesOf(where, name, node, "pi.process_instance_key", "process_instance_key"))
        .unsupported("processDefinitionName", NO_NAMES)
        .unsupported("batchOperationId", NO_BATCHES)
        .unsupported("batchOperationKey", NO_BATCHES)
        .unsupported("tags", "Tern keeps no instance tags")
        .unsupported("businessId", "Tern keeps no business ids")
        .unsupported("errorMessage", "search incidents by errorMessage instead")
        .unsupported("hasRetriesLeft", "search jobs instead")
        .unsupported("elementInstanceState", "search element instances instead")
        .unsupported("elementId", "search element instances instead")
        .unsupported("hasElementInstanceIncident", "search element instances instead")
        .unsupported("incidentErrorHashCode", "Tern keeps no error hash codes")
        .unsupported("$or", "give one filter per search");
  }

  /**
   * {@code variables: [{name, value}]}: rows whose {@code key} is the {@code column} of a variable
   * (its {@code process_instance_key}: any scope of the instance; its {@code scope_key}: that scope
   * only) for each named variable with a value matching (the value as JSON text: {@code "\"A-1\""}
   * for the text A-1). Reads the (name, value prefix) index; a value longer than the prefix is
   * compared in full as well.
   */
  static void variablesOf(Where where, String name, JsonNode node, String key, String column) {
    List<ObjectNode> conditions = Json.objects(wrap(name, node), name);
    for (ObjectNode condition : conditions) {
      JsonNode variable = condition.get("name");
      if (variable == null || !variable.isTextual()) {
        throw new InvalidRequest("'" + name + "[].name' must be a variable's name (a string)");
      }
      Where inner = new Where();
      inner.add("v.name = ?", variable.textValue());
      VariableValues.add(inner, name + "[].value", condition.get("value"));
      where.add(
          key + " IN (SELECT v." + column + " FROM variable v" + inner.sql() + ")",
          inner.parameters());
    }
  }

  private static ObjectNode wrap(String name, JsonNode node) {
    ObjectNode wrapper = Json.MAPPER.createObjectNode();
    wrapper.set(name, node);
    return wrapper;
  }

  private static SearchEntity elementInstances() {
    return new SearchEntity(
            "element instance",
            "element_instance ei",
            "elementInstanceKey",
            "ei.element_instance_key")
        .field("processInstanceKey", "ei.process_instance_key", Kind.KEY)
        .field("processDefinitionKey", "ei.process_definition_key", Kind.KEY)
        .text("processDefinitionId", "ei.bpmn_process_id")
        .text("elementId", "ei.element_id")
        .answered("elementName", "CAST(NULL AS VARCHAR(1))", Kind.TEXT)
        .text("type", "ei.element_type")
        .enumerated("state", "ei.state", "ACTIVE", "COMPLETED", "TERMINATED")
        .field("startDate", "ei.start_date", Kind.DATE)
        .field("endDate", "ei.end_date", Kind.DATE)
        .field("hasIncident", "ei.incident", Kind.BOOL)
        .field(
            "incidentKey",
            "(SELECT MIN(i.incident_key) FROM incident i WHERE i.element_instance_key"
                + " = ei.element_instance_key AND i.state = 'ACTIVE')",
            Kind.KEY)
        .field("elementInstanceScopeKey", "ei.flow_scope_key", Kind.KEY)
        .unsupported("elementName", NO_NAMES);
  }

  private static SearchEntity variables() {
    return new SearchEntity("variable", "variable v", "variableKey", "v.variable_key")
        .text("name", "v.name")
        .answered("value", "v.value_json", Kind.TEXT)
        .answered("isTruncated", "FALSE", Kind.BOOL)
        .field("scopeKey", "v.scope_key", Kind.KEY)
        .field("processInstanceKey", "v.process_instance_key", Kind.KEY)
        .custom("value", VariableValues::add)
        .unsupported("isTruncated", "Tern answers whole values");
  }

  private static SearchEntity incidents() {
    return new SearchEntity("incident", "incident i", "incidentKey", "i.incident_key")
        .text("processDefinitionId", "i.bpmn_process_id")
        .field("processDefinitionKey", "i.process_definition_key", Kind.KEY)
        .field("processInstanceKey", "i.process_instance_key", Kind.KEY)
        .field("elementInstanceKey", "i.element_instance_key", Kind.KEY)
        .text("elementId", "i.element_id")
        .field("jobKey", "i.job_key", Kind.KEY)
        .text("errorType", "i.error_type")
        .answered("errorMessage", "i.error_message", Kind.TEXT)
        .enumerated("state", "i.state", "ACTIVE", "RESOLVED")
        .field("creationTime", "i.created_at", Kind.DATE)
        .unsupported("errorMessage", "Tern's store does not index error messages");
  }

  private static SearchEntity jobs() {
    return new SearchEntity("job", "job j", "jobKey", "j.job_key")
        .text("type", "j.type")
        .text("worker", "j.worker")
        // Camunda has no state for an activated job: it stays CREATED until it ends.
        .enumerated(
            "state",
            "(CASE WHEN j.state IN ('ACTIVATED', 'RECURRED_AFTER_BACKOFF', 'YIELDED')"
                + " THEN 'CREATED' ELSE j.state END)",
            "CREATED",
            "COMPLETED",
            "FAILED",
            "TIMED_OUT",
            "ERROR_THROWN",
            "CANCELED",
            "RETRIES_UPDATED",
            "MIGRATED")
        .field("retries", "j.retries", Kind.INT)
        .field("processInstanceKey", "j.process_instance_key", Kind.KEY)
        .field("processDefinitionKey", "j.process_definition_key", Kind.KEY)
        .text("processDefinitionId", "j.bpmn_process_id")
        .field("elementInstanceKey", "j.element_instance_key", Kind.KEY)
        .text("elementId", "j.element_id")
        .text("errorCode", "j.error_code")
        .answered("errorMessage", "j.error_message", Kind.TEXT)
        .field("deadline", "j.deadline", Kind.DATE)
        .field("creationTime", "j.created_at", Kind.DATE)
        .field("endTime", "j.ended_at", Kind.DATE)
        .answered("kind", "'BPMN_ELEMENT'", Kind.TEXT)
        .answered("listenerEventType", "'UNSPECIFIED'", Kind.TEXT)
        .answered("hasFailedWithRetriesLeft", "(j.state = 'FAILED' AND j.retries > 0)", Kind.BOOL)
        .answered("isDenied", "FALSE", Kind.BOOL)
        .constant("customHeaders", Json.MAPPER.createObjectNode())
        .unsupported("errorMessage", "Tern's store does not index error messages")
        .unsupported("kind", "Tern runs BPMN element jobs only")
        .unsupported("listenerEventType", "Tern runs no listeners")
        .unsupported("isDenied", "Tern runs no listeners")
        .unsupported("deniedReason", "Tern runs no listeners")
        .unsupported("lastUpdateTime", "Tern's store does not keep it")
        .unsupported("hasFailedWithRetriesLeft", "filter by state and retries");
  }
}

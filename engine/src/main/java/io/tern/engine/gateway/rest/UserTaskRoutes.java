package io.tern.engine.gateway.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tern.engine.gateway.rest.Problems.InvalidRequest;
import io.vertx.core.http.HttpMethod;
import java.util.List;

/**
 * Camunda user tasks: assignment (a claim when {@code allowOverride} is false), unassignment,
 * completion and update, as the 8.9 client sends them. Searching and reading tasks is not served
 * here (it comes with the search over the history store).
 */
final class UserTaskRoutes {
  private UserTaskRoutes() {}

  static void register(Routes routes, UserTaskService service) {
    routes.json(
        HttpMethod.POST,
        "/v2/user-tasks/{userTaskKey}/assignment",
        exchange -> {
          ObjectNode body = exchange.body();
          String assignee = Json.text(body, "assignee");
          if (assignee.isBlank()) {
            throw new InvalidRequest("an assignment needs an 'assignee'");
          }
          boolean allowOverride =
              !body.hasNonNull("allowOverride") || Json.bool(body, "allowOverride");
          service.assign(
              exchange.pathKey("userTaskKey"),
              assignee,
              allowOverride,
              Json.text(body, "action"),
              exchange.noContentReply());
        });
    routes.json(
        HttpMethod.DELETE,
        "/v2/user-tasks/{userTaskKey}/assignee",
        exchange -> service.unassign(exchange.pathKey("userTaskKey"), exchange.noContentReply()));
    routes.json(
        HttpMethod.POST,
        "/v2/user-tasks/{userTaskKey}/completion",
        exchange -> {
          ObjectNode body = exchange.body();
          service.complete(
              exchange.pathKey("userTaskKey"),
              Json.variables(body, "variables"),
              Json.text(body, "action"),
              exchange.noContentReply());
        });
    routes.json(
        HttpMethod.PATCH,
        "/v2/user-tasks/{userTaskKey}",
        exchange -> {
          ObjectNode body = exchange.body();
          UserTaskService.Changes changes = changes(body);
          String action = Json.text(body, "action");
          if (action.isEmpty()
              && changes.equals(new UserTaskService.Changes(null, null, null, null, null))) {
            throw new InvalidRequest(
                "an update needs an 'action' or a 'changeset' with candidateGroups,"
                    + " candidateUsers, dueDate, followUpDate or priority");
          }
          service.update(
              exchange.pathKey("userTaskKey"), changes, action, exchange.noContentReply());
        });
  }

  /** The changeset's attributes; null, or absent, leaves one as it is. */
  private static UserTaskService.Changes changes(ObjectNode body) {
    JsonNode node = body.get("changeset");
    if (node == null || node.isNull()) {
      return new UserTaskService.Changes(null, null, null, null, null);
    }
    if (!(node instanceof ObjectNode changeset)) {
      throw new InvalidRequest("'changeset' must be a JSON object");
    }
    for (var names = changeset.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!List.of("candidateGroups", "candidateUsers", "dueDate", "followUpDate", "priority")
          .contains(name)) {
        throw new InvalidRequest(
            "'changeset' cannot change '"
                + name
                + "'; it changes candidateGroups, candidateUsers, dueDate, followUpDate and"
                + " priority");
      }
    }
    Integer priority = null;
    if (changeset.hasNonNull("priority")) {
      int value = Json.integer(changeset, "priority", 0);
      if (value < 0 || value > 100) {
        throw new InvalidRequest("'priority' must be from 0 to 100, not " + value);
      }
      priority = value;
    }
    return new UserTaskService.Changes(
        changeset.hasNonNull("candidateGroups") ? Json.texts(changeset, "candidateGroups") : null,
        changeset.hasNonNull("candidateUsers") ? Json.texts(changeset, "candidateUsers") : null,
        changeset.hasNonNull("dueDate") ? Json.text(changeset, "dueDate") : null,
        changeset.hasNonNull("followUpDate") ? Json.text(changeset, "followUpDate") : null,
        priority);
  }
}

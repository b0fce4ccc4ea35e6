package io.tern.engine.gateway;

import io.grpc.stub.StreamObserver;
import io.tern.engine.gateway.rest.UserTaskService;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.workflow.value.UserTaskValue;

/**
 * The gateway's user task commands (REST only: Zeebe's gRPC API has none), each sent to the
 * partition the task's key was made on. A REST assignment with {@code allowOverride} false is a
 * CLAIM, as in Camunda; unassigning is an ASSIGN without assignee.
 */
final class UserTaskRequests implements UserTaskService {
  private final GatewayCommands commands;

  UserTaskRequests(GatewayCommands commands) {
    this.commands = commands;
  }

  @Override
  public void assign(
      long userTaskKey,
      String assignee,
      boolean allowOverride,
      String action,
      StreamObserver<Object> observer) {
    UserTaskValue assignment = new UserTaskValue();
    assignment.assignee = assignee;
    assignment.action = action;
    if (allowOverride) {
      send("AssignUserTask", userTaskKey, UserTaskIntent.ASSIGN, assignment, observer);
    } else {
      send("ClaimUserTask", userTaskKey, UserTaskIntent.CLAIM, assignment, observer);
    }
  }

  @Override
  public void unassign(long userTaskKey, StreamObserver<Object> observer) {
    UserTaskValue unassignment = new UserTaskValue();
    unassignment.action = "unassign";
    send("UnassignUserTask", userTaskKey, UserTaskIntent.ASSIGN, unassignment, observer);
  }

  @Override
  public void complete(
      long userTaskKey, String variables, String action, StreamObserver<Object> observer) {
    UserTaskValue completion = new UserTaskValue();
    completion.variables = Conversions.json(variables);
    completion.action = action;
    send("CompleteUserTask", userTaskKey, UserTaskIntent.COMPLETE, completion, observer);
  }

  @Override
  public void update(
      long userTaskKey, Changes changes, String action, StreamObserver<Object> observer) {
    UserTaskValue update = new UserTaskValue();
    update.action = action;
    if (changes.candidateGroups() != null) {
      update.changed.add(UserTaskValue.CANDIDATE_GROUPS);
      update.candidateGroups.addAll(changes.candidateGroups());
    }
    if (changes.candidateUsers() != null) {
      update.changed.add(UserTaskValue.CANDIDATE_USERS);
      update.candidateUsers.addAll(changes.candidateUsers());
    }
    if (changes.dueDate() != null) {
      update.changed.add(UserTaskValue.DUE_DATE);
      update.dueDate = changes.dueDate();
    }
    if (changes.followUpDate() != null) {
      update.changed.add(UserTaskValue.FOLLOW_UP_DATE);
      update.followUpDate = changes.followUpDate();
    }
    if (changes.priority() != null) {
      update.changed.add(UserTaskValue.PRIORITY);
      update.priority = changes.priority();
    }
    send("UpdateUserTask", userTaskKey, UserTaskIntent.UPDATE, update, observer);
  }

  private void send(
      String what,
      long userTaskKey,
      UserTaskIntent intent,
      UserTaskValue value,
      StreamObserver<Object> observer) {
    commands.byKey(what, userTaskKey, intent, value, observer, answer -> Boolean.TRUE);
  }
}

package io.tern.engine.gateway.rest;

import io.grpc.stub.StreamObserver;
import java.util.List;

/**
 * The gateway's user task commands, which Zeebe's gRPC API does not have: the REST routes hand them
 * on as the other routes hand theirs to the gRPC handlers, and are answered the same way (a
 * response once the partition accepted, a gRPC status when it did not).
 */
public interface UserTaskService {
  /**
   * Assigns the task to {@code assignee}; with {@code allowOverride} false, only when it has no
   * other assignee (a claim).
   *
   * @param action what the task list did ("" for the default: "assign", or "claim")
   */
  void assign(
      long userTaskKey,
      String assignee,
      boolean allowOverride,
      String action,
      StreamObserver<Object> observer);

  void unassign(long userTaskKey, StreamObserver<Object> observer);

  /**
   * @param variables a JSON object, or "" for none
   */
  void complete(long userTaskKey, String variables, String action, StreamObserver<Object> observer);

  void update(long userTaskKey, Changes changes, String action, StreamObserver<Object> observer);

  /**
   * What an update changes: each attribute that is null stays as it is; an empty date clears it.
   */
  record Changes(
      List<String> candidateGroups,
      List<String> candidateUsers,
      String dueDate,
      String followUpDate,
      Integer priority) {}
}

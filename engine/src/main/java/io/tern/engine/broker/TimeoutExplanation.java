package io.tern.engine.broker;

import io.tern.engine.partition.EnginePartition;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.workflow.inspect.WorkflowInspection;
import io.tern.engine.workflow.inspect.WorkflowInspection.Element;
import io.tern.raft.RaftRole;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Why a client command got no answer in time, as far as the broker that wrote it knows: its
 * partition's leadership moved, its processing is paused, the command waits unprocessed, or (a
 * create awaiting its result) the instance has an incident or still waits somewhere. Says what is
 * known, not what might be.
 */
final class TimeoutExplanation {
  /** How long the state of an instance may take to read before the answer goes without it. */
  private static final long INSPECTION_TIMEOUT_MS = 500;

  /** Active elements named at most, for an instance waiting in many places. */
  private static final int MAX_PLACES = 3;

  private TimeoutExplanation() {}

  static CompletableFuture<String> of(
      EnginePartition partition, InFlightRequests.InFlight request) {
    int partitionId = request.partitionId;
    if (partition == null) {
      return done("partition " + partitionId + " is no longer on this broker");
    }
    RaftRole role = partition.raft().role();
    if (role != RaftRole.LEADER) {
      return done(
          "partition "
              + partitionId
              + "'s leader changed after the command was written (this broker is now its "
              + role.name().toLowerCase(java.util.Locale.ROOT)
              + "); if the command was committed, the new leader processes it");
    }
    String paused =
        partition.processor().phase() == ProcessorPhase.PAUSED
            ? "processing is paused on partition "
                + partitionId
                + " (POST /actuator/partitions/resumeProcessing, with the management token, resumes it)"
            : null;
    if (!request.processed) {
      return done(
          paused != null
              ? paused + "; the command is written and waits to be processed"
              : "partition " + partitionId + " had not processed the command yet");
    }
    boolean awaitsInstance =
        request.intent == CreationIntent.CREATE_WITH_AWAITING_RESULT && request.processedKey >= 0;
    if (!awaitsInstance) {
      return done(
          paused != null
              ? paused
              : "partition "
                  + partitionId
                  + " processed the command; its answer was not committed");
    }
    long instanceKey = request.processedKey;
    return partition
        .processor()
        .query(state -> new WorkflowInspection(state).instance(instanceKey))
        .completeOnTimeout(null, INSPECTION_TIMEOUT_MS, TimeUnit.MILLISECONDS)
        .handle(
            (instance, error) -> {
              String where;
              if (error != null || instance == null) {
                where = "process instance " + instanceKey + " did not end in time";
              } else {
                where = waiting(instance);
              }
              return paused != null ? paused + "; " + where : where;
            });
  }

  /** Where an instance that has not ended waits: its incidents first, else its active elements. */
  static String waiting(WorkflowInspection.Instance instance) {
    List<Element> incidents = new ArrayList<>();
    List<Element> leaves = new ArrayList<>();
    collect(instance.root(), incidents, leaves);
    String prefix = "process instance " + instance.key() + " has not ended: ";
    if (!incidents.isEmpty()) {
      Element first = incidents.get(0);
      return prefix
          + "it has an incident on '"
          + first.elementId()
          + "' ("
          + first.incident().errorType()
          + ": "
          + first.incident().errorMessage()
          + ")"
          + (incidents.size() > 1 ? " and " + (incidents.size() - 1) + " more" : "")
          + "; resolve it to go on (GET /actuator/instances/"
          + instance.key()
          + ")";
    }
    StringBuilder places = new StringBuilder();
    for (int i = 0; i < Math.min(MAX_PLACES, leaves.size()); i++) {
      Element leaf = leaves.get(i);
      places.append(i == 0 ? "" : ", ").append('\'').append(leaf.elementId()).append('\'');
      if (leaf.jobKey() >= 0) {
        places.append(" (job ").append(leaf.jobKey()).append(')');
      } else if (leaf.userTaskKey() >= 0) {
        places.append(" (user task ").append(leaf.userTaskKey()).append(')');
      }
    }
    if (leaves.size() > MAX_PLACES) {
      places.append(" and ").append(leaves.size() - MAX_PLACES).append(" more");
    }
    return prefix + "it waits at " + (leaves.isEmpty() ? "its process element" : places);
  }

  private static void collect(Element element, List<Element> incidents, List<Element> leaves) {
    if (element.incident() != null) {
      incidents.add(element);
    }
    if (element.children().isEmpty()) {
      leaves.add(element);
    }
    for (Element child : element.children()) {
      collect(child, incidents, leaves);
    }
  }

  private static CompletableFuture<String> done(String text) {
    return CompletableFuture.completedFuture(text);
  }
}

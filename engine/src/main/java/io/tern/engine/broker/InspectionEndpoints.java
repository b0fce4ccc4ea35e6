package io.tern.engine.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import io.tern.engine.partition.EnginePartition;
import io.tern.engine.record.Keys;
import io.tern.engine.workflow.inspect.WorkflowInspection;
import io.tern.engine.workflow.inspect.WorkflowInspection.Element;
import io.tern.engine.workflow.inspect.WorkflowInspection.Incident;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * What is stuck, read from this broker's replicas of the partitions: {@code GET
 * /actuator/incidents} (the open incidents) and {@code GET /actuator/instances/{key}} (where an
 * active process instance is: its element tree, variables and incidents). Each broker answers from
 * the replicas it holds; a follower's may lag its leader by a few records, which the answer says.
 * Variables are business data: only a caller with the management token sees them, the others see
 * {@link #REDACTED} once at the top instead.
 */
final class InspectionEndpoints {
  /** Incidents listed per partition at most: enough to see the pattern, small to send. */
  static final int MAX_INCIDENTS_PER_PARTITION = 1_000;

  private final List<ManagementApi.Hosted> partitions;
  private final int partitionsCount;

  /**
   * @param partitions this broker's replicas
   * @param partitionsCount the cluster's partitions: a key of none of them is no key at all
   */
  InspectionEndpoints(List<ManagementApi.Hosted> partitions, int partitionsCount) {
    this.partitions = partitions;
    this.partitionsCount = partitionsCount;
  }

  CompletableFuture<ManagementApi.Answer> incidents() {
    Map<Integer, CompletableFuture<List<Incident>>> read = new TreeMap<>();
    Map<Integer, String> roles = new TreeMap<>();
    for (ManagementApi.Hosted hosted : partitions) {
      EnginePartition partition = hosted.partition();
      roles.put(partition.partitionId(), partition.raft().role().name());
      read.put(
          partition.partitionId(),
          partition
              .processor()
              .query(
                  state ->
                      new WorkflowInspection(state).incidents(MAX_INCIDENTS_PER_PARTITION + 1)));
    }
    return CompletableFuture.allOf(read.values().toArray(CompletableFuture[]::new))
        .handle(
            (all, ignored) ->
                ManagementApi.Answer.json(
                    200,
                    ManagementApi.object(
                        json -> {
                          json.writeArrayFieldStart("incidents");
                          List<String> unreadable = new ArrayList<>();
                          for (var each : read.entrySet()) {
                            if (each.getValue().isCompletedExceptionally()) {
                              unreadable.add(
                                  "partition "
                                      + each.getKey()
                                      + ": "
                                      + ManagementApi.rootMessage(failure(each.getValue())));
                              continue;
                            }
                            List<Incident> incidents = each.getValue().join();
                            for (Incident incident :
                                incidents.subList(
                                    0, Math.min(incidents.size(), MAX_INCIDENTS_PER_PARTITION))) {
                              json.writeStartObject();
                              json.writeNumberField("partitionId", each.getKey());
                              json.writeStringField("replica", roles.get(each.getKey()));
                              writeIncidentFields(json, incident);
                              json.writeEndObject();
                            }
                            if (incidents.size() > MAX_INCIDENTS_PER_PARTITION) {
                              unreadable.add(
                                  "partition "
                                      + each.getKey()
                                      + ": more than "
                                      + MAX_INCIDENTS_PER_PARTITION
                                      + " incidents, the oldest listed");
                            }
                          }
                          json.writeEndArray();
                          if (!unreadable.isEmpty()) {
                            json.writeArrayFieldStart("notes");
                            for (String note : unreadable) {
                              json.writeString(note);
                            }
                            json.writeEndArray();
                          }
                        })));
  }

  /** What stands for an instance's variables when the caller did not send the token. */
  static final String REDACTED = "redacted: send the management token to see them";

  /** {@code withVariables}: whether the caller sent the management token. */
  CompletableFuture<ManagementApi.Answer> instance(String keyText, boolean withVariables) {
    long key;
    try {
      key = Long.parseLong(keyText);
    } catch (NumberFormatException e) {
      return done(ManagementApi.Answer.error(400, "not a process instance key: " + keyText));
    }
    int partitionId = Keys.partitionOf(key);
    if (key < 0 || partitionId < 1 || partitionId > partitionsCount) {
      // 12345 decodes to partition 0: saying "partition 0, which this broker does not hold" would
      // send the user looking for a broker that holds it.
      return done(
          ManagementApi.Answer.error(
              404,
              "key "
                  + key
                  + " is not a key of any partition (the cluster's partitions are 1 to "
                  + partitionsCount
                  + ")"));
    }
    EnginePartition partition = null;
    for (ManagementApi.Hosted hosted : partitions) {
      if (hosted.partition().partitionId() == partitionId) {
        partition = hosted.partition();
      }
    }
    if (partition == null) {
      return done(
          ManagementApi.Answer.error(
              404,
              "key "
                  + key
                  + " belongs to partition "
                  + partitionId
                  + ", which this broker does not hold: ask a broker that does"));
    }
    String role = partition.raft().role().name();
    return partition
        .processor()
        .query(state -> new WorkflowInspection(state).instance(key))
        .handle(
            (instance, error) -> {
              if (error != null) {
                return ManagementApi.Answer.error(503, ManagementApi.rootMessage(error));
              }
              if (instance == null) {
                return ManagementApi.Answer.error(
                    404,
                    "no active process instance "
                        + key
                        + " on partition "
                        + partitionId
                        + " (this broker's "
                        + role.toLowerCase(java.util.Locale.ROOT)
                        + " replica): it never existed or has ended");
              }
              return ManagementApi.Answer.json(
                  200,
                  ManagementApi.object(
                      json -> {
                        json.writeNumberField("processInstanceKey", instance.key());
                        json.writeStringField("bpmnProcessId", instance.bpmnProcessId());
                        json.writeNumberField("version", instance.version());
                        json.writeNumberField("partitionId", partitionId);
                        json.writeStringField("replica", role);
                        if (!withVariables) {
                          json.writeStringField("variables", REDACTED);
                        }
                        json.writeFieldName("root");
                        writeElement(json, instance.root(), withVariables);
                      }));
            });
  }

  private static void writeElement(JsonGenerator json, Element element, boolean withVariables)
      throws IOException {
    json.writeStartObject();
    json.writeNumberField("key", element.key());
    json.writeStringField("elementId", element.elementId());
    json.writeStringField("elementType", element.elementType());
    json.writeStringField("state", element.state());
    if (element.jobKey() >= 0) {
      json.writeNumberField("jobKey", element.jobKey());
    }
    if (element.userTaskKey() >= 0) {
      json.writeNumberField("userTaskKey", element.userTaskKey());
    }
    if (element.incident() != null) {
      json.writeObjectFieldStart("incident");
      writeIncidentFields(json, element.incident());
      json.writeEndObject();
    }
    if (withVariables && !element.variables().isEmpty()) {
      json.writeObjectFieldStart("variables");
      for (var variable : element.variables().entrySet()) {
        json.writeFieldName(variable.getKey());
        json.writeRawValue(variable.getValue()); // stored as JSON text
      }
      json.writeEndObject();
    }
    json.writeArrayFieldStart("children");
    for (Element child : element.children()) {
      writeElement(json, child, withVariables);
    }
    json.writeEndArray();
    json.writeEndObject();
  }

  private static void writeIncidentFields(JsonGenerator json, Incident incident)
      throws IOException {
    json.writeNumberField("key", incident.key());
    json.writeStringField("errorType", incident.errorType());
    json.writeStringField("errorMessage", incident.errorMessage());
    json.writeStringField("bpmnProcessId", incident.bpmnProcessId());
    json.writeStringField("elementId", incident.elementId());
    json.writeNumberField("processInstanceKey", incident.processInstanceKey());
    json.writeNumberField("elementInstanceKey", incident.elementInstanceKey());
    if (incident.jobKey() >= 0) {
      json.writeNumberField("jobKey", incident.jobKey());
    }
  }

  private static Throwable failure(CompletableFuture<?> failed) {
    try {
      failed.join();
      return new IllegalStateException("not failed");
    } catch (java.util.concurrent.CompletionException e) {
      return e.getCause() == null ? e : e.getCause();
    }
  }

  private static CompletableFuture<ManagementApi.Answer> done(ManagementApi.Answer answer) {
    return CompletableFuture.completedFuture(answer);
  }
}

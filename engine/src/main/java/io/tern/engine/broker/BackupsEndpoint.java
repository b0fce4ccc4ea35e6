package io.tern.engine.broker;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tern.engine.backup.BackupManifest;
import io.tern.engine.backup.BackupStatus;
import io.tern.engine.backup.BackupStore;
import io.tern.engine.backup.CheckpointValue;
import io.tern.engine.command.PartitionCommands;
import io.tern.engine.protocol.CheckpointIntent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * {@code /actuator/backups}, in the shape of Zeebe's backup API (docs/operations.md#backups):
 *
 * <ul>
 *   <li>{@code POST /actuator/backups} with {@code {"backupId": N}} (or {@code POST
 *       /actuator/backups/N}): writes the checkpoint N to every partition; 202 once each accepted
 *       it, 409 if a partition has a checkpoint of N or above already;
 *   <li>{@code GET /actuator/backups/N}: its state over the partitions ({@link BackupStatus}:
 *       COMPLETED once every partition stored its part, IN_PROGRESS, FAILED, INCOMPLETE when a
 *       partition has no part and none is in progress) with each partition's details, a partition
 *       without a part as DOES_NOT_EXIST; 404 if no part is stored;
 *   <li>{@code GET /actuator/backups}: every backup so;
 *   <li>{@code DELETE /actuator/backups/N}: deletes every stored part, 204.
 * </ul>
 *
 * Answers come from the store's manifests, so any broker answers for the whole cluster. The store
 * is called on {@code storeCalls}, never on the HTTP server's thread. POST and DELETE need the
 * management token ({@link ManagementApi} checks it before routing here).
 */
final class BackupsEndpoint {
  static final String PATH = "/actuator/backups";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final BackupStore store;
  private final PartitionCommands partitions;
  private final Executor storeCalls;
  private final long timeoutMs;

  BackupsEndpoint(
      BackupStore store, PartitionCommands partitions, Executor storeCalls, long timeoutMs) {
    this.store = store;
    this.partitions = partitions;
    this.storeCalls = storeCalls;
    this.timeoutMs = timeoutMs;
  }

  /** Answers a request whose path is {@link #PATH} or under it. */
  CompletableFuture<ManagementApi.Answer> handle(String method, String path, String body) {
    String rest = path.length() > PATH.length() ? path.substring(PATH.length() + 1) : "";
    if (store == BackupStore.NONE) {
      return done(
          ManagementApi.Answer.error(
              400,
              "backups are off: no backup store is configured (data.backup.store is none; set"
                  + " it to s3 or filesystem, docs/operations.md#backups)"));
    }
    switch (method) {
      case "POST":
        Long id = rest.isEmpty() ? idFromBody(body) : parseId(rest);
        if (id == null) {
          return done(
              ManagementApi.Answer.error(
                  400,
                  "a backup needs an id, a positive number above the last backup's: send"
                      + " {\"backupId\": <id>}"));
        }
        return take(id);
      case "GET", "HEAD":
        if (rest.isEmpty()) {
          return onStore(this::list);
        }
        Long wanted = parseId(rest);
        return wanted == null ? done(badId(rest)) : onStore(() -> status(wanted));
      case "DELETE":
        Long doomed = parseId(rest);
        if (doomed == null) {
          return done(badId(rest));
        }
        return onStore(
            () -> {
              store.delete(doomed);
              return new ManagementApi.Answer(204, "application/json", "");
            });
      default:
        return done(
            ManagementApi.Answer.error(
                405, "method not allowed: " + method + " " + path + " (GET, POST, DELETE)"));
    }
  }

  private static ManagementApi.Answer badId(String text) {
    return ManagementApi.Answer.error(400, "'" + text + "' is no backup id (a positive number)");
  }

  private static Long parseId(String text) {
    try {
      long id = Long.parseLong(text);
      return id > 0 ? id : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Long idFromBody(String body) {
    if (body == null || body.isBlank()) {
      return null;
    }
    try {
      JsonNode id = JSON.readTree(body).get("backupId");
      if (id == null) {
        return null;
      }
      return id.isNumber()
          ? (id.canConvertToLong() ? positive(id.asLong()) : null)
          : parseId(id.asText());
    } catch (IOException e) {
      return null;
    }
  }

  private static Long positive(long id) {
    return id > 0 ? id : null;
  }

  /** Writes the checkpoint to every partition; answers once each answered. */
  private CompletableFuture<ManagementApi.Answer> take(long backupId) {
    Map<Integer, CompletableFuture<PartitionCommands.Answer>> answers = new TreeMap<>();
    for (int partition = 1; partition <= partitions.partitionsCount(); partition++) {
      answers.put(
          partition,
          partitions.request(
              partition,
              CheckpointIntent.CREATE,
              -1,
              new CheckpointValue(backupId, -1),
              timeoutMs));
    }
    return CompletableFuture.allOf(answers.values().toArray(CompletableFuture[]::new))
        .handle(
            (all, ignored) -> {
              List<String> rejected = new ArrayList<>();
              List<String> failed = new ArrayList<>();
              answers.forEach(
                  (partition, answer) -> {
                    try {
                      PartitionCommands.Answer done = answer.join();
                      if (!done.accepted()) {
                        rejected.add("partition " + partition + ": " + done.reason());
                      }
                    } catch (CompletionException e) {
                      failed.add("partition " + partition + ": " + ManagementApi.rootMessage(e));
                    }
                  });
              if (!failed.isEmpty()) {
                return ManagementApi.Answer.error(
                    503,
                    "backup "
                        + backupId
                        + " was not checkpointed on every partition ("
                        + String.join("; ", failed)
                        + (rejected.isEmpty() ? "" : "; " + String.join("; ", rejected))
                        + "); take it again with a higher id");
              }
              if (!rejected.isEmpty()) {
                return ManagementApi.Answer.error(
                    409,
                    "backup "
                        + backupId
                        + " refused: "
                        + String.join("; ", rejected)
                        + (rejected.size() < answers.size()
                            ? " (the other partitions took it: take it again with a higher id)"
                            : ""));
              }
              return ManagementApi.Answer.json(
                  202,
                  ManagementApi.object(
                      json ->
                          json.writeStringField(
                              "message",
                              "A backup with id "
                                  + backupId
                                  + " has been scheduled. Use GET actuator/backups/"
                                  + backupId
                                  + " to monitor the status.")));
            });
  }

  private ManagementApi.Answer status(long backupId) throws IOException {
    List<BackupManifest> parts = store.manifests(backupId);
    if (parts.isEmpty()) {
      return ManagementApi.Answer.json(
          404,
          ManagementApi.object(
              json -> {
                json.writeNumberField("backupId", backupId);
                json.writeStringField("state", "DOES_NOT_EXIST");
                json.writeStringField(
                    "failureReason",
                    "no part of backup " + backupId + " is in " + store.describe());
                json.writeArrayFieldStart("details");
                json.writeEndArray();
              }));
    }
    return ManagementApi.Answer.json(
        200, ManagementApi.object(json -> writeBackup(json, backupId, parts)));
  }

  private ManagementApi.Answer list() throws IOException {
    Map<Long, List<BackupManifest>> byId = new TreeMap<>();
    for (BackupManifest part : store.list()) {
      byId.computeIfAbsent(part.backupId(), id -> new ArrayList<>()).add(part);
    }
    StringBuilder text = new StringBuilder("[");
    for (Map.Entry<Long, List<BackupManifest>> backup : byId.entrySet()) {
      if (text.length() > 1) {
        text.append(',');
      }
      text.append(
          ManagementApi.object(json -> writeBackup(json, backup.getKey(), backup.getValue())));
    }
    return ManagementApi.Answer.json(200, text.append(']').toString());
  }

  private static void writeBackup(JsonGenerator json, long backupId, List<BackupManifest> parts)
      throws IOException {
    BackupStatus status = BackupStatus.of(backupId, parts);
    json.writeNumberField("backupId", backupId);
    json.writeStringField("state", status.state().name());
    List<String> reasons = new ArrayList<>();
    for (BackupManifest part : parts) {
      if (part.failureReason() != null) {
        reasons.add("partition " + part.partitionId() + ": " + part.failureReason());
      }
    }
    if (status.incompleteReason() != null) {
      reasons.add(status.incompleteReason());
    }
    if (!reasons.isEmpty()) {
      json.writeStringField("failureReason", String.join("; ", reasons));
    }
    // Every partition, by id: those without a part as Zeebe shows them, DOES_NOT_EXIST.
    Map<Integer, BackupManifest> byPartition = new TreeMap<>();
    parts.forEach(part -> byPartition.put(part.partitionId(), part));
    status.missingPartitions().forEach(partitionId -> byPartition.put(partitionId, null));
    json.writeArrayFieldStart("details");
    for (Map.Entry<Integer, BackupManifest> entry : byPartition.entrySet()) {
      BackupManifest part = entry.getValue();
      json.writeStartObject();
      json.writeNumberField("partitionId", entry.getKey());
      if (part == null) {
        json.writeStringField("state", BackupStatus.State.DOES_NOT_EXIST.name());
        json.writeEndObject();
        continue;
      }
      json.writeStringField("state", part.state().name());
      if (part.failureReason() != null) {
        json.writeStringField("failureReason", part.failureReason());
      }
      json.writeStringField("createdAt", part.createdAt());
      json.writeStringField("lastUpdated", part.lastUpdated());
      if (part.snapshotId() != null) {
        json.writeStringField("snapshotId", part.snapshotId());
      }
      json.writeNumberField("checkpointPosition", part.checkpointPosition());
      json.writeStringField("brokerVersion", part.brokerVersion());
      json.writeNumberField("brokerId", part.nodeId());
      json.writeNumberField("sizeBytes", part.sizeBytes());
      json.writeEndObject();
    }
    json.writeEndArray();
  }

  private interface StoreCall {
    ManagementApi.Answer run() throws IOException;
  }

  private CompletableFuture<ManagementApi.Answer> onStore(StoreCall call) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return call.run();
          } catch (IOException e) {
            return ManagementApi.Answer.error(
                502, "the backup store " + store.describe() + " failed: " + e.getMessage());
          } catch (UncheckedIOException e) {
            return ManagementApi.Answer.error(
                502, "the backup store " + store.describe() + " failed: " + e.getMessage());
          }
        },
        storeCalls);
  }

  private static CompletableFuture<ManagementApi.Answer> done(ManagementApi.Answer answer) {
    return CompletableFuture.completedFuture(answer);
  }
}

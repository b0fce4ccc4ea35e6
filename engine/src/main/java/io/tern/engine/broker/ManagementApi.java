package io.tern.engine.broker;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.tern.engine.partition.EnginePartition;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.raft.Member;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The management endpoints: health for Kubernetes probes, Prometheus metrics, the partitions' state
 * and the operations on them (pause, resume, snapshot, rebalance), and the backups ({@link
 * BackupsEndpoint}). Every answer but the metrics is JSON.
 *
 * <p>Reading stays open, for probes and Prometheus. Every other method (the operations, and any
 * added later, as this check is made before routing) needs the {@link ManagementToken}: off (403)
 * until one is configured, 401 without it. A pause outlives restarts and a rebalance moves every
 * leader, so whoever can reach the port must not be able to do either. An instance's variables are
 * business data: without the token they are redacted.
 */
final class ManagementApi implements ManagementServer.Routes {
  private static final JsonFactory JSON = new JsonFactory();
  private static final String JSON_TYPE = "application/json";
  private static final List<String> ENDPOINTS =
      List.of(
          "GET /actuator/health",
          "GET /actuator/health/liveness",
          "GET /actuator/health/readiness",
          "GET /actuator/health/startup",
          "GET /actuator/prometheus",
          "GET /actuator/partitions",
          "GET /actuator/incidents",
          "GET /actuator/flags",
          "GET /actuator/jobstreams",
          "GET /actuator/exporters",
          "GET /actuator/instances/{key}",
          "POST /actuator/partitions/pauseProcessing",
          "POST /actuator/partitions/resumeProcessing",
          "POST /actuator/partitions/takeSnapshot",
          "POST /actuator/rebalance",
          "GET /actuator/backups",
          "GET /actuator/backups/{id}",
          "POST /actuator/backups",
          "DELETE /actuator/backups/{id}",
          "GET /actuator/cluster",
          "POST /actuator/cluster/brokers",
          "POST /actuator/cluster/brokers/{id}",
          "DELETE /actuator/cluster/brokers/{id}",
          "POST /actuator/cluster/changes/{id}/cancel",
          "POST /actuator/faults/isolate/{nodes}",
          "POST /actuator/faults/heal");

  /** An HTTP answer. */
  record Answer(int status, String contentType, String body) {
    static Answer json(int status, String body) {
      return new Answer(status, JSON_TYPE, body);
    }

    static Answer error(int status, String message) {
      return json(status, object(json -> json.writeStringField("error", message)));
    }
  }

  /** A partition hosted here, with the members of its Raft group (for rebalancing). */
  record Hosted(EnginePartition partition, List<Member> members, CommandLimiter limiter) {}

  private static final String INSTANCES = "/actuator/instances/";

  private final List<Hosted> partitions;
  private final InspectionEndpoints inspection;
  private final Supplier<String> metrics;
  private final Map<String, String> flags;
  private final Supplier<CompletableFuture<Map<Integer, String>>> rebalancing;
  private final Supplier<Answer> jobStreams;
  private final NetworkFaults networkFaults;
  private final ManagementToken token;
  private final BackupsEndpoint backups;
  private final ClusterEndpoint clusterEndpoint;
  private volatile boolean started;

  /**
   * @param flags the experiment flags as this broker runs them ({@code GET /actuator/flags})
   * @param networkFaults answers {@code POST /actuator/faults/...}
   * @param jobStreams answers {@code GET /actuator/jobstreams}
   * @param partitionsCount the cluster's partitions
   * @param token what operations and variables need
   */
  ManagementApi(
      List<Hosted> partitions,
      Supplier<String> metrics,
      Supplier<CompletableFuture<Map<Integer, String>>> rebalancing,
      Map<String, String> flags,
      NetworkFaults networkFaults,
      Supplier<Answer> jobStreams,
      int partitionsCount,
      ManagementToken token) {
    this(
        partitions,
        metrics,
        rebalancing,
        flags,
        networkFaults,
        jobStreams,
        partitionsCount,
        token,
        null,
        null);
  }

  /** As above, answering {@code /actuator/backups} with {@code backups} (null: no such route). */
  ManagementApi(
      List<Hosted> partitions,
      Supplier<String> metrics,
      Supplier<CompletableFuture<Map<Integer, String>>> rebalancing,
      Map<String, String> flags,
      NetworkFaults networkFaults,
      Supplier<Answer> jobStreams,
      int partitionsCount,
      ManagementToken token,
      BackupsEndpoint backups,
      ClusterEndpoint clusterEndpoint) {
    this.backups = backups;
    this.clusterEndpoint = clusterEndpoint;
    this.partitions = partitions;
    this.inspection = new InspectionEndpoints(partitions, partitionsCount);
    this.metrics = metrics;
    this.rebalancing = rebalancing;
    this.flags = Map.copyOf(flags);
    this.jobStreams = jobStreams;
    this.networkFaults = networkFaults;
    this.token = token;
  }

  @Override
  public CompletableFuture<Answer> handle(String method, String path, String authorization) {
    return handle(method, path, authorization, "");
  }

  @Override
  public CompletableFuture<Answer> handle(
      String method, String path, String authorization, String body) {
    return handle(method, path, Map.of(), authorization, body);
  }

  @Override
  public CompletableFuture<Answer> handle(
      String method,
      String path,
      Map<String, List<String>> query,
      String authorization,
      String body) {
    String route =
        method + " " + (path.endsWith("/") ? path.substring(0, path.length() - 1) : path);
    if (!method.equals("GET") && !method.equals("HEAD")) {
      Answer refused = refusal(token, authorization);
      if (refused != null) {
        return done(refused);
      }
    }
    if (backups != null
        && (path.equals(BackupsEndpoint.PATH) || path.startsWith(BackupsEndpoint.PATH + "/"))) {
      return backups.handle(method, path.replaceAll("/+$", ""), body);
    }
    if (clusterEndpoint != null
        && (path.equals(ClusterEndpoint.PATH) || path.startsWith(ClusterEndpoint.PATH + "/"))) {
      return clusterEndpoint.handle(method, path.replaceAll("/+$", ""), query, body);
    }
    if (path.startsWith(NetworkFaults.PREFIX)) {
      return networkFaults.handle(method, path);
    }
    if (route.startsWith("GET " + INSTANCES)) {
      return inspection.instance(
          route.substring(("GET " + INSTANCES).length()), token.matches(authorization));
    }
    return switch (route) {
      // The aggregate: up when ready (a failed partition is not ready either).
      case "GET /actuator/health" -> done(readiness());
      case "GET /actuator/health/liveness" -> done(liveness());
      case "GET /actuator/health/readiness" -> done(readiness());
      case "GET /actuator/health/startup" -> done(startup());
      case "GET /actuator/prometheus" ->
          done(new Answer(200, "text/plain; version=0.0.4; charset=utf-8", metrics.get()));
      case "GET /actuator/partitions" -> done(Answer.json(200, partitionsJson()));
      case "GET /actuator/incidents" -> inspection.incidents();
      case "GET /actuator/flags" ->
          done(
              Answer.json(
                  200,
                  object(
                      json -> {
                        for (Map.Entry<String, String> flag :
                            new java.util.TreeMap<>(flags).entrySet()) {
                          json.writeStringField(flag.getKey(), flag.getValue());
                        }
                      })));
      case "GET /actuator/jobstreams" -> done(jobStreams.get());
      case "GET /actuator/exporters" ->
          done(
              Answer.json(
                  200,
                  ExportersEndpoint.answer(
                      partitions.stream().map(Hosted::partition).toList(),
                      token.matches(authorization),
                      System.currentTimeMillis())));
      case "POST /actuator/partitions/pauseProcessing" -> pause(true);
      case "POST /actuator/partitions/resumeProcessing" -> pause(false);
      case "POST /actuator/partitions/takeSnapshot" -> takeSnapshots();
      case "POST /actuator/rebalance" -> rebalance();
      default -> done(unknown(method, path));
    };
  }

  /** Null when {@code authorization} carries the token, else why the operation is refused. */
  static Answer refusal(ManagementToken token, String authorization) {
    if (!token.configured()) {
      return Answer.error(
          403,
          "operations are off on this broker: give it a token (management.security.tokenFile or"
              + " TERN_MANAGEMENT_SECURITY_TOKEN) and send it as 'Authorization: Bearer <token>'");
    }
    if (!token.matches(authorization)) {
      return Answer.error(
          401,
          authorization == null
              ? "this operation needs the management token: send 'Authorization: Bearer <token>'"
              : "wrong management token (sent as 'Authorization: Bearer <token>')");
    }
    return null;
  }

  private static CompletableFuture<Answer> done(Answer answer) {
    return CompletableFuture.completedFuture(answer);
  }

  private static Answer unknown(String method, String path) {
    boolean pathExists =
        path.startsWith(INSTANCES)
            || ENDPOINTS.stream().anyMatch(endpoint -> endpoint.endsWith(" " + path));
    return Answer.json(
        pathExists ? 405 : 404,
        object(
            json -> {
              json.writeStringField(
                  "error",
                  (pathExists ? "method not allowed: " : "no such endpoint: ")
                      + method
                      + " "
                      + path);
              json.writeArrayFieldStart("endpoints");
              for (String endpoint : ENDPOINTS) {
                json.writeString(endpoint);
              }
              json.writeEndArray();
            }));
  }

  /** Alive unless a partition failed for good (a restart is the cure). */
  private Answer liveness() {
    List<String> failed = new ArrayList<>();
    for (Hosted hosted : partitions) {
      EnginePartition partition = hosted.partition();
      if (partition.processor().phase() == ProcessorPhase.FAILED
          || partition.raft().failure() != null) {
        failed.add("partition " + partition.partitionId() + " failed");
      }
    }
    return health(failed);
  }

  /**
   * Ready when every local partition has a role and works: a leader processes, a follower is not
   * replaying far behind its commit index ({@link PartitionReadiness}).
   */
  private Answer readiness() {
    List<String> problems = new ArrayList<>();
    for (Hosted hosted : partitions) {
      EnginePartition partition = hosted.partition();
      String problem =
          PartitionReadiness.problem(
              partition.partitionId(),
              partition.raft().role(),
              partition.processor().phase(),
              partition.raft().failure() != null,
              partition.replayLag().entries());
      if (problem != null) {
        problems.add(problem);
      }
    }
    if (problems.isEmpty()) {
      started = true;
    }
    return health(problems);
  }

  /** Started once it was ready once; until then probes should wait, not restart it. */
  private Answer startup() {
    if (started) {
      return health(List.of());
    }
    return readiness();
  }

  static Answer health(List<String> problems) {
    return Answer.json(
        problems.isEmpty() ? 200 : 503,
        object(
            json -> {
              json.writeStringField("status", problems.isEmpty() ? "UP" : "DOWN");
              if (!problems.isEmpty()) {
                json.writeArrayFieldStart("problems");
                for (String problem : problems) {
                  json.writeString(problem);
                }
                json.writeEndArray();
              }
            }));
  }

  private String partitionsJson() {
    return object(
        json -> {
          for (Hosted hosted : partitions) {
            EnginePartition partition = hosted.partition();
            json.writeObjectFieldStart(Integer.toString(partition.partitionId()));
            json.writeStringField("role", partition.raft().role().name());
            json.writeNumberField("term", partition.raft().term());
            int leader = partition.raft().leaderId();
            if (leader > 0) {
              json.writeNumberField("leaderNodeId", leader - 1); // Raft ids are node ids + 1
            } else {
              json.writeNullField("leaderNodeId");
            }
            json.writeNumberField("commitIndex", partition.raft().commitIndex());
            json.writeNumberField("lastIndex", partition.raft().lastIndex());
            json.writeNumberField(
                "processedPosition", partition.processor().lastProcessedPosition());
            // Entries between the processor's last read one and the commit index: a replica
            // with a large lag is replaying (and not ready), whatever its role.
            json.writeNumberField("readIndex", partition.processor().lastReadIndex());
            json.writeNumberField("replayLag", partition.replayLag().entries());
            json.writeBooleanField("replaying", partition.replayLag().replaying());
            Path snapshot = partition.raft().latestSnapshotDirectory();
            if (snapshot == null) {
              json.writeNullField("snapshotId");
            } else {
              json.writeStringField("snapshotId", snapshot.getFileName().toString());
            }
            json.writeStringField("processorPhase", partition.processor().phase().name());
            CommandLimiter limiter = hosted.limiter();
            json.writeObjectFieldStart("backpressure");
            json.writeBooleanField("enabled", limiter.enabled());
            if (limiter.enabled()) {
              json.writeNumberField("limit", limiter.limit());
            }
            json.writeNumberField("inFlight", limiter.inFlight());
            json.writeNumberField("refused", limiter.refused());
            json.writeEndObject();
            json.writeEndObject();
          }
        });
  }

  /** Answers once every processor has applied it (its tasks run in order). */
  private CompletableFuture<Answer> pause(boolean pause) {
    List<CompletableFuture<Void>> applied = new ArrayList<>();
    for (Hosted hosted : partitions) {
      var processor = hosted.partition().processor();
      if (pause) {
        processor.pause();
      } else {
        processor.resume();
      }
      CompletableFuture<Void> done = new CompletableFuture<>();
      processor.execute(() -> done.complete(null));
      applied.add(done);
    }
    return CompletableFuture.allOf(applied.toArray(CompletableFuture[]::new))
        .thenApply(all -> Answer.json(200, partitionsJson()));
  }

  private CompletableFuture<Answer> takeSnapshots() {
    Map<Integer, CompletableFuture<String>> taken = new java.util.TreeMap<>();
    for (Hosted hosted : partitions) {
      taken.put(
          hosted.partition().partitionId(),
          hosted
              .partition()
              .takeSnapshot()
              .handle(
                  (meta, error) -> {
                    if (error != null) {
                      return "no snapshot: " + rootMessage(error);
                    }
                    return meta == null
                        ? "no snapshot: nothing changed since the last one"
                        : "snapshot at index " + meta.index() + " of term " + meta.term();
                  }));
    }
    return CompletableFuture.allOf(taken.values().toArray(CompletableFuture[]::new))
        .thenApply(
            all ->
                Answer.json(
                    200,
                    object(
                        json -> {
                          for (Map.Entry<Integer, CompletableFuture<String>> each :
                              taken.entrySet()) {
                            json.writeStringField(each.getKey().toString(), each.getValue().join());
                          }
                        })));
  }

  /** Rebalances the whole cluster; every broker moves what it leads. Safe to call repeatedly. */
  private CompletableFuture<Answer> rebalance() {
    return rebalancing
        .get()
        .thenApply(
            outcomes ->
                Answer.json(
                    200,
                    object(
                        json -> {
                          for (Map.Entry<Integer, String> each : outcomes.entrySet()) {
                            json.writeStringField(each.getKey().toString(), each.getValue());
                          }
                        })));
  }

  /** The innermost cause's message, for answers a user reads. */
  static String rootMessage(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getMessage() == null ? root.toString() : root.getMessage();
  }

  interface JsonWriter {
    void write(JsonGenerator json) throws IOException;
  }

  static String object(JsonWriter content) {
    StringWriter text = new StringWriter();
    try (JsonGenerator json = JSON.createGenerator(text)) {
      json.writeStartObject();
      content.write(json);
      json.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return text.toString();
  }
}

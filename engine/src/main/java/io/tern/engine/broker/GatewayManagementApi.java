package io.tern.engine.broker;

import io.tern.engine.cluster.ClusterClient;
import io.tern.engine.gateway.GatewayJobStreams;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The standalone gateway's management endpoints: health for Kubernetes probes (ready when every
 * partition has a known leader), its metrics, its job streams, and {@code /actuator/cluster}: the
 * topology as the brokers gossip it, and changes, which need the management token here and are
 * forwarded to the coordinating broker (see {@link ClusterEndpoint}).
 */
final class GatewayManagementApi implements ManagementServer.Routes {
  private final ClusterClient cluster;
  private final Supplier<String> metrics;
  private final GatewayJobStreams jobStreams;
  private final ClusterEndpoint clusterEndpoint;
  private final ManagementToken token;
  private volatile boolean started;

  GatewayManagementApi(
      ClusterClient cluster,
      Supplier<String> metrics,
      GatewayJobStreams jobStreams,
      ManagementToken token) {
    this.token = token;
    this.cluster = cluster;
    this.metrics = metrics;
    this.jobStreams = jobStreams;
    this.clusterEndpoint = ClusterEndpoint.ofGateway(cluster);
  }

  @Override
  public CompletableFuture<ManagementApi.Answer> handle(
      String method,
      String path,
      Map<String, List<String>> query,
      String authorization,
      String body) {
    if (path.equals(ClusterEndpoint.PATH) || path.startsWith(ClusterEndpoint.PATH + "/")) {
      if (!method.equals("GET")) {
        ManagementApi.Answer refused = ManagementApi.refusal(token, authorization);
        if (refused != null) {
          return CompletableFuture.completedFuture(refused);
        }
      }
      return clusterEndpoint.handle(method, path.replaceAll("/+$", ""), query, body);
    }
    return handle(method, path, authorization);
  }

  @Override
  public CompletableFuture<ManagementApi.Answer> handle(
      String method, String path, String authorization) {
    String route =
        method + " " + (path.endsWith("/") ? path.substring(0, path.length() - 1) : path);
    ManagementApi.Answer answer =
        switch (route) {
          case "GET /actuator/health", "GET /actuator/health/readiness" -> readiness();
          case "GET /actuator/health/liveness" -> ManagementApi.health(List.of());
          case "GET /actuator/health/startup" ->
              started ? ManagementApi.health(List.of()) : readiness();
          case "GET /actuator/prometheus" ->
              new ManagementApi.Answer(
                  200, "text/plain; version=0.0.4; charset=utf-8", metrics.get());
          case "GET /actuator/jobstreams" -> JobStreamsEndpoint.answer(jobStreams, null);
          default ->
              ManagementApi.Answer.error(
                  404,
                  "no such endpoint on a standalone gateway: "
                      + route
                      + " (GET /actuator/health, GET /actuator/health/{liveness,readiness,startup}, GET"
                      + " /actuator/prometheus, GET /actuator/jobstreams, GET /actuator/cluster)");
        };
    return CompletableFuture.completedFuture(answer);
  }

  /** Ready when every partition has a leader this gateway can reach. */
  private ManagementApi.Answer readiness() {
    List<String> problems = new ArrayList<>();
    for (int partitionId : cluster.partitionsWithoutLeader()) {
      problems.add("partition " + partitionId + " has no known leader");
    }
    if (problems.isEmpty()) {
      started = true;
    }
    return ManagementApi.health(problems);
  }
}

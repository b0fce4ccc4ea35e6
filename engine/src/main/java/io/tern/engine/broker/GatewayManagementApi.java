package io.tern.engine.broker;

import io.tern.engine.cluster.ClusterClient;
import io.tern.engine.gateway.GatewayJobStreams;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The standalone gateway's management endpoints: health for Kubernetes probes (ready when every
 * partition has a known leader), its metrics and its job streams.
 */
final class GatewayManagementApi implements ManagementServer.Routes {
  private final ClusterClient cluster;
  private final Supplier<String> metrics;
  private final GatewayJobStreams jobStreams;
  private volatile boolean started;

  GatewayManagementApi(
      ClusterClient cluster, Supplier<String> metrics, GatewayJobStreams jobStreams) {
    this.cluster = cluster;
    this.metrics = metrics;
    this.jobStreams = jobStreams;
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
                      + " /actuator/prometheus, GET /actuator/jobstreams)");
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

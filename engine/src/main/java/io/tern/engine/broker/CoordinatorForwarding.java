package io.tern.engine.broker;

import io.tern.engine.cluster.BrokerMessages;
import io.tern.engine.cluster.ClusterClient;
import io.tern.engine.scaling.Coordinator;
import java.util.concurrent.CompletableFuture;

/**
 * Sends a write to {@code /actuator/cluster} that reached a broker (or standalone gateway) that
 * does not coordinate to the one that does, over the command API's brokers-only {@code
 * ClusterChange} call, and turns its answer, or its silence, into this request's answer. The
 * management token was checked where the request came in and is not sent along (docs/scaling.md).
 */
final class CoordinatorForwarding {
  /** How long a forwarded write waits for the coordinator: a cancel may ask a leader first. */
  static final long FORWARD_TIMEOUT_MS = 3 * Coordinator.CALL_TIMEOUT_MS;

  private CoordinatorForwarding() {}

  /** The coordinator {@code to}'s answer; 503 naming it when it gives none, 403 if it refuses. */
  static CompletableFuture<ManagementApi.Answer> forward(
      ClusterClient cluster, int to, BrokerMessages.ClusterRequest request) {
    return cluster
        .clusterChange(to, request, FORWARD_TIMEOUT_MS)
        .handle(
            (answer, error) -> {
              if (error == null) {
                return ManagementApi.Answer.json(answer.status(), answer.body());
              }
              if (ClusterClient.refusedAsNotABroker(error)) {
                // A standalone gateway that does not count as a broker (its certificate names
                // none, or it runs elsewhere): the coordinator takes changes from brokers only.
                return ManagementApi.Answer.error(
                    403,
                    "broker "
                        + to
                        + " coordinates changes of the cluster and takes them from brokers only,"
                        + " which this gateway is not to it: send this to a broker's management"
                        + " port");
              }
              return ManagementApi.Answer.error(
                  503,
                  "broker "
                      + to
                      + " coordinates changes of the cluster and did not answer this request,"
                      + " forwarded to it ("
                      + ManagementApi.rootMessage(error)
                      + "): changes wait until it is back; GET "
                      + ClusterEndpoint.PATH
                      + " answers on any broker");
            });
  }
}

package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ClientStatusException;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.response.BroadcastSignalResponse;
import io.camunda.client.api.response.ProcessInstanceEvent;
import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official client runs two processes as the Camunda Modeler saved them, on a broker with two
 * partitions: orders are packed through an inclusive fork and join (which waits only for the
 * branches taken), and a signal broadcast with BroadcastSignal recalls every order being shipped,
 * on both partitions, and starts one recall notice through a signal start event.
 */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class SignalsClientTest {
  @TempDir Path dir;

  /** Activates jobs of {@code type} until {@code count} came. */
  private static List<ActivatedJob> awaitJobs(CamundaClient client, String type, int count) {
    List<ActivatedJob> found = new ArrayList<>();
    Awaitility.await(count + " jobs of type " + type)
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              found.addAll(
                  client
                      .newActivateJobsCommand()
                      .jobType(type)
                      .maxJobsToActivate(count - found.size())
                      .requestTimeout(Duration.ofSeconds(1))
                      .send()
                      .join()
                      .getJobs());
              return found.size() >= count;
            });
    return found;
  }

  private static long createOrder(CamundaClient client, String id, boolean gift, boolean fragile) {
    ProcessInstanceEvent created =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("order-packing")
            .latestVersion()
            .variables(Map.of("orderId", id, "gift", gift, "fragile", fragile))
            .send()
            .join();
    return created.getProcessInstanceKey();
  }

  @Test
  void ordersArePackedThroughAnInclusiveJoinAndRecalledByASignal()
      throws IOException, InterruptedException {
    Map<String, String> twoPartitions = Map.of("TERN_CLUSTER_PARTITIONSCOUNT", "2");
    try (Broker broker = Broker.start(TestBrokers.config(dir, twoPartitions))) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      try (CamundaClient client = TestBrokers.client(broker)) {
        client
            .newDeployResourceCommand()
            .addResourceBytes(TestBrokers.resource("order-packing.bpmn"), "order-packing.bpmn")
            .addResourceBytes(TestBrokers.resource("recall-notice.bpmn"), "recall-notice.bpmn")
            .send()
            .join();
        Set<Integer> partitions = new HashSet<>();
        partitions.add(partitionOf(createOrder(client, "gift-1", true, false)));
        partitions.add(partitionOf(createOrder(client, "gift-2", true, false)));
        partitions.add(partitionOf(createOrder(client, "plain", false, false)));
        partitions.add(partitionOf(createOrder(client, "both", true, true)));
        assertThat(partitions).as("orders on both partitions").containsExactlyInAnyOrder(1, 2);

        // The plain order joins at once, by the default flow; the others once their branches did.
        assertThat(awaitJobs(client, "ship-parcel", 1))
            .extracting(job -> job.getVariablesAsMap().get("orderId"))
            .containsExactly("plain");
        for (ActivatedJob gift : awaitJobs(client, "wrap-gift", 3)) {
          client.newCompleteCommand(gift.getKey()).send().join();
        }
        List<ActivatedJob> shipping = new ArrayList<>(awaitJobs(client, "ship-parcel", 2));
        assertThat(shipping)
            .extracting(job -> job.getVariablesAsMap().get("orderId"))
            .containsExactlyInAnyOrder("gift-1", "gift-2");
        for (ActivatedJob pad : awaitJobs(client, "pad-box", 1)) {
          client.newCompleteCommand(pad.getKey()).send().join();
        }
        shipping.addAll(awaitJobs(client, "ship-parcel", 1));

        BroadcastSignalResponse broadcast =
            client
                .newBroadcastSignalCommand()
                .signalName("order-recalled")
                .variables(Map.of("reason", "faulty batch"))
                .send()
                .join();
        assertThat(broadcast.getKey()).isPositive();

        ActivatedJob notice = awaitJobs(client, "notify-customer", 1).get(0);
        assertThat(notice.getVariablesAsMap()).containsEntry("reason", "faulty batch");
        for (ActivatedJob ship : shipping) {
          Awaitility.await("shipping of " + ship.getVariablesAsMap().get("orderId") + " stopped")
              .atMost(Duration.ofSeconds(30))
              .untilAsserted(
                  () ->
                      assertThatThrownBy(
                              () -> client.newCompleteCommand(ship.getKey()).send().join())
                          .isInstanceOfSatisfying(
                              ClientStatusException.class,
                              e ->
                                  assertThat(e.getStatus().getCode())
                                      .isEqualTo(Status.Code.NOT_FOUND)));
        }
        assertThat(
                client
                    .newActivateJobsCommand()
                    .jobType("notify-customer")
                    .maxJobsToActivate(10)
                    .requestTimeout(Duration.ofSeconds(1))
                    .send()
                    .join()
                    .getJobs())
            .as("one broadcast, one recall notice")
            .isEmpty();

        assertThatThrownBy(() -> client.newBroadcastSignalCommand().signalName("").send().join())
            .isInstanceOfSatisfying(
                ClientStatusException.class,
                e -> {
                  assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                  assertThat(e.getMessage()).contains("a signal needs a name");
                });
      }
    }
  }

  private static int partitionOf(long key) {
    return io.tern.engine.record.Keys.partitionOf(key);
  }
}

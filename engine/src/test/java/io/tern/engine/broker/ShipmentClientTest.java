package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.CamundaFuture;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.response.ProcessInstanceResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official client runs three processes as the Camunda Modeler saved them, covering the elements
 * the other Modeler-file tests do not: an undefined task and a none intermediate throw event with
 * their mappings, an escalation intermediate throw event caught by a non-interrupting escalation
 * event subprocess, message intermediate and end throw events (job-based), a signal intermediate
 * throw event waking a signal intermediate catch event in another instance, and a signal end event
 * starting a third process.
 */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class ShipmentClientTest {
  @TempDir Path dir;

  /** The one job of {@code type}, once there is one. */
  private static ActivatedJob awaitJob(CamundaClient client, String type) {
    ActivatedJob[] found = new ActivatedJob[1];
    Awaitility.await("a job of type " + type)
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              List<ActivatedJob> jobs =
                  client
                      .newActivateJobsCommand()
                      .jobType(type)
                      .maxJobsToActivate(1)
                      .requestTimeout(Duration.ofSeconds(1))
                      .send()
                      .join()
                      .getJobs();
              found[0] = jobs.isEmpty() ? null : jobs.get(0);
              return found[0] != null;
            });
    return found[0];
  }

  private static void complete(CamundaClient client, ActivatedJob job) {
    client.newCompleteCommand(job.getKey()).send().join();
  }

  @Test
  void aDelayedShipmentInformsTheCustomerSignalsTrackingAndIsInvoiced() throws Exception {
    try (Broker broker = Broker.start(TestBrokers.config(dir, Map.of()))) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      try (CamundaClient client = TestBrokers.client(broker)) {
        client
            .newDeployResourceCommand()
            .addResourceBytes(
                TestBrokers.resource("shipment-dispatch.bpmn"), "shipment-dispatch.bpmn")
            .addResourceBytes(
                TestBrokers.resource("shipment-tracking.bpmn"), "shipment-tracking.bpmn")
            .addResourceBytes(
                TestBrokers.resource("tracking-welcome.bpmn"), "tracking-welcome.bpmn")
            .send()
            .join();
        CamundaFuture<ProcessInstanceResult> tracking =
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("shipment-tracking")
                .latestVersion()
                .withResult()
                .requestTimeout(Duration.ofSeconds(60))
                .send();
        CamundaFuture<ProcessInstanceResult> dispatch =
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("shipment-dispatch")
                .latestVersion()
                .variables(Map.of("shipmentId", "s-7", "delayMinutes", 30))
                .withResult()
                .requestTimeout(Duration.ofSeconds(60))
                .send();

        // The undefined task and the none throw event passed with their mappings.
        ActivatedJob load = awaitJob(client, "load-truck");
        assertThat(load.getVariablesAsMap())
            .containsEntry("paperwork", "paperwork of s-7")
            .containsEntry("paperworkChecked", true)
            .doesNotContainKey("paperworkFor");
        complete(client, load);

        // The delay escalates to the event subprocess, and loading goes on beside it.
        ActivatedJob inform = awaitJob(client, "inform-customer");
        assertThat(inform.getElementId()).isEqualTo("inform-customer");
        ActivatedJob carrier = awaitJob(client, "notify-carrier");
        assertThat(carrier.getElementId()).isEqualTo("notify-carrier");
        assertThat(tracking.toCompletableFuture()).as("tracking waits for the signal").isNotDone();
        complete(client, carrier);

        // The signal throw event wakes the tracking instance; the invoice is a message end event.
        ActivatedJob track = awaitJob(client, "track-shipment");
        ActivatedJob invoice = awaitJob(client, "send-invoice");
        assertThat(invoice.getElementId()).isEqualTo("invoice-sent");
        complete(client, invoice);
        assertThat(dispatch.toCompletableFuture())
            .as("the customer is still being informed")
            .isNotDone();
        complete(client, inform);
        ProcessInstanceResult dispatched = dispatch.join();
        assertThat(dispatched.getVariablesAsMap()).containsEntry("paperworkChecked", true);

        // Tracking ends with a signal end event, which starts the welcome process.
        complete(client, track);
        assertThat(tracking.join().getProcessInstanceKey())
            .isEqualTo(track.getProcessInstanceKey());
        ActivatedJob welcome = awaitJob(client, "welcome-customer");
        assertThat(welcome.getBpmnProcessId()).isEqualTo("tracking-welcome");
        complete(client, welcome);
      }
    }
  }

  @Test
  void aCancelledOrderReleasesItsStockThroughACompensationEndEvent() throws Exception {
    try (Broker broker = Broker.start(TestBrokers.config(dir, Map.of()))) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      try (CamundaClient client = TestBrokers.client(broker)) {
        client
            .newDeployResourceCommand()
            .addResourceBytes(
                TestBrokers.resource("order-cancellation.bpmn"), "order-cancellation.bpmn")
            .send()
            .join();
        CamundaFuture<ProcessInstanceResult> kept = order(client, "kept", false);
        CamundaFuture<ProcessInstanceResult> cancelled = order(client, "cancelled", true);
        for (int reserved = 0; reserved < 2; reserved++) {
          complete(client, awaitJob(client, "reserve-stock"));
        }
        assertThat(kept.join().getVariablesAsMap()).containsEntry("orderId", "kept");

        // Only the cancelled order compensates: its end event waits for the release.
        ActivatedJob release = awaitJob(client, "release-stock");
        assertThat(release.getVariablesAsMap()).containsEntry("orderId", "cancelled");
        assertThat(release.getElementId()).isEqualTo("release-stock");
        assertThat(cancelled.toCompletableFuture()).as("waits for the release").isNotDone();
        complete(client, release);
        assertThat(cancelled.join().getVariablesAsMap()).containsEntry("cancelled", true);
        assertThat(
                client
                    .newActivateJobsCommand()
                    .jobType("release-stock")
                    .maxJobsToActivate(10)
                    .requestTimeout(Duration.ofSeconds(1))
                    .send()
                    .join()
                    .getJobs())
            .as("one release, for the cancelled order only")
            .isEmpty();
      }
    }
  }

  private static CamundaFuture<ProcessInstanceResult> order(
      CamundaClient client, String id, boolean cancelled) {
    return client
        .newCreateInstanceCommand()
        .bpmnProcessId("order-cancellation")
        .latestVersion()
        .variables(Map.of("orderId", id, "cancelled", cancelled))
        .withResult()
        .requestTimeout(Duration.ofSeconds(60))
        .send();
  }
}

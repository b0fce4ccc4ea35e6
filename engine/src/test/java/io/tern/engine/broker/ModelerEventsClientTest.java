package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.CamundaFuture;
import io.camunda.client.api.command.ClientStatusException;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.response.ProcessInstanceResult;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official client runs claims through a process as the Camunda Modeler saved it: a large claim
 * escalates from its assessment subprocess to a non-interrupting boundary event (a job-based user
 * task for a senior), an event-based gateway waits for the documents message or a timer, a link
 * throw event goes on at its catch event, and an overdue claim ends at a terminate end event that
 * cancels the open review. A second process starts on a timer cycle.
 */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class ModelerEventsClientTest {
  private static final String USER_TASK = "io.camunda.zeebe:userTask";

  @TempDir Path dir;

  /** Waits for a job of {@code type} for claim {@code claimId} and activates it. */
  private static ActivatedJob awaitJob(CamundaClient client, String type, String claimId) {
    ActivatedJob[] found = new ActivatedJob[1];
    Awaitility.await("a " + type + " job of claim " + claimId)
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> {
              for (ActivatedJob job :
                  client
                      .newActivateJobsCommand()
                      .jobType(type)
                      .maxJobsToActivate(10)
                      .timeout(Duration.ofSeconds(2)) // others' jobs come back soon
                      .requestTimeout(Duration.ofSeconds(1))
                      .send()
                      .join()
                      .getJobs()) {
                if (claimId.equals(job.getVariablesAsMap().get("claimId"))) {
                  found[0] = job;
                }
              }
              return found[0] != null;
            });
    return found[0];
  }

  private static CamundaFuture<ProcessInstanceResult> file(
      CamundaClient client, String claimId, int amount, String deadline) {
    return client
        .newCreateInstanceCommand()
        .bpmnProcessId("claim-handling")
        .latestVersion()
        .variables(Map.of("claimId", claimId, "amount", amount, "documentsDeadline", deadline))
        .withResult()
        .requestTimeout(Duration.ofSeconds(60))
        .send();
  }

  @Test
  void claimsEscalateWaitForDocumentsLinkToPayoutOrAreClosedWhenOverdue() throws Exception {
    try (Broker broker = Broker.start(TestBrokers.config(dir, Map.of()))) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      try (CamundaClient client = TestBrokers.client(broker)) {
        client
            .newDeployResourceCommand()
            .addResourceBytes(TestBrokers.resource("claim-handling.bpmn"), "claim-handling.bpmn")
            .addResourceBytes(TestBrokers.resource("claim-reminder.bpmn"), "claim-reminder.bpmn")
            .send()
            .join();

        // A large claim whose documents come: it escalates to a review and is paid.
        CamundaFuture<ProcessInstanceResult> paid = file(client, "c-1", 5000, "PT1H");
        client.newCompleteCommand(awaitJob(client, "assess-claim", "c-1").getKey()).send().join();
        ActivatedJob review = awaitJob(client, USER_TASK, "c-1");
        assertThat(review.getElementId()).isEqualTo("senior-review");
        assertThat(review.getCustomHeaders())
            .containsEntry("io.camunda.zeebe:candidateGroups", "[\"senior-adjusters\"]");
        client
            .newPublishMessageCommand()
            .messageName("claim-documents")
            .correlationKey("c-1")
            .variables(Map.of("documents", 3))
            .send()
            .join();
        ActivatedJob payment = awaitJob(client, "pay-claim", "c-1");
        assertThat(payment.getVariablesAsMap()).containsEntry("documents", 3);
        client.newCompleteCommand(payment.getKey()).send().join();
        client.newCompleteCommand(review.getKey()).send().join();
        assertThat(paid.join().getVariablesAsMap()).containsEntry("documents", 3);

        // A large claim whose documents never come: the overdue timer closes it, review and all.
        CamundaFuture<ProcessInstanceResult> closed = file(client, "c-2", 50_000, "PT1S");
        client.newCompleteCommand(awaitJob(client, "assess-claim", "c-2").getKey()).send().join();
        ActivatedJob openReview = awaitJob(client, USER_TASK, "c-2");
        assertThat(closed.join().getVariablesAsMap()).doesNotContainKey("documents");
        assertThatThrownBy(() -> client.newCompleteCommand(openReview.getKey()).send().join())
            .isInstanceOfSatisfying(
                ClientStatusException.class,
                e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));

        // The reminder process started twice on its own, a second apart.
        List<ActivatedJob> reminders = new ArrayList<>();
        Awaitility.await("two reminders")
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> {
                  reminders.addAll(
                      client
                          .newActivateJobsCommand()
                          .jobType("send-reminder")
                          .maxJobsToActivate(10)
                          .requestTimeout(Duration.ofSeconds(1))
                          .send()
                          .join()
                          .getJobs());
                  return reminders.size() >= 2;
                });
        assertThat(reminders).hasSize(2);
      }
    }
  }
}

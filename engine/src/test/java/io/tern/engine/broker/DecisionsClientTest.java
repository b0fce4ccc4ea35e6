package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ClientStatusException;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.response.Decision;
import io.camunda.client.api.response.DeploymentEvent;
import io.camunda.client.api.response.EvaluateDecisionResponse;
import io.camunda.client.api.response.EvaluatedDecision;
import io.grpc.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official client deploys a process with its DMN decisions as the Camunda Modeler saved them,
 * evaluates a decision (EvaluateDecision), and runs the process: a business rule task calls a
 * decision, a job-based user task carries its assignment as headers, a script task computes, a send
 * task is a job.
 */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class DecisionsClientTest {
  @TempDir Path dir;

  private static ActivatedJob awaitJob(CamundaClient client, String type) {
    ActivatedJob[] found = new ActivatedJob[1];
    Awaitility.await("a job of type " + type)
        .atMost(Duration.ofSeconds(20))
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

  @Test
  void aModelerProcessWithItsDecisionsDeploysAndRunsThroughTheClient()
      throws IOException, InterruptedException {
    try (Broker broker = Broker.start(TestBrokers.config(dir, Map.of()))) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      try (CamundaClient client = TestBrokers.client(broker)) {
        DeploymentEvent deployment =
            client
                .newDeployResourceCommand()
                .addResourceBytes(TestBrokers.resource("order-pricing.bpmn"), "order-pricing.bpmn")
                .addResourceBytes(TestBrokers.resource("order-discount.dmn"), "order-discount.dmn")
                .send()
                .join();
        assertThat(deployment.getProcesses()).hasSize(1);
        assertThat(deployment.getDecisionRequirements()).hasSize(1);
        assertThat(deployment.getDecisionRequirements().get(0).getDmnDecisionRequirementsId())
            .isEqualTo("order-discount-rules");
        assertThat(deployment.getDecisions())
            .extracting(Decision::getDmnDecisionId)
            .containsExactly("customerTier", "order-discount");
        assertThat(deployment.getDecisions()).extracting(Decision::getVersion).containsOnly(1);

        EvaluateDecisionResponse evaluated =
            client
                .newEvaluateDecisionCommand()
                .decisionId("order-discount")
                .variables(
                    Map.of(
                        "customer", Map.of("yearsActive", 3, "totalSpent", 900),
                        "order", Map.of("total", 250)))
                .send()
                .join();
        assertThat(evaluated.getDecisionOutput())
            .isEqualTo("{\"rate\":0.05,\"reason\":\"silver customer, large order\"}");
        assertThat(evaluated.getDecisionVersion()).isEqualTo(1);
        assertThat(evaluated.getFailureMessage()).isEmpty();
        assertThat(evaluated.getEvaluatedDecisions())
            .extracting(EvaluatedDecision::getDecisionId)
            .containsExactly("customerTier", "order-discount");
        EvaluatedDecision tier = evaluated.getEvaluatedDecisions().get(0);
        assertThat(tier.getDecisionOutput()).isEqualTo("\"silver\"");
        assertThat(tier.getDecisionType()).isEqualTo("DECISION_TABLE");
        assertThat(tier.getMatchedRules()).hasSize(1);
        assertThat(tier.getMatchedRules().get(0).getRuleId()).isEqualTo("Rule_silver");
        assertThat(tier.getMatchedRules().get(0).getRuleIndex()).isEqualTo(2);

        long tierKey = deployment.getDecisions().get(0).getDecisionKey();
        assertThat(
                client
                    .newEvaluateDecisionCommand()
                    .decisionKey(tierKey)
                    .variables(Map.of("customer", Map.of("yearsActive", 9, "totalSpent", 1e5)))
                    .send()
                    .join()
                    .getDecisionOutput())
            .isEqualTo("\"gold\"");
        assertThatThrownBy(
                () -> client.newEvaluateDecisionCommand().decisionId("no-such").send().join())
            .isInstanceOfSatisfying(
                ClientStatusException.class,
                e -> {
                  assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                  assertThat(e.getMessage()).contains("'no-such'");
                });

        client
            .newCreateInstanceCommand()
            .bpmnProcessId("order-pricing")
            .latestVersion()
            .variables(
                Map.of(
                    "customer",
                    Map.of("yearsActive", 6, "totalSpent", 25000),
                    "order",
                    Map.of("total", 400, "salesRep", "maria", "placedAt", "2026-11-27T10:00:00Z")))
            .send()
            .join();
        ActivatedJob approval = awaitJob(client, "io.camunda.zeebe:userTask");
        assertThat(approval.getElementId()).isEqualTo("approve-discount");
        assertThat(approval.getCustomHeaders())
            .containsEntry("io.camunda.zeebe:assignee", "maria")
            .containsEntry("io.camunda.zeebe:candidateGroups", "[\"sales\",\"pricing\"]")
            .containsEntry("io.camunda.zeebe:dueDate", "2026-11-29T10:00:00Z");
        assertThat(approval.getVariablesAsMap().get("discount"))
            .isEqualTo(Map.of("rate", 0.15, "reason", "gold customer"));
        client.newCompleteCommand(approval.getKey()).send().join();

        ActivatedJob confirmation = awaitJob(client, "send-confirmation");
        assertThat(confirmation.getCustomHeaders()).containsEntry("template", "order-priced");
        assertThat(confirmation.getVariablesAsMap()).containsEntry("finalTotal", 340);
        client.newCompleteCommand(confirmation.getKey()).send().join();
      }
    }
  }
}

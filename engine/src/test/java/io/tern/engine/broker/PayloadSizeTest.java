package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ClientStatusException;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.grpc.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Variables up to the 4 MB request limit (Zeebe's default message size) work in creates,
 * completions, SetVariables and results: the log holds each document once per batch. A message's
 * variables are held twice (the message and its correlation), so half of that. Above the limits,
 * requests are refused naming them.
 */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class PayloadSizeTest {
  /** 3 MB of variables: under the 4 MB request limit with room for the request's other fields. */
  private static final String LARGE = "x".repeat(3 * 1024 * 1024);

  private static final String HALF = "x".repeat(3 * 1024 * 1024 / 2);

  @TempDir static Path dir;
  private static Broker broker;
  private static CamundaClient client;

  @BeforeAll
  static void start() throws Exception {
    broker = Broker.start(TestBrokers.config(dir, Map.of()));
    assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
    client =
        io.camunda.client.CamundaClient.newClientBuilder()
            .grpcAddress(java.net.URI.create("http://127.0.0.1:" + broker.gatewayPort()))
            .preferRestOverGrpc(false)
            .defaultRequestTimeout(Duration.ofSeconds(30))
            .maxMessageSize(8 * 1024 * 1024) // answers carry the document back
            .build();
    client
        .newDeployResourceCommand()
        .addProcessModel(
            Bpmn.createExecutableProcess("large")
                .startEvent()
                .serviceTask("work", task -> task.zeebeJobType("large-work"))
                .intermediateCatchEvent(
                    "wait", event -> event.message(m -> m.name("go").zeebeCorrelationKey("=id")))
                .endEvent()
                .done(),
            "large.bpmn")
        .send()
        .join();
  }

  @AfterAll
  static void stop() {
    if (client != null) {
      client.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  @Test
  void aThreeMegabyteDocumentGoesThroughCreateCompleteAndSetVariablesAMessageHalfOfIt() {
    long instance =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("large")
            .latestVersion()
            .variables(Map.of("created", LARGE, "id", "order-1"))
            .send()
            .join()
            .getProcessInstanceKey();
    ActivatedJob job =
        client
            .newActivateJobsCommand()
            .jobType("large-work")
            .maxJobsToActivate(1)
            .fetchVariables("id")
            .send()
            .join()
            .getJobs()
            .get(0);
    client.newCompleteCommand(job).variables(Map.of("completed", LARGE)).send().join();
    client.newSetVariablesCommand(instance).variables(Map.of("set", LARGE)).send().join();
    // A message's variables are written twice (the message, its correlation): half the limit.
    assertThatThrownBy(
            () ->
                client
                    .newPublishMessageCommand()
                    .messageName("go")
                    .correlationKey("order-1")
                    .variables(Map.of("message", LARGE))
                    .send()
                    .join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> {
              assertThat(e.getStatusCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getMessage()).contains("exceeds log.maxBatchBytes (4194304)");
            });
    client
        .newPublishMessageCommand()
        .messageName("go")
        .correlationKey("order-1")
        .variables(Map.of("message", HALF))
        .send()
        .join();
    // The instance then ends: every document was applied, none was refused.
    assertThat(awaitEnded(instance)).as("instance %d ended", instance).isTrue();
  }

  @Test
  void aCreateWithResultAnswersWithTheLargeDocument() {
    client
        .newDeployResourceCommand()
        .addProcessModel(
            Bpmn.createExecutableProcess("large-direct").startEvent().endEvent().done(),
            "large-direct.bpmn")
        .send()
        .join();
    Map<String, Object> result =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("large-direct")
            .latestVersion()
            .variables(Map.of("created", LARGE))
            .withResult()
            .send()
            .join()
            .getVariablesAsMap();
    assertThat((String) result.get("created")).hasSize(LARGE.length());
  }

  @Test
  void aDocumentOverTheRequestLimitIsRefusedNamingIt() {
    String tooLarge = "x".repeat(5 * 1024 * 1024);
    assertThatThrownBy(
            () ->
                client
                    .newCreateInstanceCommand()
                    .bpmnProcessId("large")
                    .latestVersion()
                    .variables(Map.of("big", tooLarge))
                    .send()
                    .join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> {
              assertThat(e.getStatusCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
              assertThat(e.getMessage()).contains("4194304");
            });
  }

  private static boolean awaitEnded(long instance) {
    try {
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .pollDelay(Duration.ZERO)
          .pollInterval(Duration.ofMillis(20))
          .until(
              () ->
                  !broker
                      .partitions()
                      .get(0)
                      .processor()
                      .query(
                          state ->
                              new io.tern.engine.workflow.inspect.WorkflowInspection(state)
                                      .instance(instance)
                                  != null)
                      .join());
      return true;
    } catch (ConditionTimeoutException e) {
      return false;
    }
  }
}

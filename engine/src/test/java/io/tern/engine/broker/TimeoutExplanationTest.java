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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request that gets no answer in time says what is known: processing paused, an incident on the
 * instance, or where the instance waits; never a guess at an election.
 */
@Tag("slow") // waits out request timeouts: docs/testing.md
class TimeoutExplanationTest {
  private static final Duration SHORT = Duration.ofSeconds(2);

  @TempDir static Path dir;
  private static Broker broker;
  private static CamundaClient client;

  @BeforeAll
  static void start() throws Exception {
    broker = Broker.start(TestBrokers.config(dir, Map.of()));
    assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
    client = TestBrokers.client(broker);
    client
        .newDeployResourceCommand()
        .addProcessModel(
            Bpmn.createExecutableProcess("pay")
                .startEvent()
                .serviceTask("charge", t -> t.zeebeJobType("charge"))
                .endEvent()
                .done(),
            "pay.bpmn")
        .send()
        .join();
    client
        .newDeployResourceCommand()
        .addProcessModel(
            Bpmn.createExecutableProcess("sign")
                .startEvent()
                .userTask("countersign", t -> t.zeebeUserTask())
                .endEvent()
                .done(),
            "sign.bpmn")
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

  private static void assertTimesOutSaying(Runnable request, String... known) {
    assertThatThrownBy(request::run)
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> {
              assertThat(e.getStatusCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
              assertThat(e.getMessage()).contains(known).doesNotContain("electing");
            });
  }

  @Test
  void anInstanceThatWaitsForAJobSaysWhere() {
    assertTimesOutSaying(
        () ->
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("pay")
                .latestVersion()
                .withResult()
                .requestTimeout(SHORT)
                .send()
                .join(),
        "has not ended: it waits at 'charge' (job ");
  }

  @Test
  void anInstanceThatWaitsForAUserTaskSaysWhich() {
    assertTimesOutSaying(
        () ->
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("sign")
                .latestVersion()
                .withResult()
                .requestTimeout(SHORT)
                .send()
                .join(),
        "has not ended: it waits at 'countersign' (user task ");
  }

  @Test
  void anInstanceWithAnIncidentNamesIt() throws Exception {
    var pending =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("pay")
            .latestVersion()
            .withResult()
            .requestTimeout(Duration.ofSeconds(5))
            .send();
    ActivatedJob job = null;
    for (int tries = 0; job == null && tries < 50; tries++) {
      var jobs =
          client.newActivateJobsCommand().jobType("charge").maxJobsToActivate(1).send().join();
      job = jobs.getJobs().isEmpty() ? null : jobs.getJobs().get(0);
    }
    assertThat(job).as("the instance's job").isNotNull();
    client.newFailCommand(job).retries(0).errorMessage("card declined").send().join();

    assertTimesOutSaying(
        pending::join,
        "has an incident on 'charge' (JOB_NO_RETRIES: card declined)",
        "GET /actuator/instances/");
  }

  @Test
  void pausedProcessingIsNamed() throws Exception {
    EnginePartitionPause pause = new EnginePartitionPause(broker);
    try {
      assertTimesOutSaying(
          () ->
              client
                  .newPublishMessageCommand()
                  .messageName("m")
                  .correlationKey("k")
                  .requestTimeout(SHORT)
                  .send()
                  .join(),
          "processing is paused on partition 1",
          "resumeProcessing");
    } finally {
      pause.close();
    }
  }

  /** Pauses every partition's processing until closed. */
  private record EnginePartitionPause(Broker broker) implements AutoCloseable {
    EnginePartitionPause {
      broker.partitions().forEach(partition -> partition.processor().pause());
      for (var partition : broker.partitions()) {
        partition.processor().query(state -> null).join(); // the pause has been applied
      }
    }

    @Override
    public void close() {
      broker.partitions().forEach(partition -> partition.processor().resume());
    }
  }
}

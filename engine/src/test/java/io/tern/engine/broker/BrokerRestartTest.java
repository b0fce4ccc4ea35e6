package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.zeebe.model.bpmn.Bpmn;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a broker acknowledged is there after it is stopped and started again on its data. */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class BrokerRestartTest {
  @TempDir Path dir;

  @Test
  void deploymentsAndInstancesSurviveARestart() throws InterruptedException {
    long instanceKey;
    try (Broker broker = Broker.start(TestBrokers.config(dir, Map.of()));
        CamundaClient client = TestBrokers.client(broker)) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      client
          .newDeployResourceCommand()
          .addResourceBytes(
              Bpmn.convertToString(
                      Bpmn.createExecutableProcess("kept")
                          .startEvent()
                          .serviceTask("task", t -> t.zeebeJobType("kept-work"))
                          .endEvent()
                          .done())
                  .getBytes(StandardCharsets.UTF_8),
              "kept.bpmn")
          .send()
          .join();
      instanceKey =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("kept")
              .latestVersion()
              .variables(Map.of("n", 1))
              .send()
              .join()
              .getProcessInstanceKey();
    }

    try (Broker broker = Broker.start(TestBrokers.config(dir, Map.of()));
        CamundaClient client = TestBrokers.client(broker)) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      List<ActivatedJob> jobs =
          client
              .newActivateJobsCommand()
              .jobType("kept-work")
              .maxJobsToActivate(5)
              .requestTimeout(Duration.ofSeconds(5))
              .send()
              .join()
              .getJobs();
      assertThat(jobs).hasSize(1);
      assertThat(jobs.get(0).getProcessInstanceKey()).isEqualTo(instanceKey);
      assertThat(jobs.get(0).getVariablesAsMap()).isEqualTo(Map.of("n", 1));
      // The deployment is still there: a second instance starts at once.
      assertThat(
              client
                  .newCreateInstanceCommand()
                  .bpmnProcessId("kept")
                  .latestVersion()
                  .send()
                  .join()
                  .getVersion())
          .isEqualTo(1);
    }
  }
}

package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.client.ZeebeClient;
import io.camunda.zeebe.client.api.response.ProcessInstanceResult;
import io.camunda.zeebe.client.api.worker.JobWorker;
import io.camunda.zeebe.model.bpmn.Bpmn;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The older official client, io.camunda:zeebe-client-java, works against Tern as well. */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class ZeebeClientTest {
  @TempDir Path dir;

  @Test
  @SuppressWarnings("deprecation") // the deprecated client is the point of this test
  void theZeebeClientDeploysRunsAJobWorkerAndGetsTheResult() throws InterruptedException {
    try (Broker broker = Broker.start(TestBrokers.config(dir, Map.of()));
        ZeebeClient client =
            ZeebeClient.newClientBuilder()
                .gatewayAddress("127.0.0.1:" + broker.gatewayPort())
                .usePlaintext()
                .defaultRequestTimeout(Duration.ofSeconds(10))
                .build()) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      assertThat(client.newTopologyRequest().send().join().getPartitionsCount()).isEqualTo(1);
      client
          .newDeployResourceCommand()
          .addResourceBytes(
              Bpmn.convertToString(
                      Bpmn.createExecutableProcess("legacy")
                          .startEvent()
                          .serviceTask("t", t -> t.zeebeJobType("legacy-work"))
                          .endEvent()
                          .done())
                  .getBytes(StandardCharsets.UTF_8),
              "legacy.bpmn")
          .send()
          .join();
      try (JobWorker worker =
          client
              .newWorker()
              .jobType("legacy-work")
              .handler(
                  (jobClient, job) ->
                      jobClient.newCompleteCommand(job).variables(Map.of("done", true)).send())
              .open()) {
        ProcessInstanceResult result =
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("legacy")
                .latestVersion()
                .variables(Map.of("n", 1))
                .withResult()
                .requestTimeout(Duration.ofSeconds(20))
                .send()
                .join();
        assertThat(result.getVariablesAsMap()).isEqualTo(Map.of("n", 1, "done", true));
      }
    }
  }
}

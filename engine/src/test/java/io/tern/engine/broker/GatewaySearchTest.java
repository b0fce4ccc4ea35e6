package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.search.response.ProcessInstance;
import io.camunda.zeebe.model.bpmn.Bpmn;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A standalone gateway whose configuration names the history store's url serves the searches over
 * it, as the brokers' embedded gateways do: the official client, talking to the gateway only, finds
 * the instance a broker ran.
 */
@Tag("slow") // a broker and a standalone gateway: docs/testing.md
class GatewaySearchTest {
  @TempDir Path dir;

  @Test
  void aStandaloneGatewaySearchesTheStoreItsConfigurationNames() throws Exception {
    // One JVM: the broker's exporter and the gateway share the H2 file as one embedded database.
    Map<String, String> store =
        Map.of(
            "TERN_EXPORTING_HISTORY_ENABLED", "true",
            "TERN_EXPORTERS_HISTORY_ARGS_URL",
                HistoryDefaults.h2Url(dir.resolve("shared").resolve("history")),
            "TERN_EXPORTERS_HISTORY_ARGS_FLUSHINTERVAL", "PT0.1S");
    try (Broker broker = Broker.start(TestBrokers.config(dir.resolve("broker"), store))) {
      Map<String, String> gatewaySettings = new java.util.HashMap<>(store);
      gatewaySettings.put("TERN_CLUSTER_CONTACTPOINTS", "127.0.0.1:" + broker.commandPort());
      try (StandaloneGateway gateway =
              StandaloneGateway.start(TestBrokers.config(dir.resolve("gateway"), gatewaySettings));
          CamundaClient client =
              CamundaClient.newClientBuilder()
                  .restAddress(URI.create("http://127.0.0.1:" + gateway.restPort()))
                  .grpcAddress(URI.create("http://127.0.0.1:" + gateway.port()))
                  .defaultRequestTimeout(Duration.ofSeconds(10))
                  .build()) {
        assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
        assertThat(gateway.awaitLeaders(Duration.ofSeconds(30))).isTrue();
        client
            .newDeployResourceCommand()
            .addProcessModel(
                Bpmn.createExecutableProcess("searched").startEvent().endEvent().done(),
                "searched.bpmn")
            .send()
            .join();
        long instance =
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("searched")
                .latestVersion()
                .send()
                .join()
                .getProcessInstanceKey();
        List<ProcessInstance> found =
            await("the gateway finds the instance in the store")
                .atMost(Duration.ofSeconds(30))
                .ignoreExceptions()
                .until(
                    () ->
                        client
                            .newProcessInstanceSearchRequest()
                            .filter(f -> f.processDefinitionId("searched"))
                            .send()
                            .join()
                            .items(),
                    items -> !items.isEmpty());
        assertThat(found)
            .extracting(ProcessInstance::getProcessInstanceKey)
            .containsExactly(instance);
      }
    }
  }
}

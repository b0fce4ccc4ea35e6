package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.zeebe.model.bpmn.Bpmn;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Seeing what is stuck: open incidents, and where an instance waits, over the management API. */
@Tag("slow") // a broker end to end, through its gateway or management port: docs/testing.md
class InspectionEndpointsTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dir;

  /** A GET with the management token. */
  private static HttpResponse<String> get(Broker broker, String path) throws Exception {
    return get(broker, path, TestBrokers.BEARER);
  }

  private static HttpResponse<String> get(Broker broker, String path, String authorization)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + broker.managementPort() + path))
            .timeout(Duration.ofSeconds(30));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void anIncidentAndTheInstanceItHoldsUpAreShown() throws Exception {
    try (Broker broker = Broker.start(TestBrokers.config(dir, Map.of()));
        CamundaClient client = TestBrokers.client(broker)) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      client
          .newDeployResourceCommand()
          .addProcessModel(
              Bpmn.createExecutableProcess("order")
                  .startEvent()
                  .serviceTask("charge", task -> task.zeebeJobType("charge"))
                  .endEvent()
                  .done(),
              "order.bpmn")
          .send()
          .join();
      long stuck =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("order")
              .latestVersion()
              .variables(Map.of("orderId", 7))
              .send()
              .join()
              .getProcessInstanceKey();
      ActivatedJob job =
          client
              .newActivateJobsCommand()
              .jobType("charge")
              .maxJobsToActivate(1)
              .send()
              .join()
              .getJobs()
              .get(0);
      client.newFailCommand(job).retries(0).errorMessage("card declined").send().join();

      HttpResponse<String> incidents = get(broker, "/actuator/incidents");
      assertThat(incidents.statusCode()).isEqualTo(200);
      assertThat(incidents.body())
          .contains("\"errorType\":\"JOB_NO_RETRIES\"")
          .contains("\"errorMessage\":\"card declined\"")
          .contains("\"elementId\":\"charge\"")
          .contains("\"processInstanceKey\":" + stuck)
          .contains("\"replica\":\"LEADER\"");

      HttpResponse<String> instance = get(broker, "/actuator/instances/" + stuck);
      assertThat(instance.statusCode()).isEqualTo(200);
      assertThat(instance.body())
          .contains("\"processInstanceKey\":" + stuck)
          .contains("\"elementId\":\"order\",\"elementType\":\"PROCESS\",\"state\":\"ACTIVATED\"")
          .contains("\"variables\":{\"orderId\":7}")
          .contains("\"elementId\":\"charge\",\"elementType\":\"SERVICE_TASK\"")
          .contains("\"jobKey\":" + job.getKey())
          .contains("\"incident\":{")
          .contains("card declined")
          .doesNotContain("redacted");

      // Variables are business data: without the token (or with a wrong one) they are redacted,
      // the rest is shown.
      for (String authorization : new String[] {null, "Bearer wrong-token-0123456789abc"}) {
        HttpResponse<String> redacted = get(broker, "/actuator/instances/" + stuck, authorization);
        assertThat(redacted.statusCode()).isEqualTo(200);
        assertThat(redacted.body())
            .contains("\"variables\":\"" + InspectionEndpoints.REDACTED + "\"")
            .contains("\"elementId\":\"charge\",\"elementType\":\"SERVICE_TASK\"")
            .doesNotContain("orderId");
      }

      // A Camunda user task's key, which a task list needs for its commands, is shown too.
      client
          .newDeployResourceCommand()
          .addProcessModel(
              Bpmn.createExecutableProcess("approval")
                  .startEvent()
                  .userTask("approve", task -> task.zeebeUserTask())
                  .endEvent()
                  .done(),
              "approval.bpmn")
          .send()
          .join();
      long waiting =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("approval")
              .latestVersion()
              .send()
              .join()
              .getProcessInstanceKey();
      long userTask = TestBrokers.awaitUserTaskKey(broker, "approval");
      assertThat(get(broker, "/actuator/instances/" + waiting).body())
          .contains("\"elementId\":\"approve\",\"elementType\":\"USER_TASK\"")
          .contains("\"userTaskKey\":" + userTask);
    }
  }

  @Test
  void unknownAndMalformedKeysAreAnsweredClearly() throws Exception {
    try (Broker broker = Broker.start(TestBrokers.config(dir, Map.of()))) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      assertThat(get(broker, "/actuator/incidents").body()).isEqualTo("{\"incidents\":[]}");

      HttpResponse<String> missing = get(broker, "/actuator/instances/" + ((1L << 51) + 12345));
      assertThat(missing.statusCode()).isEqualTo(404);
      assertThat(missing.body()).contains("no active process instance").contains("partition 1");

      HttpResponse<String> partitionZero = get(broker, "/actuator/instances/12345");
      assertThat(partitionZero.statusCode()).isEqualTo(404);
      assertThat(partitionZero.body())
          .contains("key 12345 is not a key of any partition (the cluster's partitions are 1 to 1)")
          .doesNotContain("partition 0");
      HttpResponse<String> pastTheLast = get(broker, "/actuator/instances/" + ((2L << 51) + 1));
      assertThat(pastTheLast.body()).contains("is not a key of any partition");
      assertThat(get(broker, "/actuator/instances/-5").body())
          .contains("key -5 is not a key of any partition");

      HttpResponse<String> malformed = get(broker, "/actuator/instances/order-7");
      assertThat(malformed.statusCode()).isEqualTo(400);
      assertThat(malformed.body()).contains("not a process instance key: order-7");
    }
  }
}

package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ProblemException;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.response.CorrelateMessageResponse;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.record.Keys;
import io.tern.engine.workflow.Partitions;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official 8.9 client's CorrelateMessage over REST, on a broker of two partitions: the answer
 * names the instance that took the message, whether it lives on the message's partition or the
 * other, or the instance a message start event started; nothing waiting is a 404 NOT_FOUND.
 */
class RestCorrelateMessageTest {
  private static final int PARTITIONS = 2;

  @TempDir Path dir;
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  private static BpmnModelInstance invoice() {
    return Bpmn.createExecutableProcess("invoice")
        .startEvent()
        .intermediateCatchEvent(
            "paid",
            e -> e.message(m -> m.name("invoice-paid").zeebeCorrelationKeyExpression("invoiceId")))
        .serviceTask("book", t -> t.zeebeJobType("book"))
        .endEvent()
        .done();
  }

  private static BpmnModelInstance refund() {
    return Bpmn.createExecutableProcess("refund")
        .startEvent()
        .message("refund-requested")
        .serviceTask("pay-back", t -> t.zeebeJobType("pay-back"))
        .endEvent()
        .done();
  }

  /** A correlation key whose messages live on partition 1. */
  private static String keyOnPartitionOne(int from) {
    for (int i = from; ; i++) {
      String key = "invoice-" + i;
      if (Partitions.ofCorrelationKey(key, PARTITIONS) == 1) {
        return key;
      }
    }
  }

  @Test
  void theAnswerNamesTheInstanceThatTookTheMessageOnEitherPartition() throws Exception {
    Map<String, String> twoPartitions =
        Map.of("TERN_CLUSTER_PARTITIONSCOUNT", Integer.toString(PARTITIONS));
    try (Broker broker = Broker.start(TestBrokers.config(dir, twoPartitions), registry);
        CamundaClient client =
            CamundaClient.newClientBuilder()
                .restAddress(URI.create("http://127.0.0.1:" + broker.restPort()))
                .grpcAddress(URI.create("http://127.0.0.1:" + broker.gatewayPort()))
                .preferRestOverGrpc(true)
                .defaultRequestTimeout(Duration.ofSeconds(10))
                .build()) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      client
          .newDeployResourceCommand()
          .addResourceBytes(bytes(invoice()), "invoice.bpmn")
          .addResourceBytes(bytes(refund()), "refund.bpmn")
          .send()
          .join();

      // Instances go to the partitions in turn; every message lives on partition 1.
      List<String> keys = new ArrayList<>();
      List<Long> instances = new ArrayList<>();
      Set<Integer> instancePartitions = new HashSet<>();
      int next = 0;
      for (int i = 0; i < 4; i++) {
        String key = keyOnPartitionOne(next);
        next = Integer.parseInt(key.substring("invoice-".length())) + 1;
        long instance =
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("invoice")
                .latestVersion()
                .variables(Map.of("invoiceId", key))
                .send()
                .join()
                .getProcessInstanceKey();
        keys.add(key);
        instances.add(instance);
        instancePartitions.add(Keys.partitionOf(instance));
      }
      assertThat(instancePartitions)
          .as("instances on both partitions")
          .containsExactlyInAnyOrder(1, 2);

      for (int i = 0; i < keys.size(); i++) {
        String key = keys.get(i);
        CorrelateMessageResponse correlated =
            awaitCorrelated(client, "invoice-paid", key, Map.of("amount", i));
        assertThat(correlated.getProcessInstanceKey()).as(key).isEqualTo(instances.get(i));
        assertThat(correlated.getMessageKey()).isPositive();
        assertThat(Keys.partitionOf(correlated.getMessageKey())).isEqualTo(1);
        assertThat(correlated.getTenantId()).isEqualTo("<default>");
      }
      List<ActivatedJob> booked = awaitJobs(client, "book", keys.size());
      for (ActivatedJob job : booked) {
        int index = instances.indexOf(job.getProcessInstanceKey());
        assertThat(job.getVariablesAsMap()).containsEntry("amount", index);
      }

      CorrelateMessageResponse started =
          client
              .newCorrelateMessageCommand()
              .messageName("refund-requested")
              .withoutCorrelationKey()
              .variables(Map.of("reason", "late"))
              .send()
              .join();
      List<ActivatedJob> refunds = awaitJobs(client, "pay-back", 1);
      assertThat(refunds.get(0).getProcessInstanceKey()).isEqualTo(started.getProcessInstanceKey());
      assertThat(refunds.get(0).getVariablesAsMap()).containsEntry("reason", "late");

      assertThatThrownBy(
              () ->
                  client
                      .newCorrelateMessageCommand()
                      .messageName("invoice-paid")
                      .correlationKey("nobody")
                      .send()
                      .join())
          .isInstanceOfSatisfying(
              ProblemException.class,
              e -> {
                assertThat(e.details().getStatus()).isEqualTo(404);
                assertThat(e.details().getTitle()).isEqualTo("NOT_FOUND");
                assertThat(e.details().getDetail()).contains("'nobody'");
              });
      assertThat(served("POST /v2/messages/correlation", 200)).isEqualTo(keys.size() + 1);
      assertThat(served("POST /v2/messages/correlation", 404)).isPositive();
    }
  }

  /**
   * Correlates once the instance's subscription is open: until then nothing waits (404), as a
   * subscription opens after its instance's creation was answered.
   */
  private static CorrelateMessageResponse awaitCorrelated(
      CamundaClient client, String name, String key, Map<String, Object> variables) {
    CorrelateMessageResponse[] answer = new CorrelateMessageResponse[1];
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(20))
        .ignoreExceptionsMatching(
            e -> e instanceof ProblemException problem && problem.details().getStatus() == 404)
        .until(
            () -> {
              answer[0] =
                  client
                      .newCorrelateMessageCommand()
                      .messageName(name)
                      .correlationKey(key)
                      .variables(variables)
                      .send()
                      .join();
              return true;
            });
    return answer[0];
  }

  private static List<ActivatedJob> awaitJobs(CamundaClient client, String type, int count) {
    List<ActivatedJob> jobs = new ArrayList<>();
    org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(20))
        .until(
            () -> {
              jobs.addAll(
                  client
                      .newActivateJobsCommand()
                      .jobType(type)
                      .maxJobsToActivate(count - jobs.size())
                      .timeout(Duration.ofMinutes(1))
                      .send()
                      .join()
                      .getJobs());
              return jobs.size() >= count;
            });
    return jobs;
  }

  private long served(String route, int status) {
    Timer timer =
        registry
            .find("tern.gateway.rest.request.latency")
            .tags("route", route, "status", Integer.toString(status))
            .timer();
    return timer == null ? 0 : timer.count();
  }

  private static byte[] bytes(BpmnModelInstance model) {
    return Bpmn.convertToString(model).getBytes(StandardCharsets.UTF_8);
  }
}

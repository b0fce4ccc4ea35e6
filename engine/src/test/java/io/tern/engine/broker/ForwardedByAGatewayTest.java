package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.worker.JobWorker;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.ValueType;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command API's allow-list is whole: a standalone gateway that is not a broker forwards every
 * kind of client command (see {@link CommandApiAccessTest} for what it refuses).
 */
@Tag("slow") // brokers behind a standalone gateway: docs/testing.md
class ForwardedByAGatewayTest {
  @TempDir Path dir;

  /**
   * A standalone gateway is not a broker: here the broker's name is 127.0.0.2 and the gateway
   * connects from 127.0.0.1. Everything the official client asks of it still goes through
   * (deploying, instances with their result, a streamed job completed and one failed into an
   * incident that is resolved, retries and timeouts, variables, a message, a signal, an error, a
   * cancellation, a deletion): nothing it forwards is refused.
   */
  @Test
  void aGatewayThatIsNotABrokerForwardsEveryClientCommand() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    Map<String, String> brokerOn2 =
        Map.of("TERN_NETWORK_HOST", "127.0.0.2", "TERN_NETWORK_ADVERTISEDHOST", "127.0.0.2");
    try (Broker broker =
            Broker.start(TestBrokers.config(dir.resolve("broker"), brokerOn2), registry);
        StandaloneGateway gateway =
            StandaloneGateway.start(
                TestBrokers.config(
                    dir.resolve("gateway"),
                    Map.of(
                        "TERN_CLUSTER_CONTACTPOINTS",
                        "127.0.0.2:" + broker.commandPort(),
                        "TERN_NETWORK_HOST",
                        "127.0.0.1")));
        CamundaClient client =
            CamundaClient.newClientBuilder()
                .grpcAddress(URI.create("http://127.0.0.1:" + gateway.port()))
                .preferRestOverGrpc(false)
                .defaultRequestTimeout(Duration.ofSeconds(10))
                .build()) {
      assertThat(broker.awaitReady(Duration.ofSeconds(30))).isTrue();
      assertThat(gateway.awaitLeaders(Duration.ofSeconds(30))).isTrue();
      long processKey =
          client
              .newDeployResourceCommand()
              .addProcessModel(
                  Bpmn.createExecutableProcess("order")
                      .startEvent()
                      .serviceTask("charge", task -> task.zeebeJobTypeExpression("jobType"))
                      .boundaryEvent("declined", event -> event.error("declined"))
                      .endEvent()
                      .moveToActivity("charge")
                      .intermediateCatchEvent(
                          "paid",
                          event ->
                              event.message(
                                  message ->
                                      message
                                          .name("paid")
                                          .zeebeCorrelationKeyExpression("orderId")))
                      .endEvent()
                      .done(),
                  "order.bpmn")
              .send()
              .join()
              .getProcesses()
              .get(0)
              .getProcessDefinitionKey();

      // A streamed job completed; the instance then waits for its message, which comes. (Its job
      // type is the streamed worker's only: a job pushed while the stream closes would wait for
      // its timeout.)
      try (JobWorker worker =
          client
              .newWorker()
              .jobType("charge-streamed")
              .handler((jobs, job) -> jobs.newCompleteCommand(job).send().join())
              .streamEnabled(true)
              .open()) {
        var done =
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("order")
                .latestVersion()
                .variables(Map.of("orderId", "1", "jobType", "charge-streamed"))
                .withResult()
                .requestTimeout(Duration.ofSeconds(30))
                .send();
        Awaitility.await("the first order waits for its payment")
            .atMost(Duration.ofSeconds(20))
            .pollInterval(Duration.ofMillis(50))
            .until(
                () -> {
                  client
                      .newPublishMessageCommand()
                      .messageName("paid")
                      .correlationKey("1")
                      .timeToLive(Duration.ofSeconds(30))
                      .send()
                      .join();
                  return true;
                });
        assertThat(done.join().getProcessInstanceKey()).isPositive();
      }

      // A job failed into an incident, its retries and timeout changed, the incident resolved,
      // variables set; another job's error ends its instance by the boundary event; a third
      // instance is cancelled.
      long second = create(client, "2");
      ActivatedJob job = activate(client, second);
      client.newUpdateTimeoutCommand(job.getKey()).timeout(Duration.ofMinutes(5)).send().join();
      client.newFailCommand(job).retries(0).errorMessage("card declined").send().join();
      long incident =
          Awaitility.await("the incident")
              .atMost(Duration.ofSeconds(10))
              .until(() -> incidentOf(broker), key -> key > 0);
      client.newUpdateRetriesCommand(job.getKey()).retries(1).send().join();
      client.newResolveIncidentCommand(incident).send().join();
      client.newSetVariablesCommand(second).variables(Map.of("note", "retry")).send().join();

      long third = create(client, "3");
      client.newThrowErrorCommand(activate(client, third)).errorCode("declined").send().join();
      client.newCancelInstanceCommand(create(client, "4")).send().join();
      client.newBroadcastSignalCommand().signalName("nobody-waits").send().join();
      client.newDeleteResourceCommand(processKey).send().join();

      assertThat(registry.get("tern.commandapi.refused").tag("method", "Execute").counter().count())
          .as("commands a gateway forwarded refused")
          .isZero();
      // And the gateway really is no broker here: a connection made as its are (to 127.0.0.2,
      // the system picking the local address) may not send an internal command.
      ManagedChannel asTheGateway =
          NettyChannelBuilder.forAddress("127.0.0.2", broker.commandPort()).usePlaintext().build();
      try {
        StatusRuntimeException refused =
            catchThrowableOfType(
                StatusRuntimeException.class,
                () ->
                    CommandApiAccessTest.execute(
                        asTheGateway, CommandApiAccessTest.INTERNAL.get(5), 7_006, true));
        assertThat(refused.getStatus().getCode()).isEqualTo(Status.Code.PERMISSION_DENIED);
      } finally {
        asTheGateway.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  private static long create(CamundaClient client, String orderId) {
    return client
        .newCreateInstanceCommand()
        .bpmnProcessId("order")
        .latestVersion()
        .variables(Map.of("orderId", orderId, "jobType", "charge"))
        .send()
        .join()
        .getProcessInstanceKey();
  }

  /** The charge job of {@code instance}, activated by polling. */
  private static ActivatedJob activate(CamundaClient client, long instance) {
    List<ActivatedJob> activated = new ArrayList<>();
    Awaitility.await("the charge job of " + instance)
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              client
                  .newActivateJobsCommand()
                  .jobType("charge")
                  .maxJobsToActivate(10)
                  .send()
                  .join()
                  .getJobs()
                  .stream()
                  .filter(job -> job.getProcessInstanceKey() == instance)
                  .forEach(activated::add);
              return !activated.isEmpty();
            });
    return activated.get(0);
  }

  /** The key of a committed incident in the broker's log, or -1. */
  private static long incidentOf(Broker broker) {
    long[] key = {-1};
    TestBrokers.readLog(
        broker,
        record -> {
          if (record.valueType() == ValueType.INCIDENT
              && record.intent() == IncidentIntent.CREATED
              && record.isEvent()) {
            key[0] = record.key();
            return false;
          }
          return true;
        });
    return key[0];
  }
}

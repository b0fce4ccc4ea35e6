package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ClientStatusException;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.response.DeploymentEvent;
import io.camunda.client.api.response.ProcessInstanceEvent;
import io.camunda.client.api.response.ProcessInstanceResult;
import io.camunda.client.api.response.Topology;
import io.camunda.client.api.worker.JobWorker;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.grpc.Status;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The official Java client drives a single broker through the embedded gateway. */
class GatewayClientTest {
  @TempDir static Path dir;
  private static Broker broker;
  private static CamundaClient client;

  @BeforeAll
  static void startBroker() throws InterruptedException {
    BrokerConfig config = TestBrokers.config(dir, Map.of());
    broker = Broker.start(config);
    assertThat(broker.awaitReady(Duration.ofSeconds(30))).as("the partition elects").isTrue();
    client = TestBrokers.client(broker);
  }

  @AfterAll
  static void stopBroker() {
    if (client != null) {
      client.close();
    }
    if (broker != null) {
      broker.close();
    }
  }

  private static BpmnModelInstance oneTask(String processId, String jobType) {
    return Bpmn.createExecutableProcess(processId)
        .startEvent()
        .serviceTask("task", t -> t.zeebeJobType(jobType))
        .endEvent()
        .done();
  }

  private static DeploymentEvent deploy(BpmnModelInstance model, String name) {
    return client
        .newDeployResourceCommand()
        .addResourceBytes(Bpmn.convertToString(model).getBytes(StandardCharsets.UTF_8), name)
        .send()
        .join();
  }

  @Test
  void theTopologyShowsTheBrokerLeadingItsPartition() {
    Topology topology = client.newTopologyRequest().send().join();
    assertThat(topology.getClusterSize()).isEqualTo(1);
    assertThat(topology.getPartitionsCount()).isEqualTo(1);
    assertThat(topology.getBrokers()).hasSize(1);
    assertThat(topology.getBrokers().get(0).getPartitions().get(0).isLeader()).isTrue();
  }

  @Test
  void aProcessRunsThroughDeployCreateActivateAndComplete() {
    DeploymentEvent deployment = deploy(oneTask("order", "pack"), "order.bpmn");
    assertThat(deployment.getProcesses()).hasSize(1);
    assertThat(deployment.getProcesses().get(0).getBpmnProcessId()).isEqualTo("order");
    assertThat(deployment.getProcesses().get(0).getVersion()).isEqualTo(1);

    ProcessInstanceEvent instance =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("order")
            .latestVersion()
            .variables(Map.of("orderId", 42))
            .send()
            .join();
    assertThat(instance.getProcessDefinitionKey())
        .isEqualTo(deployment.getProcesses().get(0).getProcessDefinitionKey());

    List<ActivatedJob> jobs =
        client
            .newActivateJobsCommand()
            .jobType("pack")
            .maxJobsToActivate(5)
            .requestTimeout(Duration.ofSeconds(5))
            .send()
            .join()
            .getJobs();
    assertThat(jobs).hasSize(1);
    assertThat(jobs.get(0).getProcessInstanceKey()).isEqualTo(instance.getProcessInstanceKey());
    assertThat(jobs.get(0).getVariablesAsMap()).isEqualTo(Map.of("orderId", 42));
    client.newCompleteCommand(jobs.get(0).getKey()).variables(Map.of("packed", true)).send().join();

    assertThatThrownBy(() -> client.newCompleteCommand(jobs.get(0).getKey()).send().join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.NOT_FOUND));
  }

  @Test
  void createWithResultAnswersWithTheVariablesOnceAWorkerCompletesTheJob() {
    deploy(oneTask("quote", "price"), "quote.bpmn");
    // A streaming worker: jobs are pushed to it as they are created.
    List<Long> handled = new CopyOnWriteArrayList<>();
    try (JobWorker worker =
        client
            .newWorker()
            .jobType("price")
            .handler(
                (jobClient, job) -> {
                  handled.add(job.getKey());
                  jobClient.newCompleteCommand(job).variables(Map.of("price", 99)).send().join();
                })
            .streamEnabled(true)
            .pollInterval(Duration.ofMinutes(1)) // so that only the stream can deliver in time
            .open()) {
      ProcessInstanceResult result =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("quote")
              .latestVersion()
              .variables(Map.of("item", "pen"))
              .withResult()
              .requestTimeout(Duration.ofSeconds(20))
              .send()
              .join();
      assertThat(result.getVariablesAsMap()).isEqualTo(Map.of("item", "pen", "price", 99));
      assertThat(handled).hasSize(1);
    }
  }

  @Test
  void aLongPollingActivationGetsAJobCreatedWhileItWaits() throws Exception {
    deploy(oneTask("later", "slow"), "later.bpmn");
    CompletableFuture<List<ActivatedJob>> waiting =
        client
            .newActivateJobsCommand()
            .jobType("slow")
            .maxJobsToActivate(1)
            .requestTimeout(Duration.ofSeconds(8))
            .send()
            .toCompletableFuture()
            .thenApply(response -> response.getJobs());
    TestBrokers.awaitParked(broker.gatewayJobStreams(), "slow");
    long startNanos = System.nanoTime();
    client.newCreateInstanceCommand().bpmnProcessId("later").latestVersion().send().join();

    List<ActivatedJob> jobs = waiting.get(8, TimeUnit.SECONDS);
    assertThat(jobs).hasSize(1);
    assertThat(Duration.ofNanos(System.nanoTime() - startNanos))
        .as("woken by the new job, not by the 8 s timeout")
        .isLessThan(Duration.ofSeconds(4));
  }

  @Test
  void aPublishedMessageReachesTheInstanceWaitingForIt() {
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("payment")
            .startEvent()
            .intermediateCatchEvent(
                "paid",
                e -> e.message(m -> m.name("paid").zeebeCorrelationKeyExpression("orderId")))
            .serviceTask("ship", t -> t.zeebeJobType("ship"))
            .endEvent()
            .done();
    deploy(model, "payment.bpmn");
    client
        .newCreateInstanceCommand()
        .bpmnProcessId("payment")
        .latestVersion()
        .variables(Map.of("orderId", "o-7"))
        .send()
        .join();
    client
        .newPublishMessageCommand()
        .messageName("paid")
        .correlationKey("o-7")
        .variables(Map.of("amount", 12))
        .send()
        .join();

    List<ActivatedJob> jobs =
        client
            .newActivateJobsCommand()
            .jobType("ship")
            .maxJobsToActivate(1)
            .requestTimeout(Duration.ofSeconds(8))
            .send()
            .join()
            .getJobs();
    assertThat(jobs).hasSize(1);
    assertThat(jobs.get(0).getVariablesAsMap()).containsEntry("amount", 12);
  }

  @Test
  void badRequestsGetStatusCodesThatSayWhatIsWrong() {
    deploy(oneTask("vars", "vars-work"), "vars.bpmn");
    assertThatThrownBy(
            () ->
                client
                    .newDeployResourceCommand()
                    .addResourceBytes("<not-bpmn/>".getBytes(StandardCharsets.UTF_8), "bad.bpmn")
                    .send()
                    .join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.INVALID_ARGUMENT))
        .hasMessageContaining("bad.bpmn");
    assertThatThrownBy(
            () ->
                client
                    .newCreateInstanceCommand()
                    .bpmnProcessId("nobody-deployed-this")
                    .latestVersion()
                    .send()
                    .join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.NOT_FOUND))
        .hasMessageContaining("nobody-deployed-this");
    assertThatThrownBy(
            () ->
                client
                    .newCreateInstanceCommand()
                    .bpmnProcessId("vars")
                    .latestVersion()
                    .variables("[1, 2]")
                    .send()
                    .join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
  }

  @Test
  void jobCommandsFailRetryThrowUpdateAndCancelThroughTheGateway() {
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("ops")
            .startEvent()
            .serviceTask("risky", t -> t.zeebeJobType("risky").zeebeJobRetries("2"))
            .boundaryEvent("caught", b -> b.error("OOPS"))
            .endEvent("caught-end")
            .moveToActivity("risky")
            .endEvent("end")
            .done();
    deploy(model, "ops.bpmn");
    long instance =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("ops")
            .latestVersion()
            .variables(Map.of("attempt", 0))
            .send()
            .join()
            .getProcessInstanceKey();

    ActivatedJob first = activateOne("risky");
    assertThat(first.getRetries()).isEqualTo(2);
    client.newFailCommand(first.getKey()).retries(1).errorMessage("flaky").send().join();
    ActivatedJob second = activateOne("risky");
    assertThat(second.getKey()).isEqualTo(first.getKey());
    assertThat(second.getRetries()).isEqualTo(1);
    client.newUpdateRetriesCommand(second.getKey()).retries(5).send().join();
    client.newUpdateTimeoutCommand(second.getKey()).timeout(Duration.ofMinutes(2)).send().join();
    client.newSetVariablesCommand(instance).variables(Map.of("attempt", 2)).send().join();
    client.newThrowErrorCommand(second.getKey()).errorCode("OOPS").send().join();
    assertThatThrownBy(() -> client.newCompleteCommand(second.getKey()).send().join())
        .as("the caught job is gone")
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.NOT_FOUND));

    long waiting =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("ops")
            .latestVersion()
            .send()
            .join()
            .getProcessInstanceKey();
    client.newCancelInstanceCommand(waiting).send().join();
    assertThatThrownBy(() -> client.newCancelInstanceCommand(waiting).send().join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.NOT_FOUND));
  }

  private static ActivatedJob activateOne(String type) {
    List<ActivatedJob> jobs =
        client
            .newActivateJobsCommand()
            .jobType(type)
            .maxJobsToActivate(1)
            .requestTimeout(Duration.ofSeconds(5))
            .send()
            .join()
            .getJobs();
    assertThat(jobs).hasSize(1);
    return jobs.get(0);
  }

  @Test
  void aPayloadOverTheRequestLimitIsRefusedAndNothingElseBreaks() {
    // Up to the limit, see PayloadSizeTest.
    deploy(oneTask("big", "big-work"), "big.bpmn");
    String tooLarge = "x".repeat(5 * 1024 * 1024);
    assertThatThrownBy(
            () ->
                client
                    .newCreateInstanceCommand()
                    .bpmnProcessId("big")
                    .latestVersion()
                    .variables(Map.of("blob", tooLarge))
                    .send()
                    .join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
    assertThat(
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("big")
                .latestVersion()
                .variables(Map.of("blob", "small"))
                .send()
                .join()
                .getProcessInstanceKey())
        .isPositive();
  }

  @Test
  void anOpenJobStreamGetsNewJobsPushedWithoutAnyActivateJobs() throws Exception {
    deploy(oneTask("pushed", "push-me"), "pushed.bpmn");
    io.grpc.ManagedChannel channel =
        io.grpc.netty.NettyChannelBuilder.forAddress("127.0.0.1", broker.gatewayPort())
            .usePlaintext()
            .build();
    try {
      java.util.concurrent.BlockingQueue<
              io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivatedJob>
          pushed = new java.util.concurrent.LinkedBlockingQueue<>();
      io.camunda.zeebe.gateway.protocol.GatewayGrpc.newStub(channel)
          .streamActivatedJobs(
              io.camunda.zeebe.gateway.protocol.GatewayOuterClass.StreamActivatedJobsRequest
                  .newBuilder()
                  .setType("push-me")
                  .setWorker("raw-stream")
                  .setTimeout(60_000)
                  .build(),
              new io.grpc.stub.StreamObserver<>() {
                @Override
                public void onNext(
                    io.camunda.zeebe.gateway.protocol.GatewayOuterClass.ActivatedJob job) {
                  pushed.add(job);
                }

                @Override
                public void onError(Throwable error) {}

                @Override
                public void onCompleted() {}
              });
      TestBrokers.awaitStreamOpen(broker.gatewayJobStreams(), "push-me");
      long instance =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("pushed")
              .latestVersion()
              .send()
              .join()
              .getProcessInstanceKey();

      var job = pushed.poll(10, TimeUnit.SECONDS);
      assertThat(job).as("a pushed job").isNotNull();
      assertThat(job.getProcessInstanceKey()).isEqualTo(instance);
      assertThat(job.getWorker()).isEqualTo("raw-stream");
      client.newCompleteCommand(job.getKey()).send().join();
    } finally {
      channel.shutdownNow();
    }
  }

  @Test
  void aTimerFiresAndAnIncidentIsResolvedThroughTheGateway() throws Exception {
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("timed")
            .startEvent()
            .intermediateCatchEvent("wait", e -> e.timerWithDuration("PT0.2S"))
            .serviceTask("fragile", t -> t.zeebeJobType("fragile"))
            .endEvent()
            .done();
    deploy(model, "timed.bpmn");
    var result =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("timed")
            .latestVersion()
            .withResult()
            .requestTimeout(Duration.ofSeconds(30))
            .send();
    ActivatedJob job = activateOne("fragile"); // only after the timer fired
    client.newFailCommand(job.getKey()).retries(0).errorMessage("out of luck").send().join();
    long incident = TestBrokers.awaitIncidentKey(broker, job.getProcessInstanceKey());

    assertThatThrownBy(() -> client.newResolveIncidentCommand(incident).send().join())
        .as("resolving while the job still has no retries")
        .isInstanceOf(ClientStatusException.class);
    client.newUpdateRetriesCommand(job.getKey()).retries(1).send().join();
    client.newResolveIncidentCommand(incident).send().join();
    ActivatedJob again = activateOne("fragile");
    assertThat(again.getKey()).isEqualTo(job.getKey());
    client.newCompleteCommand(again.getKey()).variables(Map.of("recovered", true)).send().join();
    assertThat(result.join().getVariablesAsMap()).containsEntry("recovered", true);
    assertThatThrownBy(() -> client.newResolveIncidentCommand(incident).send().join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.NOT_FOUND));
  }

  @Test
  void deleteResourceRemovesAProcessVersionAndThePreviousOneIsTheLatestAgain() {
    DeploymentEvent first = deploy(oneTask("deletable", "deletable-1"), "deletable.bpmn");
    DeploymentEvent second = deploy(oneTask("deletable", "deletable-2"), "deletable.bpmn");
    long v1 = first.getProcesses().get(0).getProcessDefinitionKey();
    long v2 = second.getProcesses().get(0).getProcessDefinitionKey();

    client.newDeleteResourceCommand(v2).send().join();

    ProcessInstanceEvent created =
        client.newCreateInstanceCommand().bpmnProcessId("deletable").latestVersion().send().join();
    assertThat(created.getProcessDefinitionKey()).isEqualTo(v1);
    assertThat(created.getVersion()).isEqualTo(1);
    assertThatThrownBy(() -> client.newDeleteResourceCommand(v2).send().join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
              assertThat(e.getMessage()).contains(Long.toString(v2));
            });
    assertThatThrownBy(
            () -> client.newCreateInstanceCommand().processDefinitionKey(v2).send().join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
  }

  @Test
  void modifyProcessInstanceMovesATokenThroughTheOfficialClient() {
    deploy(
        Bpmn.createExecutableProcess("stuck")
            .startEvent()
            .serviceTask("call-partner", t -> t.zeebeJobType("partner"))
            .serviceTask("ship", t -> t.zeebeJobType("ship"))
            .endEvent()
            .done(),
        "stuck.bpmn");
    CompletableFuture<ProcessInstanceResult> ended =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("stuck")
            .latestVersion()
            .withResult()
            .requestTimeout(Duration.ofSeconds(60))
            .send()
            .toCompletableFuture();
    ActivatedJob partner = activateOne("partner");

    assertThatThrownBy(
            () ->
                client
                    .newModifyProcessInstanceCommand(partner.getProcessInstanceKey())
                    .activateElement("no-such-task")
                    .send()
                    .join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getMessage()).contains("no-such-task");
            });

    client
        .newModifyProcessInstanceCommand(partner.getProcessInstanceKey())
        .terminateElement(partner.getElementInstanceKey())
        .and()
        .activateElement("ship")
        .withVariables(Map.of("skipped", "partner"))
        .send()
        .join();
    ActivatedJob ship = activateOne("ship");
    assertThat(ship.getVariablesAsMap()).containsEntry("skipped", "partner");
    client.newCompleteCommand(ship).send().join();
    assertThat(ended.join().getVariablesAsMap()).containsEntry("skipped", "partner");
  }

  @Test
  void migrateProcessInstanceMovesAWaitingInstanceToTheNextVersion() {
    deploy(
        Bpmn.createExecutableProcess("billing")
            .startEvent()
            .serviceTask("invoice", t -> t.zeebeJobType("invoice"))
            .endEvent()
            .done(),
        "billing.bpmn");
    long v2 =
        deploy(
                Bpmn.createExecutableProcess("billing")
                    .startEvent()
                    .serviceTask("invoice-v2", t -> t.zeebeJobType("invoice"))
                    .serviceTask("archive", t -> t.zeebeJobType("archive"))
                    .endEvent()
                    .done(),
                "billing.bpmn")
            .getProcesses()
            .get(0)
            .getProcessDefinitionKey();
    client.newCreateInstanceCommand().bpmnProcessId("billing").version(1).send().join();
    ActivatedJob invoice = activateOne("invoice");

    assertThatThrownBy(
            () ->
                client
                    .newMigrateProcessInstanceCommand(invoice.getProcessInstanceKey())
                    .migrationPlan(v2)
                    .addMappingInstruction("start-nowhere", "invoice-v2")
                    .send()
                    .join())
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getMessage()).contains("non-existing source element id 'start-nowhere'");
            });

    client
        .newMigrateProcessInstanceCommand(invoice.getProcessInstanceKey())
        .migrationPlan(v2)
        .addMappingInstruction("invoice", "invoice-v2")
        .send()
        .join();
    // The job activated before keeps its key: its worker completes it, and v2's path follows.
    client.newCompleteCommand(invoice).send().join();
    ActivatedJob archive = activateOne("archive");
    assertThat(archive.getProcessDefinitionKey()).isEqualTo(v2);
    assertThat(archive.getProcessInstanceKey()).isEqualTo(invoice.getProcessInstanceKey());
    client.newCompleteCommand(archive).send().join();
  }

  @Test
  void migrateProcessInstanceMovesAMessageSubscriptionToAnotherProcessId() throws Exception {
    deploy(
        Bpmn.createExecutableProcess("refund")
            .startEvent()
            .intermediateCatchEvent(
                "claimed",
                e -> e.message(m -> m.name("claimed").zeebeCorrelationKeyExpression("c")))
            .endEvent()
            .done(),
        "refund.bpmn");
    long target =
        deploy(
                Bpmn.createExecutableProcess("payout")
                    .startEvent()
                    .intermediateCatchEvent(
                        "claimed-payout",
                        e -> e.message(m -> m.name("claimed").zeebeCorrelationKeyExpression("c")))
                    .serviceTask("pay", t -> t.zeebeJobType("pay"))
                    .endEvent()
                    .done(),
                "payout.bpmn")
            .getProcesses()
            .get(0)
            .getProcessDefinitionKey();
    long instance =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("refund")
            .latestVersion()
            .variables(Map.of("c", "claim-1"))
            .send()
            .join()
            .getProcessInstanceKey();

    // Refused (FAILED_PRECONDITION, "retry") until the subscription is open on the message side.
    Awaitility.await("the migration, once the subscription is open")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              try {
                client
                    .newMigrateProcessInstanceCommand(instance)
                    .migrationPlan(target)
                    .addMappingInstruction("claimed", "claimed-payout")
                    .send()
                    .join();
                return true;
              } catch (ClientStatusException e) {
                assertThat(e.getStatus().getCode())
                    .as("%s", e.getMessage())
                    .isEqualTo(Status.Code.FAILED_PRECONDITION);
                return false;
              }
            });
    client
        .newPublishMessageCommand()
        .messageName("claimed")
        .correlationKey("claim-1")
        .send()
        .join();
    ActivatedJob pay = activateOne("pay");
    assertThat(pay.getProcessInstanceKey()).isEqualTo(instance);
    assertThat(pay.getBpmnProcessId()).isEqualTo("payout");
    client.newCompleteCommand(pay).send().join();
  }

  @Test
  void aDeclinedCardCompensatesTheBookingsThroughTheOfficialClient() throws Exception {
    byte[] saga;
    try (java.io.InputStream in = getClass().getResourceAsStream("/bpmn/trip-booking.bpmn")) {
      saga = in.readAllBytes();
    }
    client.newDeployResourceCommand().addResourceBytes(saga, "trip-booking.bpmn").send().join();
    CompletableFuture<ProcessInstanceResult> ended =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("trip-booking")
            .latestVersion()
            .withResult()
            .requestTimeout(Duration.ofSeconds(60))
            .send()
            .toCompletableFuture();
    client
        .newCompleteCommand(activateOne("book-hotel"))
        .variables(Map.of("hotelBooking", "H-9"))
        .send()
        .join();
    client.newCompleteCommand(activateOne("book-flight")).send().join();
    client
        .newThrowErrorCommand(activateOne("charge-card"))
        .errorCode("card-declined")
        .send()
        .join();

    ActivatedJob cancelHotel = activateOne("cancel-hotel");
    assertThat(cancelHotel.getVariablesAsMap()).containsEntry("booking", "H-9");
    assertThat(ended).as("the throw event waits for every handler").isNotDone();
    client.newCompleteCommand(cancelHotel).send().join();
    client.newCompleteCommand(activateOne("cancel-flight")).send().join();
    assertThat(ended.join().getVariablesAsMap()).containsEntry("hotelBooking", "H-9");
  }
}

package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ProblemException;
import io.camunda.client.api.response.ActivatedJob;
import io.camunda.client.api.response.DeploymentEvent;
import io.camunda.client.api.response.ProcessInstanceEvent;
import io.camunda.client.api.response.ProcessInstanceResult;
import io.camunda.client.api.response.Topology;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tern.engine.workflow.value.UserTaskValue;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The official 8.9 client with its default builder (REST preferred) drives a broker through the
 * gateway's REST API: each command is checked to have gone over REST by the route's timer, and its
 * keys to be the ones the gRPC port knows.
 */
class RestClientTest {
  @TempDir static Path dir;
  private static final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private static Broker broker;
  private static CamundaClient client;
  private static CamundaClient grpc;

  @BeforeAll
  static void startBroker() throws InterruptedException {
    broker = Broker.start(TestBrokers.config(dir, Map.of()), registry);
    assertThat(broker.awaitReady(Duration.ofSeconds(30))).as("the partition elects").isTrue();
    client =
        CamundaClient.newClientBuilder()
            .restAddress(URI.create("http://127.0.0.1:" + broker.restPort()))
            .grpcAddress(URI.create("http://127.0.0.1:" + broker.gatewayPort()))
            .preferRestOverGrpc(true) // the default, said aloud
            .defaultRequestTimeout(Duration.ofSeconds(10))
            .build();
    grpc = TestBrokers.client(broker);
  }

  @AfterAll
  static void stopBroker() {
    for (AutoCloseable closeable : new AutoCloseable[] {client, grpc, broker}) {
      try {
        if (closeable != null) {
          closeable.close();
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** How many requests route {@code route} answered with {@code status}. */
  private static long served(String route, int status) {
    Timer timer =
        registry
            .find("tern.gateway.rest.request.latency")
            .tags("route", route, "status", Integer.toString(status))
            .timer();
    return timer == null ? 0 : timer.count();
  }

  private static DeploymentEvent deploy(BpmnModelInstance model, String name) {
    return client
        .newDeployResourceCommand()
        .addResourceBytes(Bpmn.convertToString(model).getBytes(StandardCharsets.UTF_8), name)
        .send()
        .join();
  }

  private static ActivatedJob activateOne(String type) {
    List<ActivatedJob> jobs =
        client
            .newActivateJobsCommand()
            .jobType(type)
            .maxJobsToActivate(1)
            .timeout(Duration.ofSeconds(30))
            .requestTimeout(Duration.ofSeconds(10))
            .send()
            .join()
            .getJobs();
    assertThat(jobs).as("a job of type %s", type).hasSize(1);
    return jobs.get(0);
  }

  @Test
  void topologyAndStatusAreServed() {
    Topology topology = client.newTopologyRequest().send().join();
    assertThat(topology.getClusterSize()).isEqualTo(1);
    assertThat(topology.getPartitionsCount()).isEqualTo(1);
    assertThat(topology.getBrokers()).hasSize(1);
    assertThat(topology.getBrokers().get(0).getPartitions().get(0).isLeader()).isTrue();
    assertThat(served("GET /v2/topology", 200)).isPositive();
    client.newStatusRequest().send().join();
    assertThat(served("GET /v2/status", 204)).isPositive();
  }

  @Test
  void aProcessIsDeployedCreatedAndItsJobCompletedOverRest() {
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("rest-order")
            .startEvent()
            .serviceTask("pack", t -> t.zeebeJobType("rest-pack"))
            .endEvent()
            .done();
    DeploymentEvent deployment = deploy(model, "rest-order.bpmn");
    assertThat(deployment.getKey()).isPositive();
    assertThat(deployment.getProcesses()).hasSize(1);
    long definitionKey = deployment.getProcesses().get(0).getProcessDefinitionKey();
    assertThat(deployment.getProcesses().get(0).getBpmnProcessId()).isEqualTo("rest-order");
    assertThat(served("POST /v2/deployments", 200)).isPositive();

    CompletableFuture<ProcessInstanceResult> result =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("rest-order")
            .latestVersion()
            .variables(Map.of("orderId", 7))
            .withResult()
            .requestTimeout(Duration.ofSeconds(20))
            .send()
            .toCompletableFuture();
    ActivatedJob job = activateOne("rest-pack");
    assertThat(job.getVariablesAsMap()).containsEntry("orderId", 7);
    assertThat(job.getProcessDefinitionKey()).isEqualTo(definitionKey);
    assertThat(job.getElementId()).isEqualTo("pack");
    client.newCompleteCommand(job.getKey()).variables(Map.of("packed", true)).send().join();
    ProcessInstanceResult done = result.join();
    assertThat(done.getVariablesAsMap()).containsEntry("packed", true).containsEntry("orderId", 7);
    assertThat(done.getProcessInstanceKey()).isEqualTo(job.getProcessInstanceKey());
    assertThat(served("POST /v2/jobs/activation", 200)).isPositive();
    assertThat(served("POST /v2/jobs/{jobKey}/completion", 204)).isPositive();

    // The keys REST hands out are the gRPC port's: the definition key starts an instance there.
    ProcessInstanceEvent created =
        client.newCreateInstanceCommand().processDefinitionKey(definitionKey).send().join();
    assertThat(created.getBpmnProcessId()).isEqualTo("rest-order");
    ActivatedJob second = activateOne("rest-pack");
    assertThat(second.getProcessInstanceKey()).isEqualTo(created.getProcessInstanceKey());
    client.newCancelInstanceCommand(created.getProcessInstanceKey()).send().join();
    assertThat(served("POST /v2/process-instances/{processInstanceKey}/cancellation", 204))
        .isPositive();
    assertThatThrownBy(() -> grpc.newCompleteCommand(second.getKey()).send().join())
        .as("the cancelled instance's job is gone for the gRPC port too")
        .hasMessageContaining("NOT_FOUND");
  }

  @Test
  void jobsFailAndThrowErrorsOverRest() {
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("rest-risky")
            .startEvent()
            .serviceTask("charge", t -> t.zeebeJobType("rest-charge"))
            .boundaryEvent("declined", b -> b.error("DECLINED"))
            .endEvent("refused")
            .moveToActivity("charge")
            .endEvent("charged")
            .done();
    deploy(model, "rest-risky.bpmn");
    CompletableFuture<ProcessInstanceResult> result =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("rest-risky")
            .latestVersion()
            .withResult()
            .requestTimeout(Duration.ofSeconds(20))
            .send()
            .toCompletableFuture();
    ActivatedJob job = activateOne("rest-charge");
    client
        .newFailCommand(job.getKey())
        .retries(2)
        .errorMessage("card reader offline")
        .variables(Map.of("attempt", 1))
        .send()
        .join();
    ActivatedJob again = activateOne("rest-charge");
    assertThat(again.getKey()).isEqualTo(job.getKey());
    assertThat(again.getRetries()).isEqualTo(2);
    client
        .newThrowErrorCommand(again.getKey())
        .errorCode("DECLINED")
        .errorMessage("insufficient funds")
        .variables(Map.of("declined", true))
        .send()
        .join();
    assertThat(result.join().getVariablesAsMap()).containsEntry("declined", true);
    assertThat(served("POST /v2/jobs/{jobKey}/failure", 204)).isPositive();
    assertThat(served("POST /v2/jobs/{jobKey}/error", 204)).isPositive();
  }

  @Test
  void aPublishedMessageIsCorrelatedAndASignalStartsAnInstance() {
    BpmnModelInstance waiting =
        Bpmn.createExecutableProcess("rest-payment")
            .startEvent()
            .intermediateCatchEvent(
                "paid", e -> e.message(m -> m.name("payment").zeebeCorrelationKeyExpression("id")))
            .endEvent()
            .done();
    BpmnModelInstance signalled =
        Bpmn.createExecutableProcess("rest-alarm")
            .startEvent()
            .signal("alarm")
            .serviceTask("respond", t -> t.zeebeJobType("rest-respond"))
            .endEvent()
            .done();
    deploy(waiting, "rest-payment.bpmn");
    deploy(signalled, "rest-alarm.bpmn");
    CompletableFuture<ProcessInstanceResult> result =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("rest-payment")
            .latestVersion()
            .variables(Map.of("id", "order-42"))
            .withResult()
            .requestTimeout(Duration.ofSeconds(20))
            .send()
            .toCompletableFuture();
    var published =
        client
            .newPublishMessageCommand()
            .messageName("payment")
            .correlationKey("order-42")
            .timeToLive(Duration.ofSeconds(30))
            .variables(Map.of("amount", 12.5))
            .send()
            .join();
    assertThat(published.getMessageKey()).isPositive();
    assertThat(result.join().getVariablesAsMap()).containsEntry("amount", 12.5);
    assertThat(served("POST /v2/messages/publication", 200)).isPositive();

    var signal =
        client
            .newBroadcastSignalCommand()
            .signalName("alarm")
            .variables(Map.of("level", 3))
            .send()
            .join();
    assertThat(signal.getKey()).isPositive();
    ActivatedJob job = activateOne("rest-respond");
    assertThat(job.getBpmnProcessId()).isEqualTo("rest-alarm");
    assertThat(job.getVariablesAsMap()).containsEntry("level", 3);
    client.newCompleteCommand(job.getKey()).send().join();
    assertThat(served("POST /v2/signals/broadcast", 200)).isPositive();
  }

  @Test
  void variablesAreSetAndAnIncidentResolvedOverRest() {
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("rest-fragile")
            .startEvent()
            .serviceTask("fragile", t -> t.zeebeJobType("rest-fragile"))
            .endEvent()
            .done();
    deploy(model, "rest-fragile.bpmn");
    CompletableFuture<ProcessInstanceResult> result =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("rest-fragile")
            .latestVersion()
            .withResult()
            .requestTimeout(Duration.ofSeconds(20))
            .send()
            .toCompletableFuture();
    ActivatedJob job = activateOne("rest-fragile");
    client.newFailCommand(job.getKey()).retries(0).errorMessage("out of luck").send().join();
    long incident = TestBrokers.awaitIncidentKey(broker, job.getProcessInstanceKey());

    assertThatThrownBy(() -> client.newResolveIncidentCommand(incident).send().join())
        .as("resolving while the job still has no retries")
        .isInstanceOfSatisfying(
            ProblemException.class, e -> assertThat(e.details().getStatus()).isEqualTo(409));
    client.newUpdateRetriesCommand(job.getKey()).retries(1).send().join();
    assertThat(served("PATCH /v2/jobs/{jobKey}", 204)).isPositive();
    client
        .newSetVariablesCommand(job.getProcessInstanceKey())
        .variables(Map.of("patched", "yes"))
        .send()
        .join();
    assertThat(served("PUT /v2/element-instances/{elementInstanceKey}/variables", 204))
        .isPositive();
    client.newResolveIncidentCommand(incident).send().join();
    assertThat(served("POST /v2/incidents/{incidentKey}/resolution", 204)).isPositive();
    ActivatedJob again = activateOne("rest-fragile");
    assertThat(again.getKey()).isEqualTo(job.getKey());
    assertThat(again.getVariablesAsMap()).containsEntry("patched", "yes");
    client.newUpdateTimeoutCommand(again.getKey()).timeout(Duration.ofMinutes(5)).send().join();
    client.newCompleteCommand(again.getKey()).send().join();
    assertThat(result.join().getVariablesAsMap()).containsEntry("patched", "yes");
    assertThatThrownBy(() -> client.newResolveIncidentCommand(incident).send().join())
        .isInstanceOfSatisfying(
            ProblemException.class, e -> assertThat(e.details().getStatus()).isEqualTo(404));
  }

  @Test
  void aJobWorkerOfTheDefaultClientPollsOverRest() {
    deploy(
        Bpmn.createExecutableProcess("rest-greet")
            .startEvent()
            .serviceTask("greet", t -> t.zeebeJobType("rest-greet"))
            .endEvent()
            .done(),
        "rest-greet.bpmn");
    long polls = served("POST /v2/jobs/activation", 200);
    try (var worker =
        client
            .newWorker()
            .jobType("rest-greet")
            .handler(
                (jobs, job) ->
                    jobs.newCompleteCommand(job)
                        .variables(
                            Map.of("greeting", "hello " + job.getVariablesAsMap().get("name")))
                        .send()
                        .join())
            // Short polls: the client's close waits for a poll in flight.
            .requestTimeout(Duration.ofMillis(500))
            .open()) {
      ProcessInstanceResult result =
          client
              .newCreateInstanceCommand()
              .bpmnProcessId("rest-greet")
              .latestVersion()
              .variables(Map.of("name", "tern"))
              .withResult()
              .requestTimeout(Duration.ofSeconds(20))
              .send()
              .join();
      assertThat(result.getVariablesAsMap()).containsEntry("greeting", "hello tern");
    }
    assertThat(served("POST /v2/jobs/activation", 200)).isGreaterThan(polls);
  }

  @Test
  void decisionsAreDeployedAndEvaluatedOverRest() throws Exception {
    DeploymentEvent deployment =
        client
            .newDeployResourceCommand()
            .addResourceBytes(TestBrokers.resource("order-discount.dmn"), "order-discount.dmn")
            .send()
            .join();
    assertThat(deployment.getDecisionRequirements())
        .extracting(graph -> graph.getDmnDecisionRequirementsId())
        .containsExactly("order-discount-rules");
    assertThat(deployment.getDecisions())
        .extracting(decision -> decision.getDmnDecisionId())
        .containsExactly("customerTier", "order-discount");

    var evaluated =
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
    assertThat(evaluated.getEvaluatedDecisions())
        .extracting(decision -> decision.getDecisionId())
        .containsExactly("customerTier", "order-discount");
    assertThat(evaluated.getEvaluatedDecisions().get(0).getMatchedRules().get(0).getRuleId())
        .isEqualTo("Rule_silver");
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
    assertThat(served("POST /v2/decision-definitions/evaluation", 200)).isEqualTo(2);
  }

  @Test
  void anInstanceIsModifiedAndMigratedOverRest() {
    deploy(
        Bpmn.createExecutableProcess("rest-billing")
            .startEvent()
            .serviceTask("invoice", t -> t.zeebeJobType("rest-invoice"))
            .serviceTask("remind", t -> t.zeebeJobType("rest-remind"))
            .endEvent()
            .done(),
        "rest-billing.bpmn");
    long v2 =
        deploy(
                Bpmn.createExecutableProcess("rest-billing-v2")
                    .startEvent()
                    .serviceTask("remind-v2", t -> t.zeebeJobType("rest-remind"))
                    .serviceTask("archive", t -> t.zeebeJobType("rest-archive"))
                    .endEvent()
                    .done(),
                "rest-billing-v2.bpmn")
            .getProcesses()
            .get(0)
            .getProcessDefinitionKey();
    long instance =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("rest-billing")
            .latestVersion()
            .send()
            .join()
            .getProcessInstanceKey();
    ActivatedJob invoice = activateOne("rest-invoice");
    client
        .newModifyProcessInstanceCommand(instance)
        .terminateElement(invoice.getElementInstanceKey())
        .and()
        .activateElement("remind")
        .withVariables(Map.of("skipped", "invoice"))
        .send()
        .join();
    assertThat(served("POST /v2/process-instances/{processInstanceKey}/modification", 204))
        .isPositive();
    ActivatedJob remind = activateOne("rest-remind");
    assertThat(remind.getVariablesAsMap()).containsEntry("skipped", "invoice");

    client
        .newMigrateProcessInstanceCommand(instance)
        .migrationPlan(v2)
        .addMappingInstruction("remind", "remind-v2")
        .send()
        .join();
    assertThat(served("POST /v2/process-instances/{processInstanceKey}/migration", 204))
        .isPositive();
    client.newCompleteCommand(remind).send().join();
    ActivatedJob archive = activateOne("rest-archive");
    assertThat(archive.getProcessDefinitionKey()).isEqualTo(v2);
    assertThat(archive.getProcessInstanceKey()).isEqualTo(instance);
    client.newCompleteCommand(archive).send().join();
  }

  @Test
  void anUnknownProcessIsANotFoundProblem() {
    assertThatThrownBy(
            () ->
                client
                    .newCreateInstanceCommand()
                    .bpmnProcessId("no-such-process")
                    .latestVersion()
                    .send()
                    .join())
        .isInstanceOfSatisfying(
            ProblemException.class,
            e -> {
              assertThat(e.details().getStatus()).isEqualTo(404);
              assertThat(e.details().getTitle()).isEqualTo("NOT_FOUND");
              assertThat(e.details().getDetail()).contains("no-such-process");
            });
    assertThat(served("POST /v2/process-instances", 404)).isPositive();
  }

  @Test
  void aUserTaskIsAssignedUpdatedClaimedAndCompletedOverRest() {
    deploy(
        Bpmn.createExecutableProcess("rest-approval")
            .startEvent()
            .userTask(
                "approve",
                t -> t.zeebeUserTask().zeebeCandidateGroups("clerks").zeebeTaskPriority("40"))
            .endEvent()
            .done(),
        "rest-approval.bpmn");
    CompletableFuture<ProcessInstanceResult> result =
        client
            .newCreateInstanceCommand()
            .bpmnProcessId("rest-approval")
            .latestVersion()
            .variables(Map.of("amount", 120))
            .withResult()
            .requestTimeout(Duration.ofSeconds(20))
            .send()
            .toCompletableFuture();
    long task = TestBrokers.awaitUserTaskKey(broker, "rest-approval");

    client.newAssignUserTaskCommand(task).assignee("bob").send().join();
    assertThat(served("POST /v2/user-tasks/{userTaskKey}/assignment", 204)).isEqualTo(1);
    assertThatThrownBy(
            () ->
                client
                    .newAssignUserTaskCommand(task)
                    .assignee("carol")
                    .allowOverride(false)
                    .send()
                    .join())
        .as("claiming a task someone else has")
        .isInstanceOfSatisfying(
            ProblemException.class,
            e -> {
              assertThat(e.details().getStatus()).isEqualTo(409);
              assertThat(e.details().getDetail()).contains("assigned to 'bob'");
            });
    client.newUnassignUserTaskCommand(task).send().join();
    assertThat(served("DELETE /v2/user-tasks/{userTaskKey}/assignee", 204)).isEqualTo(1);
    client.newAssignUserTaskCommand(task).assignee("carol").allowOverride(false).send().join();
    client
        .newUpdateUserTaskCommand(task)
        .candidateGroups(List.of("clerks", "managers"))
        .dueDate("2026-12-31T12:00:00Z")
        .priority(75)
        .send()
        .join();
    assertThat(served("PATCH /v2/user-tasks/{userTaskKey}", 204)).isEqualTo(1);
    assertThatThrownBy(() -> client.newUpdateUserTaskCommand(task).priority(101).send().join())
        .isInstanceOfSatisfying(
            ProblemException.class, e -> assertThat(e.details().getStatus()).isEqualTo(400));

    client
        .newCompleteUserTaskCommand(task)
        .variables(Map.of("approved", true))
        .action("approve")
        .send()
        .join();
    assertThat(served("POST /v2/user-tasks/{userTaskKey}/completion", 204)).isEqualTo(1);
    assertThat(result.join().getVariablesAsMap())
        .isEqualTo(Map.of("amount", 120, "approved", true));
    assertThatThrownBy(() -> client.newCompleteUserTaskCommand(task).send().join())
        .as("a completed task is gone")
        .isInstanceOfSatisfying(
            ProblemException.class, e -> assertThat(e.details().getStatus()).isEqualTo(404));
    List<String> events = new ArrayList<>();
    UserTaskValue value = new UserTaskValue();
    TestBrokers.readLog(
        broker,
        record -> {
          if (record.key() == task && record.isEvent()) {
            value.readFrom(record.value());
            events.add(record.intent().name() + " " + value.assignee + " " + value.priority);
          }
          return true;
        });
    assertThat(events)
        .containsExactly(
            "CREATING  40",
            "CREATED  40",
            "ASSIGNING bob 40",
            "ASSIGNED bob 40",
            "ASSIGNING  40",
            "ASSIGNED  40",
            "CLAIMING carol 40",
            "ASSIGNED carol 40",
            "UPDATING carol 75",
            "UPDATED carol 75",
            "COMPLETING carol 75",
            "COMPLETED carol 75");
  }
}

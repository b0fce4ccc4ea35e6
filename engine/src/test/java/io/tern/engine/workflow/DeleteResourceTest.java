package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ResourceDeletionIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import io.tern.engine.workflow.value.ResourceDeletionValue;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * DeleteResource of a process version: it starts nothing new, the previous version becomes the
 * latest with its start events, its running instances go on, and versions are never reused. Each
 * test's log is replayed by a new member afterwards.
 */
class DeleteResourceTest extends WorkflowTestBase {
  static Answer delete(TestMember member, long resourceKey) {
    ResourceDeletionValue deletion = new ResourceDeletionValue();
    deletion.resourceKey = resourceKey;
    return member.awaitAnswer(member.send(ResourceDeletionIntent.DELETE, -1, deletion));
  }

  private static Answer createByKey(TestMember member, long processDefinitionKey) {
    ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
    creation.processDefinitionKey = processDefinitionKey;
    creation.variables = "{}".getBytes(StandardCharsets.UTF_8);
    return member.awaitAnswer(member.send(CreationIntent.CREATE, -1, creation));
  }

  private static BpmnModelInstance version(String jobType) {
    return oneTask("order", jobType);
  }

  @Test
  void deletingTheLatestVersionMakesThePreviousOneLatestWhileItsInstancesGoOn() {
    TestMember leader = leader();
    DeploymentValue.Process v1 = deployed(deploy(leader, "order.bpmn", xml(version("v1"))));
    DeploymentValue.Process v2 = deployed(deploy(leader, "order.bpmn", xml(version("v2"))));
    assertThat(v2.version()).isEqualTo(2);
    create(leader, "order");
    long runningJob = awaitJob(leader, "v2");

    Answer deleted = delete(leader, v2.processDefinitionKey());
    assertThat(deleted.rejection()).isEqualTo(RejectionType.NONE);
    assertThat(deleted.intent()).isEqualTo(ResourceDeletionIntent.DELETED);

    create(leader, "order");
    awaitJob(leader, "v1");
    assertThat(createByKey(leader, v2.processDefinitionKey()).rejection())
        .isEqualTo(RejectionType.NOT_FOUND);
    assertThat(createByKey(leader, v1.processDefinitionKey()).rejection())
        .isEqualTo(RejectionType.NONE);
    assertThat(delete(leader, v2.processDefinitionKey()).rejection())
        .as("deleted once")
        .isEqualTo(RejectionType.NOT_FOUND);

    completeJob(leader, runningJob); // the deleted version's instance goes on to its end
    await(
        () ->
            Collections.frequency(lifecycle(), "order " + ProcessInstanceIntent.ELEMENT_COMPLETED)
                == 1,
        "the deleted version's instance to complete");

    DeploymentValue.Process v3 = deployed(deploy(leader, "order.bpmn", xml(version("v3"))));
    assertThat(v3.version()).as("versions are never reused").isEqualTo(3);
    assertThat(delete(leader, v3.processDefinitionKey()).rejection()).isEqualTo(RejectionType.NONE);
    assertThat(delete(leader, v1.processDefinitionKey()).rejection()).isEqualTo(RejectionType.NONE);
    assertThat(create(leader, "order").rejection())
        .as("no version left")
        .isEqualTo(RejectionType.NOT_FOUND);
  }

  @Test
  void theStartEventsOfTheDeletedLatestVersionPassToThePreviousOne() {
    TestMember leader = leader();
    for (String version : List.of("1", "2")) {
      deployed(
          deploy(
              leader,
              "started.bpmn",
              xml(
                  Bpmn.createExecutableProcess("started")
                      .startEvent("on-message")
                      .message("go")
                      .serviceTask("m" + version, t -> t.zeebeJobType("message-" + version))
                      .moveToProcess("started")
                      .startEvent("on-signal")
                      .signal("go")
                      .serviceTask("s" + version, t -> t.zeebeJobType("signal-" + version))
                      .moveToProcess("started")
                      .startEvent("on-timer")
                      .timerWithCycle("R1/PT1H")
                      .serviceTask("t" + version, t -> t.zeebeJobType("timer-" + version))
                      .done())));
    }
    long v1 = processKeyOf("started", 1);
    long v2 = processKeyOf("started", 2);
    assertThat(timers(TimerIntent.CANCELED, v1)).as("replaced by version 2's").isOne();
    assertThat(delete(leader, v2).rejection()).isEqualTo(RejectionType.NONE);
    assertThat(timers(TimerIntent.CANCELED, v2)).isOne();
    assertThat(timers(TimerIntent.CREATED, v1)).as("version 1's again").isEqualTo(2);

    publish(leader, "go", "", 0, "", "{}");
    awaitJob(leader, "message-1");
    SignalEventsTest.broadcast(leader, "go", "{}");
    awaitJob(leader, "signal-1");
    assertThat(activate(leader, "message-2", 1).jobs).isEmpty();
    assertThat(activate(leader, "signal-2", 1).jobs).isEmpty();
  }

  @Test
  void anUnknownKeyIsRefusedSayingWhat() throws java.io.IOException {
    TestMember leader = leader();
    Answer unknown = delete(leader, 123_456);
    assertThat(unknown.rejection()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(unknown.reason())
        .contains("no deployed process or decision requirements graph has the key 123456");

    Answer graph =
        deploy(leader, "order-discount.dmn", DecisionsTest.resource("order-discount.dmn"));
    long graphKey = deployedGraphKey(graph);
    long decisionKey = DecisionsTest.deployedValue(graph).decisions.get(0).decisionKey();
    Answer aDecision = delete(leader, decisionKey);
    assertThat(aDecision.rejection())
        .as("a decision is deleted with its graph, not alone (as in Zeebe)")
        .isEqualTo(RejectionType.NOT_FOUND);
    assertThat(delete(leader, graphKey).rejection()).isEqualTo(RejectionType.NONE);
  }

  /** How many timers of the process's start events were created or canceled ({@code intent}). */
  private long timers(Intent intent, long processDefinitionKey) {
    return eventValues(intent).stream()
        .map(
            bytes ->
                new io.tern.engine.workflow.value.TimerValue()
                    .<io.tern.engine.workflow.value.TimerValue>readFrom(
                        new org.agrona.concurrent.UnsafeBuffer(bytes)))
        .filter(timer -> timer.processDefinitionKey == processDefinitionKey)
        .count();
  }

  private long processKeyOf(String processId, int version) {
    return eventValues(DeploymentIntent.CREATED).stream()
        .map(
            bytes ->
                new DeploymentValue()
                    .<DeploymentValue>readFrom(new org.agrona.concurrent.UnsafeBuffer(bytes)))
        .flatMap(deployment -> deployment.processes.stream())
        .filter(p -> p.bpmnProcessId().equals(processId) && p.version() == version)
        .findFirst()
        .orElseThrow()
        .processDefinitionKey();
  }

  private static long deployedGraphKey(Answer answer) {
    DeploymentValue deployment =
        new DeploymentValue().readFrom(new org.agrona.concurrent.UnsafeBuffer(answer.value()));
    return deployment.decisions.get(0).decisionRequirementsKey();
  }

  @Test
  void deletingADecisionGraphFallsBackToThePreviousVersionAndNeverGivesItsVersionAgain() {
    TestMember leader = leader();
    DeploymentValue v1 =
        DecisionsTest.deployedValue(deploy(leader, "checks.dmn", DecisionsTest.literal("2")));
    DeploymentValue v2 =
        DecisionsTest.deployedValue(deploy(leader, "checks.dmn", DecisionsTest.literal("3")));
    long graph2 = v2.decisions.get(0).decisionRequirementsKey();
    deployed(deploy(leader, "p.bpmn", xml(DecisionsTest.RULES_THEN_AFTER)));

    Answer deleted = delete(leader, graph2);
    assertThat(deleted.rejection()).as("%s", deleted.reason()).isEqualTo(RejectionType.NONE);
    assertThat(deleted.intent()).isEqualTo(ResourceDeletionIntent.DELETED);
    assertThat(delete(leader, graph2).rejection())
        .as("deleted once")
        .isEqualTo(RejectionType.NOT_FOUND);

    create(leader, "p", "{\"amount\": 5}");
    JobBatchValue after = activateWhenAvailable(leader, "after", List.of("result"));
    assertThat(new String(after.jobs.get(0).variables, StandardCharsets.UTF_8))
        .as("the business rule task took version 1 (x 2), not the deleted version 2 (x 3)")
        .contains("\"result\":10");

    DeploymentValue v3 =
        DecisionsTest.deployedValue(deploy(leader, "checks.dmn", DecisionsTest.literal("3")));
    assertThat(v3.decisions.get(0).duplicate()).isFalse();
    assertThat(v3.decisions.get(0).version()).as("versions are never given again").isEqualTo(3);
    assertThat(v3.decisions.get(0).decisionRequirementsVersion()).isEqualTo(3);

    long graph4 =
        DecisionsTest.deployedValue(deploy(leader, "checks.dmn", DecisionsTest.literal("2")))
            .decisions
            .get(0)
            .decisionRequirementsKey();
    for (long graph : List.of(v3.decisions.get(0).decisionRequirementsKey(), graph4)) {
      assertThat(delete(leader, graph).rejection()).isEqualTo(RejectionType.NONE);
    }
    assertThat(delete(leader, v1.decisions.get(0).decisionRequirementsKey()).rejection())
        .isEqualTo(RejectionType.NONE);
    create(leader, "p", "{\"amount\": 5}");
    await(
        () -> countOf(IncidentIntent.CREATED) == 1,
        "an incident: no version of the decision is left");
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
    assertThat(incident.errorType).isEqualTo(ErrorType.CALLED_DECISION_ERROR);
  }
}

package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.InMemoryLogStorage;
import io.tern.engine.processor.ProcessorConfig;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.processing.WorkflowEngine;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class WorkflowEngineTest extends WorkflowTestBase {
  @Test
  void deployingTheSameResourceAgainKeepsTheVersionAndAChangeMakesTheNext() {
    TestMember leader = leader();

    // The builder makes random ids (flows, diagram): the same bytes are deployed twice.
    byte[] resource = xml(oneTask("p", "work"));
    DeploymentValue.Process first = deployed(deploy(leader, "a.bpmn", resource));
    DeploymentValue.Process again = deployed(deploy(leader, "a.bpmn", resource));
    DeploymentValue.Process changed =
        deployed(deploy(leader, "a.bpmn", xml(oneTask("p", "other-work"))));

    assertThat(first.version()).isEqualTo(1);
    assertThat(first.duplicate()).isFalse();
    assertThat(again.version()).isEqualTo(1);
    assertThat(again.duplicate()).isTrue();
    assertThat(again.processDefinitionKey()).isEqualTo(first.processDefinitionKey());
    assertThat(changed.version()).isEqualTo(2);
    assertThat(changed.processDefinitionKey()).isNotEqualTo(first.processDefinitionKey());
  }

  @Test
  void invalidResourcesAreRejectedNamingTheElementAndTheProblem() {
    TestMember leader = leader();

    Answer garbage = deploy(leader, "broken.bpmn", "<not bpmn".getBytes(StandardCharsets.UTF_8));
    assertThat(garbage.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(garbage.reason()).contains("'broken.bpmn' is not a valid BPMN file");

    BpmnModelInstance unsupported =
        Bpmn.createExecutableProcess("p")
            .startEvent()
            .userTask("approve", t -> t.zeebeUserTask().zeebeFormId("approval"))
            .endEvent()
            .done();
    Answer userTask = deploy(leader, "user.bpmn", xml(unsupported));
    assertThat(userTask.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(userTask.reason())
        .contains("'approve' (userTask)")
        .contains("linked forms")
        .contains("Tern does not have");

    BpmnModelInstance noType =
        Bpmn.createExecutableProcess("p").startEvent().serviceTask("task").endEvent().done();
    Answer missingType = deploy(leader, "notype.bpmn", xml(noType));
    assertThat(missingType.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(missingType.reason()).contains("'task' (serviceTask)");

    Answer unknown = create(leader, "never-deployed");
    assertThat(unknown.rejection()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(unknown.reason()).contains("'never-deployed'");
  }

  @Test
  void aModelerFileRunsFromStartToEndThroughItsJobs() throws IOException {
    TestMember leader = leader();
    byte[] resource;
    try (InputStream in = getClass().getResourceAsStream("/bpmn/order-payment.bpmn")) {
      resource = in.readAllBytes();
    }
    deployed(deploy(leader, "order-payment.bpmn", resource));

    Answer created = create(leader, "order-payment");
    assertThat(created.intent()).isEqualTo(CreationIntent.CREATED);
    long instanceKey = created.key();

    JobBatchValue charge = activate(leader, "charge-card", 10);
    assertThat(charge.jobs).hasSize(1);
    JobValue job = charge.jobs.get(0);
    assertThat(job.retries).isEqualTo(5);
    assertThat(job.processInstanceKey).isEqualTo(instanceKey);
    assertThat(job.elementId).isEqualTo("charge-card");
    assertThat(job.worker).isEqualTo("test-worker");
    assertThat(new String(job.customHeaders, StandardCharsets.UTF_8))
        .isEqualTo("{\"provider\":\"acme \\\"pay\\\"\"}");
    assertThat(activate(leader, "charge-card", 10).jobs).as("activated once only").isEmpty();
    assertThat(completeJob(leader, charge.jobKeys.get(0)).intent()).isEqualTo(JobIntent.COMPLETED);
    assertThat(completeJob(leader, charge.jobKeys.get(0)).rejection())
        .as("completed twice")
        .isEqualTo(RejectionType.NOT_FOUND);

    JobBatchValue ship = activate(leader, "ship", 10);
    assertThat(ship.jobs).hasSize(1);
    completeJob(leader, ship.jobKeys.get(0));

    ProcessInstanceIntent activated = ProcessInstanceIntent.ELEMENT_ACTIVATED;
    ProcessInstanceIntent completed = ProcessInstanceIntent.ELEMENT_COMPLETED;
    await(() -> lifecycle().contains("order-payment " + completed), "the process to complete");
    assertThat(lifecycle())
        .containsSubsequence(
            "order-payment " + activated,
            "order-received " + completed,
            "flow-to-charge " + ProcessInstanceIntent.SEQUENCE_FLOW_TAKEN,
            "charge-card " + activated,
            "charge-card " + completed,
            "ship-order " + completed,
            "order-done " + completed,
            "order-payment " + completed);
    assertThat(workflowState(leader).keySet())
        .as("no element instance or job left, only the deployed process")
        .allMatch(
            key -> key.startsWith("0010") || key.startsWith("0011") || key.startsWith("0012"));
  }

  @Test
  void aFollowerReplaysToTheLeadersStateAndBatchProcessingChangesNothing() {
    TestMember follower = member("follower", ProcessorConfig.defaults());
    TestMember leader = leader();
    byte[] resource = xml(oneTask("p", "work"));
    runScript(leader, log, resource);
    await(
        () ->
            follower.processor.lastProcessedPosition() == leader.processor.lastProcessedPosition(),
        "the follower to catch up");
    Map<String, String> leaderState = workflowState(leader);
    assertThat(workflowState(follower)).isEqualTo(leaderState);

    // The same commands without batch processing reach the same workflow state.
    InMemoryLogStorage otherLog = new InMemoryLogStorage();
    TestMember single =
        new TestMember(
            otherLog,
            dir.resolve("single"),
            ProcessorConfig.defaults().withMaxCommandsInBatch(1),
            WorkflowEngine::create);
    members.add(single);
    otherLog.electLeader(single.processor);
    single.awaitPhase(ProcessorPhase.PROCESSING);
    runScript(single, otherLog, resource);
    assertThat(workflowState(single)).isEqualTo(leaderState);
  }

  /**
   * Deploys, starts 10 instances and completes 6 of their jobs, each step only once the previous
   * one's chain of follow-up commands has ended: without batch processing those run after the
   * answer, and a command sent meanwhile would take keys in a different order.
   */
  private static void runScript(TestMember member, InMemoryLogStorage log, byte[] resource) {
    deployed(deploy(member, "p.bpmn", resource));
    for (int i = 1; i <= 10; i++) {
      create(member, "p");
      int jobs = i;
      await(() -> count(log, JobIntent.CREATED) == jobs, jobs + " jobs");
    }
    int completed = 0;
    for (long key : activate(member, "work", 6).jobKeys) {
      completeJob(member, key);
      int instances = ++completed;
      await(
          () ->
              count(log, ProcessInstanceIntent.ELEMENT_COMPLETED)
                  // every start event, and per finished instance its task, end event and itself
                  == 10 + 3 * instances,
          instances + " instances completed");
    }
  }

  @Test
  void variablesFromCreationReachTheJobAndACompletionsVariablesReachTheNextJob() {
    TestMember leader = leader();
    BpmnModelInstance twoTasks =
        Bpmn.createExecutableProcess("two")
            .startEvent()
            .serviceTask("first", t -> t.zeebeJobType("first"))
            .serviceTask("second", t -> t.zeebeJobType("second"))
            .endEvent()
            .done();
    deployed(deploy(leader, "two.bpmn", xml(twoTasks)));

    Answer rejected = create(leader, "two", "[\"not\", \"an object\"]");
    assertThat(rejected.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(rejected.reason()).contains("must be a JSON object").contains("an array");

    create(leader, "two", "{\"order\": {\"id\": 7}, \"amount\": 10}");
    JobBatchValue firstBatch = activate(leader, "first", 1);
    assertThat(new String(firstBatch.jobs.get(0).variables, StandardCharsets.UTF_8))
        .isEqualTo("{\"order\":{\"id\": 7},\"amount\":10}");
    long firstJob = firstBatch.jobKeys.get(0);

    Answer bad = completeJob(leader, firstJob, "{\"amount\": ");
    assertThat(bad.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(bad.reason()).contains("not valid JSON");
    assertThat(activate(leader, "second", 1).jobs).as("the first task is still active").isEmpty();

    Answer done = completeJob(leader, firstJob, "{\"amount\": 11, \"approved\": true}");
    assertThat(done.intent()).isEqualTo(JobIntent.COMPLETED);
    JobBatchValue second = activate(leader, "second", 1, List.of("amount", "approved"));
    assertThat(second.jobs).hasSize(1);
    assertThat(new String(second.jobs.get(0).variables, StandardCharsets.UTF_8))
        .isEqualTo("{\"amount\":11,\"approved\":true}");
  }

  private TestMember withOneJob(String type) {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(oneTask("p", type))));
    create(leader, "p");
    return leader;
  }

  @Test
  void aFailedJobWithRetriesLeftIsHandedOutAgainWithItsErrorMessage() {
    TestMember leader = withOneJob("flaky");
    long job = activate(leader, "flaky", 1).jobKeys.get(0);

    Answer failed = failJob(leader, job, 2, 0, "downstream timed out");
    assertThat(failed.intent()).isEqualTo(JobIntent.FAILED);

    JobBatchValue again = activate(leader, "flaky", 1);
    assertThat(again.jobKeys).containsExactly(job);
    assertThat(again.jobs.get(0).retries).isEqualTo(2);
    assertThat(again.jobs.get(0).errorMessage).isEqualTo("downstream timed out");
    assertThat(failJob(leader, job + 1000, 1, 0, "").rejection())
        .isEqualTo(RejectionType.NOT_FOUND);
  }

  @Test
  void aJobOutOfRetriesRaisesAnIncidentThatResolvesOnceRetriesAreRaised() {
    TestMember leader = withOneJob("doomed");
    long job = activate(leader, "doomed", 1).jobKeys.get(0);

    failJob(leader, job, 0, 0, "card declined");
    long incident = firstKeyOf(IncidentIntent.CREATED);
    assertThat(incident).isPositive();
    assertThat(activate(leader, "doomed", 1).jobs).as("held by the incident").isEmpty();

    Answer early =
        leader.awaitAnswer(leader.send(IncidentIntent.RESOLVE, incident, new JobValue()));
    assertThat(early.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(early.reason()).contains("update the job's retries first");

    assertThat(updateRetries(leader, job, 3).intent()).isEqualTo(JobIntent.RETRIES_UPDATED);
    Answer resolved =
        leader.awaitAnswer(leader.send(IncidentIntent.RESOLVE, incident, new JobValue()));
    assertThat(resolved.intent()).isEqualTo(IncidentIntent.RESOLVED);

    JobBatchValue again = activate(leader, "doomed", 1);
    assertThat(again.jobKeys).containsExactly(job);
    assertThat(again.jobs.get(0).retries).isEqualTo(3);
    completeJob(leader, job);
    await(
        () -> lifecycle().contains("p " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "the instance to complete");
  }

  @Test
  void aJobPastItsDeadlineIsHandedOutAgainAndABackOffDelaysTheNextActivation() {
    TestMember leader = withOneJob("slow");
    JobBatchValue request = new JobBatchValue();
    request.type = "slow";
    request.worker = "lazy";
    request.maxJobsToActivate = 1;
    request.timeoutMs = 200;
    Answer first = leader.awaitAnswer(leader.send(JobBatchIntent.ACTIVATE, -1, request));
    long job =
        new JobBatchValue().<JobBatchValue>readFrom(new UnsafeBuffer(first.value())).jobKeys.get(0);
    assertThat(activate(leader, "slow", 1).jobs).as("activated until its deadline").isEmpty();

    await(() -> firstKeyOf(JobIntent.TIMED_OUT) == job, "the job to time out");
    assertThat(activate(leader, "slow", 1).jobKeys).containsExactly(job);

    long failedAt = System.currentTimeMillis();
    failJob(leader, job, 1, 300, "try later");
    assertThat(activate(leader, "slow", 1).jobs).as("backing off").isEmpty();
    await(() -> firstKeyOf(JobIntent.RECURRED_AFTER_BACKOFF) == job, "the back-off to end");
    assertThat(System.currentTimeMillis() - failedAt).isGreaterThanOrEqualTo(300);
    assertThat(activate(leader, "slow", 1).jobKeys).containsExactly(job);
  }

  @Test
  void aParallelGatewayForksAndTheJoinWaitsForEveryBranch() {
    TestMember follower = member("follower", ProcessorConfig.defaults());
    TestMember leader = leader();
    BpmnModelInstance forkJoin =
        Bpmn.createExecutableProcess("fork")
            .startEvent("start")
            .parallelGateway("split")
            .serviceTask("a", t -> t.zeebeJobType("a"))
            .parallelGateway("join")
            .serviceTask("after", t -> t.zeebeJobType("after"))
            .endEvent("end")
            .moveToNode("split")
            .serviceTask("b", t -> t.zeebeJobType("b"))
            .connectTo("join")
            .done();
    deployed(deploy(leader, "fork.bpmn", xml(forkJoin)));
    create(leader, "fork");

    long a = activate(leader, "a", 1).jobKeys.get(0);
    long b = activate(leader, "b", 1).jobKeys.get(0);
    completeJob(leader, a);
    assertThat(activate(leader, "after", 1).jobs).as("the join waits for b").isEmpty();
    completeJob(leader, b);
    JobBatchValue after = activate(leader, "after", 5);
    assertThat(after.jobs).as("joined once").hasSize(1);
    completeJob(leader, after.jobKeys.get(0));

    await(
        () -> lifecycle().contains("fork " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "the instance to complete");
    assertThat(
            lifecycle().stream()
                .filter(l -> l.equals("join " + ProcessInstanceIntent.ELEMENT_COMPLETED)))
        .hasSize(1);
    await(
        () ->
            follower.processor.lastProcessedPosition() == leader.processor.lastProcessedPosition(),
        "the follower to catch up");
    Map<String, String> state = workflowState(leader);
    assertThat(state.keySet())
        .as("no element instance, job or waiting token left")
        .allMatch(
            key -> key.startsWith("0010") || key.startsWith("0011") || key.startsWith("0012"));
    assertThat(workflowState(follower)).isEqualTo(state);
  }

  @Test
  void cancelingAnInstanceTerminatesItsChildrenCancelsJobsAndResolvesTheirIncidents() {
    TestMember follower = member("follower", ProcessorConfig.defaults());
    TestMember leader = leader();
    BpmnModelInstance forked =
        Bpmn.createExecutableProcess("forked")
            .startEvent()
            .parallelGateway("split")
            .serviceTask("a", t -> t.zeebeJobType("a"))
            .endEvent()
            .moveToNode("split")
            .serviceTask("b", t -> t.zeebeJobType("b"))
            .endEvent()
            .done();
    deployed(deploy(leader, "forked.bpmn", xml(forked)));
    long instance = create(leader, "forked").key();
    long a = activate(leader, "a", 1).jobKeys.get(0);
    failJob(leader, a, 0, 0, "broken");
    assertThat(firstKeyOf(IncidentIntent.CREATED)).isPositive();

    Answer canceled =
        leader.awaitAnswer(
            leader.send(ProcessInstanceIntent.CANCEL, instance, new ProcessInstanceValue()));
    assertThat(canceled.rejection()).isEqualTo(RejectionType.NONE);
    await(
        () -> lifecycle().contains("forked " + ProcessInstanceIntent.ELEMENT_TERMINATED),
        "the instance to be terminated");
    assertThat(lifecycle())
        .contains("a " + ProcessInstanceIntent.ELEMENT_TERMINATED)
        .contains("b " + ProcessInstanceIntent.ELEMENT_TERMINATED)
        .doesNotContain("forked " + ProcessInstanceIntent.ELEMENT_COMPLETED);
    assertThat(firstKeyOf(IncidentIntent.RESOLVED)).isPositive();
    assertThat(activate(leader, "b", 1).jobs).as("b's job was canceled").isEmpty();
    assertThat(completeJob(leader, a).rejection()).isEqualTo(RejectionType.NOT_FOUND);

    Answer again =
        leader.awaitAnswer(
            leader.send(ProcessInstanceIntent.CANCEL, instance, new ProcessInstanceValue()));
    assertThat(again.rejection()).isEqualTo(RejectionType.NOT_FOUND);
    await(
        () ->
            follower.processor.lastProcessedPosition() == leader.processor.lastProcessedPosition(),
        "the follower to catch up");
    Map<String, String> state = workflowState(leader);
    assertThat(state.keySet())
        .as("only the deployed process is left")
        .allMatch(
            key -> key.startsWith("0010") || key.startsWith("0011") || key.startsWith("0012"));
    assertThat(workflowState(follower)).isEqualTo(state);
  }

  @Test
  void anExclusiveGatewayTakesTheFirstFlowWhoseFeelConditionHoldsElseTheDefault() {
    TestMember leader = leader();
    BpmnModelInstance routed =
        Bpmn.createExecutableProcess("routed")
            .startEvent()
            .exclusiveGateway("check")
            .conditionExpression("= amount > 100 and customer.vip")
            .serviceTask("review", t -> t.zeebeJobType("review"))
            .endEvent()
            .moveToLastExclusiveGateway()
            .defaultFlow()
            .serviceTask("ship", t -> t.zeebeJobType("ship"))
            .endEvent()
            .done();
    deployed(deploy(leader, "routed.bpmn", xml(routed)));

    create(leader, "routed", "{\"amount\": 150, \"customer\": {\"vip\": true}}");
    create(leader, "routed", "{\"amount\": 150, \"customer\": {\"vip\": false}}");
    create(leader, "routed", "{\"amount\": 50, \"customer\": {\"vip\": true}}");

    await(() -> countOf(JobIntent.CREATED) == 3, "three jobs");
    assertThat(activate(leader, "review", 5).jobs).hasSize(1);
    assertThat(activate(leader, "ship", 5).jobs).hasSize(2);
  }

  @Test
  void anExclusiveGatewayWithOneUnconditionedFlowPassesTheTokenOnAsAJoin() {
    TestMember leader = leader();
    BpmnModelInstance joined =
        Bpmn.createExecutableProcess("p")
            .startEvent()
            .exclusiveGateway("split")
            .conditionExpression("= false")
            .exclusiveGateway("join")
            .endEvent()
            .moveToNode("split")
            .conditionExpression("= true")
            .connectTo("join")
            .done();
    deployed(deploy(leader, "joined.bpmn", xml(joined)));

    create(leader, "p", "{}");

    await(
        () -> lifecycle().contains("p " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "the instance to complete through the join");
    assertThat(countOf(IncidentIntent.CREATED)).isZero();
  }

  @Test
  void aFlowLeavingAnExclusiveGatewayWithSiblingsNeedsAConditionOrToBeTheDefault() {
    TestMember leader = leader();
    BpmnModelInstance ambiguous =
        Bpmn.createExecutableProcess("p")
            .startEvent()
            .exclusiveGateway("split")
            .sequenceFlowId("checked")
            .conditionExpression("= true")
            .endEvent()
            .moveToNode("split")
            .sequenceFlowId("unchecked")
            .endEvent()
            .done();

    Answer answer = deploy(leader, "p.bpmn", xml(ambiguous));

    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason())
        .contains("'unchecked'")
        .contains("needs a condition or must be the gateway's default flow")
        .doesNotContain("'checked'");
  }

  @Test
  void aGatewayWithNoMatchingFlowRaisesAnIncidentThatIsRetriedOnResolve() {
    TestMember leader = leader();
    BpmnModelInstance strict =
        Bpmn.createExecutableProcess("strict")
            .startEvent()
            .exclusiveGateway("check")
            .conditionExpression("= amount > 100")
            .endEvent("big")
            .moveToNode("check")
            .conditionExpression("= amount")
            .endEvent("odd")
            .done();
    deployed(deploy(leader, "strict.bpmn", xml(strict)));

    create(leader, "strict", "{\"amount\": 50}");
    await(() -> countOf(IncidentIntent.CREATED) == 1, "incident");
    long incident = firstKeyOf(IncidentIntent.CREATED);
    Answer resolved =
        leader.awaitAnswer(leader.send(IncidentIntent.RESOLVE, incident, new JobValue()));
    assertThat(resolved.intent()).isEqualTo(IncidentIntent.RESOLVED);
    // Nothing changed, so the retry fails again and raises a new incident.
    await(() -> countOf(IncidentIntent.CREATED) == 2, "a new one");
    assertThat(lifecycle()).doesNotContain("strict " + ProcessInstanceIntent.ELEMENT_COMPLETED);

    RecordBatch batch = new RecordBatch();
    List<String> messages = new ArrayList<>();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.intent() == IncidentIntent.CREATED) {
          messages.add(
              new io.tern.engine.workflow.value.IncidentValue()
                  .<io.tern.engine.workflow.value.IncidentValue>readFrom(record.value())
                  .errorMessage);
        }
      }
    }
    assertThat(messages.get(0)).contains("gateway 'check'").contains("must give true or false");

    long instance = firstKeyOf(CreationIntent.CREATED);
    Answer cancel =
        leader.awaitAnswer(
            leader.send(ProcessInstanceIntent.CANCEL, instance, new ProcessInstanceValue()));
    assertThat(cancel.rejection()).as("%s", cancel.reason()).isEqualTo(RejectionType.NONE);
    await(
        () -> countOf(IncidentIntent.RESOLVED) == 2,
        "the open incident to be resolved by the cancellation");
    assertThat(workflowState(leader).keySet())
        .as("no incident or instance left")
        .allMatch(
            key -> key.startsWith("0010") || key.startsWith("0011") || key.startsWith("0012"));
  }

  @Test
  void aConditionOutsideAnExclusiveGatewayIsRejectedAtDeployment() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent()
            .serviceTask("task", t -> t.zeebeJobType("t"))
            .sequenceFlowId("guarded")
            .conditionExpression("= true")
            .endEvent()
            .done();
    Answer answer = deploy(leader, "p.bpmn", xml(model));
    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason())
        .contains("'guarded'")
        .contains("exclusive and inclusive gateways only");
  }

  @Test
  void anAdHocSubprocessIsRejectedAsUnsupportedNamingIt() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .adHocSubProcess("adhoc", a -> a.task("inside"))
            .endEvent("end")
            .done();
    Answer answer = deploy(leader, "p.bpmn", xml(model));
    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason()).contains("'adhoc'").contains("not supported");
  }
}

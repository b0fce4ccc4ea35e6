package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.camunda.zeebe.model.bpmn.builder.AbstractFlowNodeBuilder;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CompensationIntent;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.MigrationIntent;
import io.tern.engine.protocol.ProcessEventIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.protocol.SignalSubscriptionIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.CompensationSubscriptionValue;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import io.tern.engine.workflow.value.ProcessInstanceMigrationValue;
import io.tern.engine.workflow.value.TimerValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * MigrateProcessInstance: a waiting instance moves to another version and goes on along the
 * target's flow, with its job, incident, timers, messages and signals; each of Zeebe 8.6's refusals
 * rejects the whole command and writes nothing. Each test's log is replayed by a new member
 * afterwards.
 */
class MigrateProcessInstanceTest extends WorkflowTestBase {
  private static final BpmnModelInstance V1 =
      Bpmn.createExecutableProcess("order")
          .startEvent("start")
          .serviceTask("a", t -> t.zeebeJobType("a").zeebeJobRetries("1"))
          .endEvent("end")
          .done();

  private static final BpmnModelInstance V2 =
      Bpmn.createExecutableProcess("order")
          .startEvent("start")
          .serviceTask("a2", t -> t.zeebeJobType("a"))
          .serviceTask("b", t -> t.zeebeJobType("b"))
          .endEvent("end")
          .done();

  static Answer migrate(
      TestMember member, long processInstanceKey, long target, String... sourceAndTarget) {
    ProcessInstanceMigrationValue migration = new ProcessInstanceMigrationValue();
    migration.targetProcessDefinitionKey = target;
    for (int i = 0; i < sourceAndTarget.length; i += 2) {
      migration.mappings.add(
          new ProcessInstanceMigrationValue.Mapping(sourceAndTarget[i], sourceAndTarget[i + 1]));
    }
    return member.awaitAnswer(member.send(MigrationIntent.MIGRATE, processInstanceKey, migration));
  }

  static void assertMigrated(Answer answer) {
    assertThat(answer.rejection()).as("%s", answer.reason()).isEqualTo(RejectionType.NONE);
    assertThat(answer.intent()).isEqualTo(MigrationIntent.MIGRATED);
  }

  /** An instance of the version with {@code processDefinitionKey}, not the latest. */
  private static long createOf(TestMember member, long processDefinitionKey, String variables) {
    ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
    creation.processDefinitionKey = processDefinitionKey;
    creation.variables = variables.getBytes(StandardCharsets.UTF_8);
    Answer created = member.awaitAnswer(member.send(CreationIntent.CREATE, -1, creation));
    assertThat(created.rejection()).as("%s", created.reason()).isEqualTo(RejectionType.NONE);
    return created.key();
  }

  private int count(String line) {
    return Collections.frequency(lifecycle(), line);
  }

  private long deployKey(TestMember leader, String name, BpmnModelInstance model) {
    return deployed(deploy(leader, name, xml(model))).processDefinitionKey();
  }

  @Test
  void aWaitingJobMovesToTheNextVersionAndTheInstanceFollowsItsFlow() {
    TestMember leader = leader();
    long v1 = deployKey(leader, "order.bpmn", V1);
    long v2 = deployKey(leader, "order.bpmn", V2);
    long instance = createOf(leader, v1, "{}");
    long job = awaitJob(leader, "a");

    assertMigrated(migrate(leader, instance, v2, "a", "a2"));
    assertThat(count("order " + ProcessInstanceIntent.ELEMENT_MIGRATED)).isEqualTo(1);
    assertThat(count("a2 " + ProcessInstanceIntent.ELEMENT_MIGRATED)).isEqualTo(1);
    JobValue migrated =
        new JobValue().readFrom(new UnsafeBuffer(eventValues(JobIntent.MIGRATED).get(0)));
    assertThat(migrated.elementId).isEqualTo("a2");
    assertThat(migrated.processDefinitionKey).isEqualTo(v2);
    assertThat(migrated.processDefinitionVersion).isEqualTo(2);
    assertThat(migrated.type).as("a job keeps its type").isEqualTo("a");

    assertThat(completeJob(leader, job).rejection()).isEqualTo(RejectionType.NONE);
    completeJob(leader, awaitJob(leader, "b"));
    await(() -> count("order " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "v2's end");
    assertThat(count("a " + ProcessInstanceIntent.ELEMENT_COMPLETED)).isZero();
    assertThat(count("a2 " + ProcessInstanceIntent.ELEMENT_COMPLETED)).isEqualTo(1);
  }

  @Test
  void eachRefusalNamesWhatIsWrongAndWritesNothing() {
    TestMember leader = leader();
    long v1 = deployKey(leader, "order.bpmn", V1);
    long v2 = deployKey(leader, "order.bpmn", V2);
    long userTask =
        deployKey(
            leader,
            "human.bpmn",
            Bpmn.createExecutableProcess("human").startEvent().userTask("a").endEvent().done());
    long nested =
        deployKey(
            leader,
            "nested.bpmn",
            Bpmn.createExecutableProcess("nested")
                .startEvent()
                .subProcess(
                    "sub",
                    s ->
                        s.embeddedSubProcess()
                            .startEvent()
                            .serviceTask("a", t -> t.zeebeJobType("a"))
                            .endEvent())
                .endEvent()
                .done());
    long instance = createOf(leader, v1, "{}");
    long job = awaitJob(leader, "a");

    Answer unknownInstance = migrate(leader, instance + 1000, v2, "a", "a2");
    assertThat(unknownInstance.rejection()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(unknownInstance.reason()).contains("no process instance found with key");
    Answer unknownTarget = migrate(leader, instance, v2 + 1000, "a", "a2");
    assertThat(unknownTarget.rejection()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(unknownTarget.reason()).contains("no process definition found with key");
    Answer duplicate = migrate(leader, instance, v2, "a", "a2", "a", "b");
    assertThat(duplicate.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(duplicate.reason()).contains("duplicate source element ids 'a'");
    Answer noSource = migrate(leader, instance, v2, "nope", "a2");
    assertThat(noSource.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(noSource.reason()).contains("non-existing source element id 'nope'");
    Answer noTarget = migrate(leader, instance, v2, "a", "nope");
    assertThat(noTarget.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(noTarget.reason()).contains("non-existing target element id 'nope'");
    Answer unmapped = migrate(leader, instance, v2, "end", "end");
    assertThat(unmapped.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(unmapped.reason())
        .contains("no mapping instruction defined for active element with id 'a'");
    Answer otherType = migrate(leader, instance, userTask, "a", "a");
    assertThat(otherType.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(otherType.reason())
        .contains("type 'service task' is mapped to an element with id 'a' and different type")
        .contains("'user task'");
    Answer toTheProcess = migrate(leader, instance, v2, "a", "order");
    assertThat(toTheProcess.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(toTheProcess.reason()).contains("different type 'process'");
    Answer otherScope = migrate(leader, instance, nested, "a", "a");
    assertThat(otherScope.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(otherScope.reason()).contains("the flow scope of active element with id 'a'");

    assertThat(countOf(ProcessInstanceIntent.ELEMENT_MIGRATED)).isZero();
    completeJob(leader, job);
    await(() -> count("order " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "v1's end");
    assertThat(v1).isNotEqualTo(v2);
  }

  @Test
  void anIncidentMovesWithItsJobAndIsResolvedOnTheTarget() {
    TestMember leader = leader();
    long v1 = deployKey(leader, "order.bpmn", V1);
    long v2 = deployKey(leader, "order.bpmn", V2);
    long instance = createOf(leader, v1, "{}");
    long job = awaitJob(leader, "a");
    failJob(leader, job, 0, 0, "out of paper");
    await(() -> countOf(IncidentIntent.CREATED) == 1, "the incident");
    long incidentKey = firstKeyOf(IncidentIntent.CREATED);

    assertMigrated(migrate(leader, instance, v2, "a", "a2"));
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.MIGRATED).get(0)));
    assertThat(incident.elementId).isEqualTo("a2");
    assertThat(incident.processDefinitionKey).isEqualTo(v2);
    assertThat(incident.jobKey).isEqualTo(job);

    updateRetries(leader, job, 1);
    assertThat(resolveIncident(leader, incidentKey).rejection()).isEqualTo(RejectionType.NONE);
    completeJob(leader, awaitJob(leader, "a"));
    completeJob(leader, awaitJob(leader, "b"));
    await(() -> count("order " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "v2's end");
  }

  @Test
  void aMappedTimerKeepsItsDueDateUnmappedEventsCloseAndTheTargetsNewOnesOpen() {
    TestMember leader = leader();
    long v1 =
        deployKey(
            leader,
            "guarded.bpmn",
            Bpmn.createExecutableProcess("guarded")
                .startEvent()
                .serviceTask("work", t -> t.zeebeJobType("work"))
                .boundaryEvent("late", b -> b.timerWithDuration("PT1H").endEvent("gaveUp"))
                .moveToActivity("work")
                .boundaryEvent(
                    "cancel",
                    b -> b.message(m -> m.name("cancel").zeebeCorrelationKeyExpression("id")))
                .endEvent("canceled")
                .moveToActivity("work")
                .endEvent("done")
                .done());
    BpmnModelInstance target =
        Bpmn.createExecutableProcess("guarded")
            .startEvent()
            .serviceTask("work", t -> t.zeebeJobType("work"))
            .boundaryEvent("too-late", b -> b.timerWithDuration("PT2H").endEvent("gaveUp"))
            .moveToActivity("work")
            .boundaryEvent("stop", b -> b.signal("stop"))
            .endEvent("stopped")
            .moveToActivity("work")
            .endEvent("done")
            .done();
    long v2 = deployKey(leader, "guarded.bpmn", target);
    long instance = createOf(leader, v1, "{\"id\":\"o-1\"}");
    awaitJob(leader, "work");
    long timerKey = firstKeyOf(TimerIntent.CREATED);

    Answer detached = migrate(leader, instance, v2, "work", "work", "late", "done");
    assertThat(detached.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(detached.reason()).contains("detach the catch event");
    Answer otherKind = migrate(leader, instance, v2, "work", "work", "late", "stop");
    assertThat(otherKind.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(otherKind.reason()).contains("different event types: 'timer' and 'signal'");

    assertMigrated(migrate(leader, instance, v2, "work", "work", "late", "too-late"));
    assertThat(lastKeyOf(TimerIntent.MIGRATED)).isEqualTo(timerKey);
    TimerValue timer =
        new TimerValue().readFrom(new UnsafeBuffer(eventValues(TimerIntent.MIGRATED).get(0)));
    TimerValue created =
        new TimerValue().readFrom(new UnsafeBuffer(eventValues(TimerIntent.CREATED).get(0)));
    assertThat(timer.targetElementId).isEqualTo("too-late");
    assertThat(timer.dueDateMs).as("the due date stays").isEqualTo(created.dueDateMs);
    assertThat(countOf(ProcessMessageSubscriptionIntent.DELETING))
        .as("the unmapped message boundary event closes")
        .isEqualTo(1);
    assertThat(countOf(SignalSubscriptionIntent.CREATED))
        .as("the target's new signal boundary event opens")
        .isEqualTo(1);

    SignalEventsTest.broadcast(leader, "stop", "{}");
    await(() -> count("stopped " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "the signal");
    assertThat(countOf(TimerIntent.CANCELED))
        .as("the migrated timer is canceled with its element")
        .isEqualTo(1);
  }

  @Test
  void aMessageCatchEventAndASignalCatchEventKeepTheirSubscriptions() {
    TestMember leader = leader();
    long v1 =
        deployKey(
            leader,
            "wait.bpmn",
            Bpmn.createExecutableProcess("wait")
                .startEvent()
                .intermediateCatchEvent(
                    "paid", c -> c.message(m -> m.name("paid").zeebeCorrelationKeyExpression("id")))
                .intermediateCatchEvent("go", c -> c.signal("go"))
                .endEvent()
                .done());
    long v2 =
        deployKey(
            leader,
            "wait.bpmn",
            Bpmn.createExecutableProcess("wait")
                .startEvent()
                .intermediateCatchEvent(
                    "paid-v2",
                    c -> c.message(m -> m.name("paid").zeebeCorrelationKeyExpression("id")))
                .intermediateCatchEvent("go-v2", c -> c.signal("go"))
                .serviceTask("ship", t -> t.zeebeJobType("ship"))
                .endEvent()
                .done());
    long instance = createOf(leader, v1, "{\"id\":\"o-7\"}");
    await(() -> countOf(ProcessMessageSubscriptionIntent.CREATED) == 1, "the subscription");

    Answer unmapped = migrate(leader, instance, v2, "paid", "go-v2");
    assertThat(unmapped.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(unmapped.reason()).contains("different event types: 'message' and 'signal'");
    assertMigrated(migrate(leader, instance, v2, "paid", "paid-v2", "go", "go-v2"));
    assertThat(countOf(ProcessMessageSubscriptionIntent.MIGRATED)).isEqualTo(1);

    publish(leader, "paid", "o-7", 60_000, "", "{}");
    await(() -> count("paid-v2 " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "the message");
    await(() -> countOf(SignalSubscriptionIntent.CREATED) == 1, "the signal subscription of go-v2");
    SignalEventsTest.broadcast(leader, "go", "{}");
    completeJob(leader, awaitJob(leader, "ship"));
    await(() -> count("wait " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "v2's end");
  }

  @Test
  void aParallelMultiInstanceBodyMovesWithItsInnerInstances() {
    TestMember leader = leader();
    long v1 =
        deployKey(
            leader,
            "many.bpmn",
            Bpmn.createExecutableProcess("many")
                .startEvent()
                .serviceTask(
                    "each",
                    t ->
                        t.zeebeJobType("each")
                            .multiInstance(
                                m -> m.parallel().zeebeInputCollectionExpression("[1,2,3]")))
                .endEvent()
                .done());
    long v2 =
        deployKey(
            leader,
            "many.bpmn",
            Bpmn.createExecutableProcess("many")
                .startEvent()
                .serviceTask(
                    "each-v2",
                    t ->
                        t.zeebeJobType("each")
                            .multiInstance(
                                m -> m.parallel().zeebeInputCollectionExpression("[1,2,3]")))
                .serviceTask("after", t -> t.zeebeJobType("after"))
                .endEvent()
                .done());
    long sequential =
        deployKey(
            leader,
            "one-by-one.bpmn",
            Bpmn.createExecutableProcess("one-by-one")
                .startEvent()
                .serviceTask(
                    "each",
                    t ->
                        t.zeebeJobType("each")
                            .multiInstance(
                                m -> m.sequential().zeebeInputCollectionExpression("[1,2,3]")))
                .endEvent()
                .done());
    long instance = createOf(leader, v1, "{}");
    List<Long> jobs = new ArrayList<>();
    await(
        () -> {
          jobs.addAll(activate(leader, "each", 3).jobKeys);
          return jobs.size() == 3;
        },
        "three inner jobs");

    Answer otherLoop = migrate(leader, instance, sequential, "each", "each");
    assertThat(otherLoop.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(otherLoop.reason()).contains("different loop characteristics");
    assertMigrated(migrate(leader, instance, v2, "each", "each-v2"));
    assertThat(count("each-v2 " + ProcessInstanceIntent.ELEMENT_MIGRATED))
        .as("the body and its three inner instances")
        .isEqualTo(4);

    jobs.forEach(job -> completeJob(leader, job));
    completeJob(leader, awaitJob(leader, "after"));
    await(() -> count("many " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "v2's end");
  }

  @Test
  void aTokenWaitingAtAJoinIsWorkOnItsWaySoTheMigrationIsRefused() {
    TestMember leader = leader();
    long fork =
        deployKey(
            leader,
            "fork.bpmn",
            Bpmn.createExecutableProcess("fork")
                .startEvent()
                .parallelGateway("split")
                .serviceTask("left", t -> t.zeebeJobType("left"))
                .parallelGateway("join")
                .endEvent()
                .moveToNode("split")
                .serviceTask("right", t -> t.zeebeJobType("right"))
                .connectTo("join")
                .done());
    long instance = create(leader, "fork").key();
    completeJob(leader, awaitJob(leader, "left"));
    long right = awaitJob(leader, "right");
    await(() -> count("left " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "left's end");

    Answer refused = migrate(leader, instance, fork, "right", "right");
    assertThat(refused.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(refused.reason()).contains("concurrent command").contains("retry");
    completeJob(leader, right);
    await(() -> count("fork " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "the join");
  }

  @Test
  void anInstanceHeldByAnIncidentDropsWhatItSubscribedToAndEntersTheTargetWhenResolved() {
    TestMember leader = leader();
    long v1 =
        deployKey(
            leader,
            "held.bpmn",
            Bpmn.createExecutableProcess("held")
                .startEvent()
                .serviceTask("a", t -> t.zeebeJobType("=jobType"))
                .boundaryEvent("t", b -> b.timerWithDuration("PT1H").endEvent())
                .moveToActivity("a")
                .endEvent()
                .done());
    long v2 =
        deployKey(
            leader,
            "held.bpmn",
            Bpmn.createExecutableProcess("held")
                .startEvent()
                .serviceTask("a2", t -> t.zeebeJobType("=jobType"))
                .boundaryEvent("t2", b -> b.timerWithDuration("PT2H").endEvent())
                .moveToActivity("a2")
                .endEvent()
                .done());
    long instance = createOf(leader, v1, "{}");
    await(() -> countOf(IncidentIntent.CREATED) == 1, "the job type incident");
    assertThat(countOf(TimerIntent.CREATED))
        .as("the boundary timer came before the job type failed")
        .isEqualTo(1);

    assertMigrated(migrate(leader, instance, v2, "a", "a2"));
    assertThat(countOf(TimerIntent.CANCELED))
        .as("the source's timer closes with the migration")
        .isEqualTo(1);
    setVariables(leader, instance, "{\"jobType\":\"work\"}", false);
    resolveIncident(leader, firstKeyOf(IncidentIntent.CREATED));
    long job = awaitJob(leader, "work");
    TimerValue timer =
        new TimerValue().readFrom(new UnsafeBuffer(eventValues(TimerIntent.CREATED).get(1)));
    assertThat(timer.targetElementId).as("entered again: the target's timer").isEqualTo("t2");
    assertThat(count("a2 " + ProcessInstanceIntent.ELEMENT_ACTIVATING))
        .as("entered again, not activated twice")
        .isZero();
    completeJob(leader, job);
    await(() -> count("held " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "v2's end");
  }

  @Test
  void aRunningInterruptingEventSubprocessKeepsItsScopesStartsClosed() {
    TestMember leader = leader();
    java.util.function.Function<Boolean, BpmnModelInstance> guard =
        notify -> {
          var builder =
              Bpmn.createExecutableProcess("guard")
                  .eventSubProcess(
                      "on-cancel",
                      e -> {
                        var flow =
                            e.startEvent("cancel")
                                .message(m -> m.name("cancel").zeebeCorrelationKeyExpression("id"))
                                .serviceTask("cleanup", t -> t.zeebeJobType("cleanup"));
                        if (notify) {
                          flow = flow.serviceTask("notify", t -> t.zeebeJobType("notify"));
                        }
                        flow.endEvent();
                      })
                  .startEvent()
                  .serviceTask("work", t -> t.zeebeJobType("work"))
                  .endEvent();
          return builder.done();
        };
    long v1 = deployKey(leader, "guard.bpmn", guard.apply(false));
    long v2 = deployKey(leader, "guard.bpmn", guard.apply(true));
    long instance = createOf(leader, v1, "{\"id\":\"g-1\"}");
    awaitJob(leader, "work");
    await(
        () -> countOf(ProcessMessageSubscriptionIntent.CREATED) == 1,
        "the event subprocess's subscription");
    publish(leader, "cancel", "g-1", 60_000, "", "{}");
    long cleanup = awaitJob(leader, "cleanup");

    assertMigrated(migrate(leader, instance, v2, "on-cancel", "on-cancel", "cleanup", "cleanup"));
    assertThat(countOf(ProcessMessageSubscriptionIntent.CREATING))
        .as("the interrupting event subprocess that runs is not armed again")
        .isEqualTo(1);
    completeJob(leader, cleanup);
    completeJob(leader, awaitJob(leader, "notify"));
    await(() -> count("guard " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "v2's end");
  }

  /** Task "a" with non-interrupting signal boundary events {@code first} and {@code second}. */
  private static BpmnModelInstance twoSignalBoundaries(
      String first, String firstSignal, String second, String secondSignal) {
    return Bpmn.createExecutableProcess("chain")
        .startEvent()
        .serviceTask("a", t -> t.zeebeJobType("a"))
        .boundaryEvent(
            first,
            b -> b.cancelActivity(false).signal(firstSignal).endEvent("e" + first.substring(1)))
        .moveToActivity("a")
        .boundaryEvent(
            second,
            b -> b.cancelActivity(false).signal(secondSignal).endEvent("e" + second.substring(1)))
        .moveToActivity("a")
        .endEvent()
        .done();
  }

  @Test
  void keptSignalSubscriptionsKeepTheirNamesAndMoveToTheirTargets() {
    TestMember leader = leader();
    long v1 = deployKey(leader, "chain.bpmn", twoSignalBoundaries("s1", "ping", "s2", "pong"));
    long v2 = deployKey(leader, "chain.bpmn", twoSignalBoundaries("s2", "new-2", "s3", "new-3"));
    long instance = createOf(leader, v1, "{}");
    long job = awaitJob(leader, "a");

    assertMigrated(migrate(leader, instance, v2, "a", "a", "s1", "s2", "s2", "s3"));
    // A kept subscription keeps its signal name and triggers the catch event it moved to.
    SignalEventsTest.broadcast(leader, "ping", "{}");
    await(() -> count("e2 " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "s1's move to s2");
    SignalEventsTest.broadcast(leader, "pong", "{}");
    await(() -> count("e3 " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "s2's move to s3");
    // The broadcast's answer comes once its batch, triggers included, is committed: a trigger
    // would be counted here (an element completing, a follow-up, might not be yet).
    SignalEventsTest.broadcast(leader, "new-2", "{}");
    assertThat(countOf(ProcessEventIntent.TRIGGERED))
        .as("a catch event a subscription moved to opens no subscription of its own")
        .isEqualTo(2);
    completeJob(leader, job);
    await(() -> count("chain " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "v2's end");
  }

  /** Process {@code processId} waiting at catch event {@code catchId} for "paid" keyed by "id". */
  private static BpmnModelInstance waitsForPaid(String processId, String catchId) {
    return Bpmn.createExecutableProcess(processId)
        .startEvent()
        .intermediateCatchEvent(
            catchId, c -> c.message(m -> m.name("paid").zeebeCorrelationKeyExpression("id")))
        .endEvent()
        .done();
  }

  /** The message partition's copies, as MESSAGE_SUBSCRIPTION MIGRATED wrote them. */
  private List<MessageSubscriptionValue> messagePartitionMoves() {
    List<MessageSubscriptionValue> moves = new ArrayList<>();
    for (byte[] value : eventValues(MessageSubscriptionIntent.MIGRATED)) {
      moves.add(new MessageSubscriptionValue().readFrom(new UnsafeBuffer(value)));
    }
    return moves;
  }

  private void awaitAcknowledgedMigrations(int count) {
    await(
        () -> countOf(ProcessMessageSubscriptionIntent.MIGRATION_ACKNOWLEDGED) == count,
        "the message partition to acknowledge the migration");
  }

  private void awaitSubscriptionsOpened(int count) {
    await(
        () -> countOf(ProcessMessageSubscriptionIntent.CREATED) == count,
        "the subscriptions to open");
  }

  @Test
  void aMessageSubscriptionMovesToAnotherProcessIdAndTheMessagePartitionFollows() {
    TestMember leader = leader();
    long source = deployKey(leader, "wait.bpmn", waitsForPaid("wait", "paid"));
    long target =
        deployKey(
            leader,
            "settle.bpmn",
            Bpmn.createExecutableProcess("settle")
                .startEvent()
                .intermediateCatchEvent(
                    "paid-b",
                    c -> c.message(m -> m.name("paid").zeebeCorrelationKeyExpression("id")))
                .serviceTask("ship", t -> t.zeebeJobType("ship"))
                .endEvent()
                .done());
    long instance = createOf(leader, source, "{\"id\":\"o-9\"}");
    awaitSubscriptionsOpened(1);

    assertMigrated(migrate(leader, instance, target, "paid", "paid-b"));
    awaitAcknowledgedMigrations(1);
    MessageSubscriptionValue copy = messagePartitionMoves().get(0);
    assertThat(copy.bpmnProcessId).isEqualTo("settle");
    assertThat(copy.elementId).isEqualTo("paid-b");
    assertThat(copy.processDefinitionKey).isEqualTo(target);
    assertThat(copy.elementInstanceKey)
        .isEqualTo(elementKey("paid-b", ProcessInstanceIntent.ELEMENT_MIGRATED));

    publish(leader, "paid", "o-9", 0, "", "{}");
    completeJob(leader, awaitJob(leader, "ship"));
    await(() -> count("settle " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "settle's end");
    assertThat(count("wait " + ProcessInstanceIntent.ELEMENT_COMPLETED)).isZero();
  }

  @Test
  void afterMovingToAnotherProcessIdAMessageGoesToOneInstanceOfEachProcessAsBefore() {
    TestMember leader = leader();
    long waitKey = deployKey(leader, "wait.bpmn", waitsForPaid("wait", "paid"));
    long settleKey = deployKey(leader, "settle.bpmn", waitsForPaid("settle", "paid-b"));
    createOf(leader, waitKey, "{\"id\":\"o-5\"}");
    long moved = createOf(leader, waitKey, "{\"id\":\"o-5\"}");
    createOf(leader, settleKey, "{\"id\":\"o-5\"}");
    awaitSubscriptionsOpened(3);
    assertMigrated(migrate(leader, moved, settleKey, "paid", "paid-b"));
    awaitAcknowledgedMigrations(1);

    // Offered in the publishing batch: to the instance of "wait", and to one of the two of
    // "settle".
    publish(leader, "paid", "o-5", 60_000, "", "{}");
    assertThat(countOf(MessageSubscriptionIntent.CORRELATING)).isEqualTo(2);
    await(() -> count("wait " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "wait's end");
    await(() -> count("settle " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "one settle");
    await(
        () -> countOf(MessageSubscriptionIntent.CORRELATED) == 2, "both correlations acknowledged");
    assertThat(countOf(MessageSubscriptionIntent.CORRELATING))
        .as("the other instance of settle does not get the same message")
        .isEqualTo(2);

    publish(leader, "paid", "o-5", 60_000, "", "{}");
    await(() -> count("settle " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 2, "both settle");
    assertThat(count("wait " + ProcessInstanceIntent.ELEMENT_COMPLETED)).isEqualTo(1);
  }

  /** Task "work" with message boundary event {@code boundaryId} for "ping" keyed by "id". */
  static BpmnModelInstance pinged(String processId, String boundaryId, boolean interrupting) {
    return Bpmn.createExecutableProcess(processId)
        .startEvent()
        .serviceTask("work", t -> t.zeebeJobType("work"))
        .boundaryEvent(
            boundaryId,
            b ->
                b.cancelActivity(interrupting)
                    .message(m -> m.name("ping").zeebeCorrelationKeyExpression("id"))
                    .endEvent("after-" + boundaryId))
        .moveToActivity("work")
        .endEvent()
        .done();
  }

  private long correlations(Intent intent) {
    return countOf(intent);
  }

  @Test
  void underAnotherProcessIdANonInterruptingEventIsNotOfferedTheMessagesItHadAgain() {
    TestMember leader = leader();
    long watch = deployKey(leader, "watch.bpmn", pinged("watch", "ping", false));
    long observe = deployKey(leader, "observe.bpmn", pinged("observe", "ping-b", false));
    long instance = createOf(leader, watch, "{\"id\":\"w-1\"}");
    long job = awaitJob(leader, "work");
    awaitSubscriptionsOpened(1);
    publish(leader, "ping", "w-1", 60_000, "", "{}");
    await(() -> correlations(MessageSubscriptionIntent.CORRELATED) == 1, "the first message");
    await(() -> count("after-ping " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "its path");

    assertMigrated(migrate(leader, instance, observe, "work", "work", "ping", "ping-b"));
    awaitAcknowledgedMigrations(1);
    publish(leader, "ping", "w-1", 60_000, "", "{}");
    await(() -> correlations(MessageSubscriptionIntent.CORRELATED) == 2, "the second message");
    // After a correlation the next message not had is offered in the same batch: not the first.
    assertThat(correlations(MessageSubscriptionIntent.CORRELATING)).isEqualTo(2);
    await(() -> count("after-ping-b " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "ping-b");

    completeJob(leader, job);
    await(() -> count("observe " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "the end");
  }

  @Test
  void aNonInterruptingBoundaryEventMovedToAnInterruptingOneEndsAtTheFirstMessage() {
    TestMember leader = leader();
    long v1 = deployKey(leader, "guard.bpmn", pinged("guard", "ping", false));
    long v2 = deployKey(leader, "guard.bpmn", pinged("guard", "ping2", true));
    long instance = createOf(leader, v1, "{\"id\":\"g-1\"}");
    awaitJob(leader, "work");
    awaitSubscriptionsOpened(1);

    assertMigrated(migrate(leader, instance, v2, "work", "work", "ping", "ping2"));
    awaitAcknowledgedMigrations(1);
    assertThat(messagePartitionMoves().get(0).interrupting).isTrue();
    publish(leader, "ping", "g-1", 60_000, "", "{}");
    await(() -> count("guard " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "the interruption");
    assertThat(count("work " + ProcessInstanceIntent.ELEMENT_TERMINATED)).isEqualTo(1);
    await(() -> correlations(MessageSubscriptionIntent.CORRELATED) == 1, "the message taken");

    // Offered in the publishing batch if a subscription were left.
    publish(leader, "ping", "g-1", 60_000, "", "{}");
    assertThat(correlations(MessageSubscriptionIntent.CORRELATING)).isEqualTo(1);
    assertThat(count("after-ping2 " + ProcessInstanceIntent.ELEMENT_COMPLETED)).isEqualTo(1);
  }

  @Test
  void anInterruptingBoundaryEventMovedToANonInterruptingOneStaysOpenForTheNextMessage() {
    TestMember leader = leader();
    long v1 = deployKey(leader, "guard.bpmn", pinged("guard", "ping", true));
    long v2 = deployKey(leader, "guard.bpmn", pinged("guard", "ping2", false));
    long instance = createOf(leader, v1, "{\"id\":\"g-2\"}");
    long job = awaitJob(leader, "work");
    awaitSubscriptionsOpened(1);

    assertMigrated(migrate(leader, instance, v2, "work", "work", "ping", "ping2"));
    awaitAcknowledgedMigrations(1);
    assertThat(messagePartitionMoves().get(0).interrupting).isFalse();
    publish(leader, "ping", "g-2", 60_000, "", "{}");
    await(() -> count("after-ping2 " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "first");
    publish(leader, "ping", "g-2", 60_000, "", "{}");
    await(() -> count("after-ping2 " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 2, "second");
    assertThat(count("work " + ProcessInstanceIntent.ELEMENT_TERMINATED)).isZero();

    completeJob(leader, job);
    await(() -> count("guard " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "the end");
  }

  /** After {@code before}: task "pay", then throw event "undo" compensating everything, an end. */
  private static BpmnModelInstance payThenUndo(AbstractFlowNodeBuilder<?, ?> before) {
    return before
        .serviceTask("pay", t -> t.zeebeJobType("pay"))
        .intermediateThrowEvent("undo")
        .compensateEventDefinition()
        .compensateEventDefinitionDone()
        .endEvent("end")
        .done();
  }

  private static CompensationSubscriptionValue subscription(byte[] value) {
    return new CompensationSubscriptionValue().readFrom(new UnsafeBuffer(value));
  }

  @Test
  void recordedCompensationFollowsItsActivitysMappingAndTheTargetsHandlerRuns() {
    TestMember leader = leader();
    long v1 =
        deployKey(
            leader,
            "saga.bpmn",
            payThenUndo(
                CompensationEventsTest.compensable(
                    Bpmn.createExecutableProcess("saga").startEvent(), "book", "undo-v1")));
    long v2 =
        deployKey(
            leader,
            "saga.bpmn",
            payThenUndo(
                CompensationEventsTest.compensable(
                    Bpmn.createExecutableProcess("saga").startEvent(), "book2", "undo-v2")));
    long instance = createOf(leader, v1, "{}");
    completeJob(leader, awaitJob(leader, "book"));
    long pay = awaitJob(leader, "pay");

    Answer unmapped = migrate(leader, instance, v2, "pay", "pay");
    assertThat(unmapped.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(unmapped.reason())
        .contains("completed activity 'book' can be compensated and no mapping instruction")
        .contains("Add a mapping instruction from 'book'");
    Answer noHandler = migrate(leader, instance, v2, "pay", "pay", "book", "pay");
    assertThat(noHandler.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(noHandler.reason())
        .contains("completed activity 'book' can be compensated and is mapped to 'pay'")
        .contains("has no compensation boundary event with a handler");
    assertThat(countOf(ProcessInstanceIntent.ELEMENT_MIGRATED))
        .as("a refusal writes nothing")
        .isZero();

    assertMigrated(migrate(leader, instance, v2, "pay", "pay", "book", "book2"));
    List<byte[]> migrated = eventValues(CompensationIntent.MIGRATED);
    assertThat(migrated).hasSize(1);
    CompensationSubscriptionValue moved = subscription(migrated.get(0));
    assertThat(moved.processDefinitionKey).isEqualTo(v2);
    assertThat(moved.activityId).isEqualTo("book2");
    assertThat(moved.handlerId).isEqualTo("undo-book2");
    assertThat(lastKeyOf(CompensationIntent.MIGRATED))
        .as("it keeps its key")
        .isEqualTo(firstKeyOf(CompensationIntent.CREATED));

    completeJob(leader, pay);
    long undo = awaitJob(leader, "undo-v2");
    assertThat(activate(leader, "undo-v1", 1).jobKeys).as("the source's handler").isEmpty();
    assertThat(count("comp-book2 " + ProcessInstanceIntent.ELEMENT_COMPLETED))
        .as("the target's compensation boundary event passes")
        .isEqualTo(1);
    Answer underWay = migrate(leader, instance, v2, "book2", "book2");
    assertThat(underWay.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(underWay.reason())
        .contains("compensation of completed activity 'book2'")
        .contains("retry");
    completeJob(leader, undo);
    await(() -> count("saga " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "v2's end");
    assertThat(countOf(CompensationIntent.COMPLETED)).isEqualTo(1);
  }

  @Test
  void aCompletedSubprocessAndWhatCompletedInItFollowTheirMappingsInTheirScope() {
    TestMember leader = leader();
    long v1 =
        deployKey(
            leader,
            "trip.bpmn",
            payThenUndo(
                Bpmn.createExecutableProcess("trip")
                    .startEvent()
                    .subProcess(
                        "sub",
                        s ->
                            CompensationEventsTest.compensable(
                                    s.embeddedSubProcess().startEvent(), "reserve", "undo-v1")
                                .endEvent())));
    long v2 =
        deployKey(
            leader,
            "trip.bpmn",
            payThenUndo(
                CompensationEventsTest.compensable(
                        Bpmn.createExecutableProcess("trip").startEvent(), "top", "undo-top")
                    .subProcess(
                        "sub2",
                        s ->
                            CompensationEventsTest.compensable(
                                    s.embeddedSubProcess().startEvent(), "reserve2", "undo-v2")
                                .endEvent())));
    long instance = createOf(leader, v1, "{}");
    completeJob(leader, awaitJob(leader, "reserve"));
    long pay = awaitJob(leader, "pay");

    Answer noSubprocess = migrate(leader, instance, v2, "pay", "pay", "reserve", "reserve2");
    assertThat(noSubprocess.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(noSubprocess.reason())
        .as("the subprocess was recorded: what completed in it is found through it")
        .contains("completed activity 'sub' can be compensated and no mapping instruction");
    Answer otherScope =
        migrate(leader, instance, v2, "pay", "pay", "sub", "sub2", "reserve", "top");
    assertThat(otherScope.rejection()).isEqualTo(RejectionType.INVALID_STATE);
    assertThat(otherScope.reason())
        .contains("the flow scope of completed activity 'reserve' is changed")
        .contains("mapped to 'sub2'");

    assertMigrated(
        migrate(leader, instance, v2, "pay", "pay", "sub", "sub2", "reserve", "reserve2"));
    assertThat(eventValues(CompensationIntent.MIGRATED))
        .extracting(value -> subscription(value).activityId + ":" + subscription(value).handlerId)
        .containsExactly("reserve2:undo-reserve2", "sub2:");
    completeJob(leader, pay);
    completeJob(leader, awaitJob(leader, "undo-v2"));
    await(() -> count("trip " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1, "v2's end");
    assertThat(countOf(CompensationIntent.COMPLETED))
        .as("the handler's, then the subprocess's")
        .isEqualTo(2);
  }
}

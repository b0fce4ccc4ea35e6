package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.SignalIntent;
import io.tern.engine.protocol.SignalSubscriptionIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.SignalValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Signal events on one partition: start, intermediate catch, boundary (interrupting or not), event
 * subprocess start, after an event-based gateway, and thrown by intermediate throw and end events;
 * deployments that cannot run are refused naming the element. Each test's log is replayed by a new
 * member afterwards. Signals across partitions are {@link CrossPartitionTest}'s.
 */
class SignalEventsTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;
  private static final ProcessInstanceIntent TERMINATED = ProcessInstanceIntent.ELEMENT_TERMINATED;

  static Answer broadcast(TestMember member, String name, String json) {
    SignalValue signal = new SignalValue();
    signal.signalName = name;
    signal.variables = json.getBytes(StandardCharsets.UTF_8);
    return member.awaitAnswer(member.send(SignalIntent.BROADCAST, -1, signal));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> variablesOf(JobBatchValue batch) {
    return (Map<String, Object>) JsonDocuments.toJava(batch.jobs.get(0).variables);
  }

  private long occurrences(String line) {
    return Collections.frequency(lifecycle(), line);
  }

  private void awaitSubscriptions(long count) {
    await(
        () -> countOf(SignalSubscriptionIntent.CREATED) >= count, count + " signal subscriptions");
  }

  @Test
  void aSignalStartEventStartsTheLatestVersionWithTheSignalsVariables() {
    TestMember leader = leader();
    BpmnModelInstance v1 =
        Bpmn.createExecutableProcess("on-signal")
            .startEvent("go")
            .signal("go")
            .serviceTask("work", t -> t.zeebeJobType("v1"))
            .done();
    deployed(deploy(leader, "on-signal.bpmn", xml(v1)));
    Answer answer = broadcast(leader, "go", "{\"x\": 1}");
    assertThat(answer.intent()).isEqualTo(SignalIntent.BROADCASTED);
    assertThat(answer.key()).isPositive();
    assertThat(variablesOf(activateWhenAvailable(leader, "v1", List.of()))).containsEntry("x", 1L);

    BpmnModelInstance v2 =
        Bpmn.createExecutableProcess("on-signal")
            .startEvent("go-2")
            .signal("go")
            .serviceTask("work", t -> t.zeebeJobType("v2"))
            .done();
    deployed(deploy(leader, "on-signal.bpmn", xml(v2)));
    broadcast(leader, "go", "{}");
    activateWhenAvailable(leader, "v2", List.of());
    assertThat(activate(leader, "v1", 10).jobs).isEmpty(); // the old version no longer starts
    assertThat(lifecycle()).contains("go-2 " + COMPLETED);

    broadcast(leader, "nobody-waits", "{}");
    assertThat(occurrences("on-signal " + ProcessInstanceIntent.ELEMENT_ACTIVATED)).isEqualTo(2);
  }

  @Test
  void aCatchEventWaitsForItsSignalNamedStaticallyOrByFeel() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("wait")
            .startEvent("start")
            .intermediateCatchEvent("ready")
            .signal("= \"ready-\" + id")
            .serviceTask("after", t -> t.zeebeJobType("after"))
            .done();
    deployed(deploy(leader, "wait.bpmn", xml(model)));
    create(leader, "wait", "{\"id\": \"a\"}");
    create(leader, "wait", "{\"id\": \"b\"}");
    awaitSubscriptions(2);

    broadcast(leader, "ready-b", "{\"from\": \"signal\"}");
    JobBatchValue after = activateWhenAvailable(leader, "after", List.of());
    assertThat(variablesOf(after)).containsEntry("id", "b").containsEntry("from", "signal");
    assertThat(occurrences("ready " + COMPLETED)).isEqualTo(1);

    broadcast(leader, "ready-b", "{}"); // its subscription is gone: nothing happens
    broadcast(leader, "ready-a", "{}");
    await(() -> occurrences("ready " + COMPLETED) == 2, "the other instance to go on");
    await(() -> countOf(SignalSubscriptionIntent.DELETED) == 2, "both subscriptions closed");
  }

  @Test
  void boundaryEventsInterruptOrNotAndEventSubprocessesStart() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("guarded")
            .eventSubProcess(
                "on-audit",
                sub ->
                    sub.startEvent("audit")
                        .signal("audit")
                        .interrupting(false)
                        .serviceTask("record", t -> t.zeebeJobType("record"))
                        .endEvent("audited"))
            .startEvent("start")
            .serviceTask("work", t -> t.zeebeJobType("work"))
            .boundaryEvent("note", b -> b.signal("note").cancelActivity(false))
            .serviceTask("noted", t -> t.zeebeJobType("noted"))
            .moveToActivity("work")
            .boundaryEvent("stop", b -> b.signal("stop"))
            .serviceTask("stopped", t -> t.zeebeJobType("stopped"))
            .moveToActivity("work")
            .endEvent("end")
            .done();
    deployed(deploy(leader, "guarded.bpmn", xml(model)));
    create(leader, "guarded", "{}");
    awaitSubscriptions(3);

    broadcast(leader, "note", "{}");
    broadcast(leader, "note", "{}");
    await(() -> occurrences("note " + COMPLETED) == 2, "the non-interrupting event, twice");
    broadcast(leader, "audit", "{}");
    activateWhenAvailable(leader, "record", List.of());
    assertThat(lifecycle()).doesNotContain("work " + TERMINATED);

    broadcast(leader, "stop", "{}");
    activateWhenAvailable(leader, "stopped", List.of());
    assertThat(lifecycle()).contains("work " + TERMINATED);
    assertThat(activate(leader, "work", 1).jobs).isEmpty();
  }

  @Test
  void anEventBasedGatewayTakesTheSignalThatCameFirst() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("race")
            .startEvent("start")
            .eventBasedGateway("which")
            .intermediateCatchEvent("signalled")
            .signal("now")
            .serviceTask("by-signal", t -> t.zeebeJobType("by-signal"))
            .moveToNode("which")
            .intermediateCatchEvent("late")
            .timerWithDuration("PT1H")
            .serviceTask("by-timer", t -> t.zeebeJobType("by-timer"))
            .done();
    deployed(deploy(leader, "race.bpmn", xml(model)));
    create(leader, "race", "{}");
    awaitSubscriptions(1);

    broadcast(leader, "now", "{\"why\": \"signal\"}");
    assertThat(variablesOf(activateWhenAvailable(leader, "by-signal", List.of())))
        .containsEntry("why", "signal");
    assertThat(countOf(TimerIntent.CANCELED)).isEqualTo(1);
  }

  @Test
  void throwAndEndEventsBroadcastWithTheirInputMappings() {
    TestMember leader = leader();
    BpmnModelInstance listener =
        Bpmn.createExecutableProcess("listener")
            .startEvent("start")
            .intermediateCatchEvent("first")
            .signal("first")
            .intermediateCatchEvent("second")
            .signal("second")
            .serviceTask("heard", t -> t.zeebeJobType("heard"))
            .done();
    BpmnModelInstance sender =
        Bpmn.createExecutableProcess("sender")
            .startEvent("start")
            .intermediateThrowEvent(
                "tell", e -> e.signal("first").zeebeInputExpression("order.id", "orderId"))
            .endEvent("done", e -> e.signal("= \"sec\" + \"ond\"").zeebeInput("yes", "last"))
            .done();
    deployed(deploy(leader, "listener.bpmn", xml(listener)));
    deployed(deploy(leader, "sender.bpmn", xml(sender)));
    create(leader, "listener", "{}");
    awaitSubscriptions(1);

    create(leader, "sender", "{\"order\": {\"id\": 7}, \"secret\": 1}");
    Map<String, Object> heard = variablesOf(activateWhenAvailable(leader, "heard", List.of()));
    assertThat(heard).containsEntry("orderId", 7L).containsEntry("last", "yes");
    assertThat(heard).doesNotContainKey("secret"); // only the throw events' own variables go
    await(() -> lifecycle().contains("sender " + COMPLETED), "the sender to complete");
  }

  @Test
  void aBroadcastWithoutANameOrWithBadVariablesIsRefused() {
    TestMember leader = leader();
    Answer unnamed = broadcast(leader, " ", "{}");
    assertThat(unnamed.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(unnamed.reason()).contains("a signal needs a name");

    Answer bad = broadcast(leader, "go", "[1, 2]");
    assertThat(bad.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(bad.reason()).contains("signal 'go'");
  }

  @Test
  void signalDefinitionsThatCannotRunAreRefusedNamingTheElement() {
    TestMember leader = leader();
    Answer twoStarts =
        deploy(
            leader,
            "two.bpmn",
            xml(
                Bpmn.createExecutableProcess("two")
                    .startEvent("a")
                    .signal("go")
                    .endEvent("a-end")
                    .moveToProcess("two")
                    .startEvent("b")
                    .signal("go")
                    .endEvent("b-end")
                    .done()));
    assertThat(twoStarts.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(twoStarts.reason()).contains("signal 'go'");

    Answer inSubprocess =
        deploy(
            leader,
            "nested.bpmn",
            xml(
                Bpmn.createExecutableProcess("nested")
                    .startEvent("start")
                    .subProcess(
                        "inner", s -> s.embeddedSubProcess().startEvent("inner-start").signal("go"))
                    .endEvent("end")
                    .done()));
    assertThat(inSubprocess.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(inSubprocess.reason()).contains("'inner-start'");

    Answer badFeel =
        deploy(
            leader,
            "feel.bpmn",
            xml(
                Bpmn.createExecutableProcess("feel")
                    .startEvent("start")
                    .intermediateCatchEvent("wait")
                    .signal("= (")
                    .endEvent("end")
                    .done()));
    assertThat(badFeel.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(badFeel.reason()).contains("'wait'");
  }
}

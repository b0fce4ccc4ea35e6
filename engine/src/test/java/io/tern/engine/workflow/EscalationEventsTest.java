package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.sbe.RejectionType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Escalations: thrown by intermediate throw and end events, caught on the way up by event
 * subprocesses and the boundary events of subprocesses and call activities (interrupting or not, by
 * code or catching all); an uncaught one lets the thrower go on. Each test's log is replayed by a
 * new member afterwards.
 */
class EscalationEventsTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;
  private static final ProcessInstanceIntent TERMINATED = ProcessInstanceIntent.ELEMENT_TERMINATED;

  @Test
  void aNonInterruptingBoundaryEventCatchesAndTheSubprocessGoesOn() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("late")
            .startEvent("start")
            .subProcess(
                "sub",
                s ->
                    s.embeddedSubProcess()
                        .startEvent("sub-start")
                        .serviceTask("work", t -> t.zeebeJobType("work"))
                        .endEvent("raise", e -> e.escalation("late")))
            .boundaryEvent("noted", b -> b.escalation("late").cancelActivity(false))
            .serviceTask("notify", t -> t.zeebeJobType("notify"))
            .moveToActivity("sub")
            .serviceTask("after", t -> t.zeebeJobType("after"))
            .done();
    deployed(deploy(leader, "late.bpmn", xml(model)));
    create(leader, "late", "{}");

    completeJob(leader, awaitJob(leader, "work"));
    awaitJob(leader, "notify");
    awaitJob(leader, "after");
    assertThat(lifecycle()).contains("raise " + COMPLETED, "sub " + COMPLETED);
  }

  @Test
  void anInterruptingBoundaryEventTerminatesTheSubprocessAndTheThrower() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("stop")
            .startEvent("start")
            .subProcess(
                "sub",
                s ->
                    s.embeddedSubProcess()
                        .startEvent("sub-start")
                        .intermediateThrowEvent(
                            "raise", t -> t.escalationExpression("\"stop-\" + kind"))
                        .serviceTask("never", t -> t.zeebeJobType("never")))
            .boundaryEvent("stopped", b -> b.escalation("stop-now"))
            .serviceTask("handle", t -> t.zeebeJobType("handle"))
            .moveToActivity("sub")
            .endEvent("end")
            .done();
    deployed(deploy(leader, "stop.bpmn", xml(model)));
    create(leader, "stop", "{\"kind\": \"now\"}");

    awaitJob(leader, "handle");
    assertThat(lifecycle())
        .contains("raise " + TERMINATED, "sub " + TERMINATED)
        .doesNotContain("raise " + COMPLETED, "never " + ProcessInstanceIntent.ELEMENT_ACTIVATING);
  }

  @Test
  void anEventSubprocessUpTheScopesCatchesByCodeOrCatchesAll() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("outer")
            .eventSubProcess(
                "on-any",
                e ->
                    e.startEvent("any")
                        .escalation()
                        .interrupting(false)
                        .serviceTask("log", t -> t.zeebeJobType("log"))
                        .endEvent("logged"))
            .startEvent("start")
            .subProcess(
                "sub",
                s ->
                    s.embeddedSubProcess()
                        .startEvent("sub-start")
                        .intermediateThrowEvent("raise", t -> t.escalation("whatever"))
                        .serviceTask("go-on", t -> t.zeebeJobType("go-on")))
            .endEvent("end")
            .done();
    deployed(deploy(leader, "outer.bpmn", xml(model)));
    create(leader, "outer", "{}");

    awaitJob(leader, "log");
    awaitJob(leader, "go-on"); // a non-interrupting catcher lets the thrower go on
    assertThat(lifecycle()).contains("raise " + COMPLETED);
  }

  @Test
  void anUncaughtEscalationLetsTheThrowerGoOn() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("nobody")
            .startEvent("start")
            .intermediateThrowEvent("raise", t -> t.escalation("unheard"))
            .serviceTask("next", t -> t.zeebeJobType("next"))
            .endEvent("end", e -> e.escalation("unheard"))
            .done();
    deployed(deploy(leader, "nobody.bpmn", xml(model)));
    create(leader, "nobody", "{}");

    completeJob(leader, awaitJob(leader, "next"));
    await(() -> lifecycle().contains("nobody " + COMPLETED), "the instance to complete");
    assertThat(countOf(IncidentIntent.CREATED)).isZero();
  }

  @Test
  void aCalledProcessEscalatesToItsCallActivity() {
    TestMember leader = leader();
    deployed(
        deploy(
            leader,
            "child.bpmn",
            xml(
                Bpmn.createExecutableProcess("child")
                    .startEvent("child-start")
                    .endEvent("child-raise", e -> e.escalation("child-late"))
                    .done())));
    deployed(
        deploy(
            leader,
            "parent.bpmn",
            xml(
                Bpmn.createExecutableProcess("parent")
                    .startEvent("start")
                    .callActivity("call", c -> c.zeebeProcessId("child"))
                    .boundaryEvent("caught", b -> b.escalation("child-late"))
                    .serviceTask("handle", t -> t.zeebeJobType("handle"))
                    .moveToActivity("call")
                    .serviceTask("after", t -> t.zeebeJobType("after"))
                    .done())));
    create(leader, "parent", "{}");

    awaitJob(leader, "handle");
    assertThat(lifecycle()).contains("call " + TERMINATED, "child " + TERMINATED);
    assertThat(activate(leader, "after", 1).jobs).isEmpty();
  }

  @Test
  void escalationDefinitionsThatCannotRunAreRefusedNamingTheElement() {
    TestMember leader = leader();
    Answer onTask =
        deploy(
            leader,
            "task.bpmn",
            xml(
                Bpmn.createExecutableProcess("task")
                    .startEvent("start")
                    .serviceTask("work", t -> t.zeebeJobType("work"))
                    .boundaryEvent("on-task", b -> b.escalation("x"))
                    .endEvent("x-end")
                    .moveToActivity("work")
                    .endEvent("end")
                    .done()));
    assertThat(onTask.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(onTask.reason()).contains("'on-task'").contains("subprocess or a call activity");

    Answer startOutside =
        deploy(
            leader,
            "start.bpmn",
            xml(
                Bpmn.createExecutableProcess("start")
                    .startEvent("escalated")
                    .escalation("x")
                    .endEvent("end")
                    .done()));
    assertThat(startOutside.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(startOutside.reason())
        .contains("'escalated'")
        .contains("escalation start events are supported in event subprocesses only");

    for (String bad : List.of("no-code", "feel-catch")) {
      BpmnModelInstance model =
          bad.equals("no-code")
              ? Bpmn.createExecutableProcess(bad)
                  .startEvent("start")
                  .intermediateThrowEvent("raise", t -> t.escalation(""))
                  .endEvent("end")
                  .done()
              : Bpmn.createExecutableProcess(bad)
                  .startEvent("start")
                  .subProcess("sub", s -> s.embeddedSubProcess().startEvent("s").endEvent("e"))
                  .boundaryEvent("raise", b -> b.escalation("= code"))
                  .endEvent("caught")
                  .moveToActivity("sub")
                  .endEvent("end")
                  .done();
      Answer refused = deploy(leader, bad + ".bpmn", xml(model));
      assertThat(refused.rejection()).as(bad).isEqualTo(RejectionType.INVALID_ARGUMENT);
      assertThat(refused.reason()).as(bad).contains("'raise'").contains("escalation code");
    }
  }
}

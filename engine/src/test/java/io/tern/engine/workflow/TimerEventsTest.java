package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.TimerValue;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Timer catch events and timer boundary events (interrupting, non-interrupting, cycles). */
class TimerEventsTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent ACTIVATED = ProcessInstanceIntent.ELEMENT_ACTIVATED;
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;
  private static final ProcessInstanceIntent TERMINATED = ProcessInstanceIntent.ELEMENT_TERMINATED;

  private static BpmnModelInstance waitThenWork(String duration) {
    return Bpmn.createExecutableProcess("p")
        .startEvent("start")
        .intermediateCatchEvent("wait", e -> e.timerWithDuration(duration))
        .serviceTask("after", t -> t.zeebeJobType("after"))
        .endEvent("end")
        .done();
  }

  private TimerValue timer(Intent intent, int index) {
    return new TimerValue().readFrom(new UnsafeBuffer(eventValues(intent).get(index)));
  }

  @Test
  void aTimerCatchEventWaitsForItsDurationThenGoesOn() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(waitThenWork("PT0.3S"))));
    long before = System.currentTimeMillis();
    create(leader, "p");

    await(() -> countOf(TimerIntent.CREATED) == 1, "the timer");
    TimerValue created = timer(TimerIntent.CREATED, 0);
    assertThat(created.targetElementId).isEqualTo("wait");
    assertThat(created.dueDateMs).isBetween(before + 300, System.currentTimeMillis() + 300);
    assertThat(activate(leader, "after", 1).jobs).as("still waiting").isEmpty();

    awaitJob(leader, "after");
    assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(created.dueDateMs);
    assertThat(countOf(TimerIntent.TRIGGERED)).isEqualTo(1);
    assertThat(lifecycle()).containsSubsequence("wait " + ACTIVATED, "wait " + COMPLETED);
  }

  @Test
  void aTimerFromAFeelExpressionReadsTheInstancesVariables() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(waitThenWork("=pause"))));
    create(leader, "p", "{\"pause\": \"PT0.1S\"}");
    awaitJob(leader, "after");
    TimerValue created = timer(TimerIntent.CREATED, 0);
    assertThat(created.intervalMs).isEqualTo(-1);
  }

  @Test
  void aTimerThatCannotBeEvaluatedRaisesAnIncidentAndIsScheduledOnceResolved() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(waitThenWork("=duration(pause)"))));
    create(leader, "p", "{\"pause\": \"not a duration\"}");

    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
    assertThat(incident.errorType).isEqualTo(ErrorType.EXTRACT_VALUE_ERROR);
    assertThat(incident.elementId).isEqualTo("wait");
    assertThat(incident.errorMessage).contains("'wait'").contains("=duration(pause)");
    assertThat(lifecycle()).contains("wait " + ProcessInstanceIntent.ELEMENT_ACTIVATING);
    assertThat(lifecycle()).doesNotContain("wait " + ACTIVATED);
    assertThat(countOf(TimerIntent.CREATED)).isZero();

    // Nothing changed: resolving tries again and fails again, with a new incident.
    resolveIncident(leader, firstKeyOf(IncidentIntent.CREATED));
    await(() -> countOf(IncidentIntent.CREATED) == 2, "a second incident");
    assertThat(
            lifecycle().stream()
                .filter(l -> l.equals("wait " + ProcessInstanceIntent.ELEMENT_ACTIVATING)))
        .as("activating is written once; the retry continues it")
        .hasSize(1);

    // Fixed: the variable is set, and resolving schedules the timer.
    long instance = firstKeyOf(CreationIntent.CREATED);
    setVariables(leader, instance, "{\"pause\": \"PT0.1S\"}", false);
    long second = lastKeyOf(IncidentIntent.CREATED);
    assertThat(resolveIncident(leader, second).intent()).isEqualTo(IncidentIntent.RESOLVED);
    awaitJob(leader, "after");
  }

  @Test
  void aStaticTimerThatIsNotIso8601IsRejectedAtDeploymentNamingTheElement() {
    TestMember leader = leader();
    Answer answer = deploy(leader, "p.bpmn", xml(waitThenWork("PT10X")));
    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason()).contains("'wait'").contains("'PT10X'");

    BpmnModelInstance cron =
        Bpmn.createExecutableProcess("c")
            .startEvent()
            .serviceTask("task", t -> t.zeebeJobType("t"))
            .boundaryEvent("tick", b -> b.cancelActivity(false).timerWithCycle("0 0 * * * NEVER"))
            .endEvent()
            .moveToActivity("task")
            .endEvent()
            .done();
    Answer cronAnswer = deploy(leader, "c.bpmn", xml(cron));
    assertThat(cronAnswer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(cronAnswer.reason()).contains("'tick'").contains("not a valid cron expression");
  }

  @Test
  void anInterruptingTimerBoundaryEventTerminatesTheTaskAndCancelsItsJob() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .serviceTask("work", t -> t.zeebeJobType("work"))
            .boundaryEvent("too-late", b -> b.timerWithDuration("PT0.2S"))
            .serviceTask("escalate", t -> t.zeebeJobType("escalate"))
            .endEvent("escalated")
            .moveToActivity("work")
            .endEvent("done")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");
    long work = awaitJob(leader, "work");

    long escalate = awaitJob(leader, "escalate");
    assertThat(lifecycle())
        .containsSubsequence("work " + TERMINATED, "too-late " + COMPLETED, "escalate " + ACTIVATED)
        .doesNotContain("done " + ACTIVATED);
    assertThat(countOf(JobIntent.CANCELED)).isEqualTo(1);
    assertThat(completeJob(leader, work).rejection()).isEqualTo(RejectionType.NOT_FOUND);
    completeJob(leader, escalate);
    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
  }

  @Test
  void aNonInterruptingCycleFiresItsRepetitionsWhileTheTaskGoesOn() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .serviceTask("work", t -> t.zeebeJobType("work"))
            .boundaryEvent("remind", b -> b.cancelActivity(false).timerWithCycle("R3/PT0.1S"))
            .endEvent("reminded")
            .moveToActivity("work")
            .boundaryEvent("forever", b -> b.cancelActivity(false).timerWithCycle("R/PT1H"))
            .endEvent("never")
            .moveToActivity("work")
            .endEvent("done")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");
    long work = awaitJob(leader, "work");

    await(
        () -> lifecycle().stream().filter(l -> l.equals("reminded " + COMPLETED)).count() == 3,
        "three reminders");
    assertThat(
            eventValues(TimerIntent.CREATED).stream()
                .map(v -> new TimerValue().<TimerValue>readFrom(new UnsafeBuffer(v)))
                .filter(t -> t.targetElementId.equals("remind"))
                .map(t -> t.repetitions))
        .as("each firing re-creates the cycle with one repetition less")
        .containsExactly(3, 2, 1);
    assertThat(completeJob(leader, work).intent()).isEqualTo(JobIntent.COMPLETED);
    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
    assertThat(lifecycle().stream().filter(l -> l.equals("remind " + COMPLETED)).count())
        .as("R3 fires three times only")
        .isEqualTo(3);
    assertThat(countOf(TimerIntent.CANCELED))
        .as("the endless cycle is canceled when the task completes")
        .isEqualTo(1);
  }

  @Test
  void aTimerOnASubprocessTerminatesEverythingInsideIt() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .subProcess("sub")
            .embeddedSubProcess()
            .startEvent("sub-start")
            .serviceTask("inner", t -> t.zeebeJobType("inner"))
            .endEvent("sub-end")
            .subProcessDone()
            .endEvent("end")
            .moveToActivity("sub")
            .boundaryEvent("deadline", b -> b.timerWithDuration("PT0.2S"))
            .endEvent("timed-out")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    create(leader, "p");
    long inner = awaitJob(leader, "inner");

    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
    assertThat(lifecycle())
        .containsSubsequence(
            "inner " + TERMINATED,
            "sub " + TERMINATED,
            "deadline " + COMPLETED,
            "timed-out " + COMPLETED);
    assertThat(completeJob(leader, inner).rejection()).isEqualTo(RejectionType.NOT_FOUND);
  }

  @Test
  void aTimerDueWhileNoLeaderRunsFiresOnceANewLeaderTakesOver() {
    TestMember first = leader();
    deployed(deploy(first, "p.bpmn", xml(waitThenWork("PT0.5S"))));
    create(first, "p");
    await(() -> countOf(TimerIntent.CREATED) == 1, "the timer");
    first.close();
    members.remove(first);

    TestMember second = takeOver("second");
    awaitJob(second, "after");
    assertThat(countOf(TimerIntent.TRIGGERED)).isEqualTo(1);
  }
}

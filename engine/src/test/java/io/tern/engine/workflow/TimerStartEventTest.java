package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.TimerValue;
import java.time.Instant;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Timer start events of processes: date, duration and cycle, and their replacement on redeploy. */
class TimerStartEventTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;

  /** A process started by a timer ({@code kind}: duration, date or cycle) and by command. */
  private static BpmnModelInstance timed(String kind, String text, String jobType) {
    var builder = Bpmn.createExecutableProcess("timed");
    var start =
        switch (kind) {
          case "duration" -> builder.startEvent("tick").timerWithDuration(text);
          case "date" -> builder.startEvent("tick").timerWithDate(text);
          default -> builder.startEvent("tick").timerWithCycle(text);
        };
    return start
        .serviceTask("work", t -> t.zeebeJobType(jobType))
        .endEvent("end")
        .moveToProcess("timed")
        .startEvent("by-hand")
        .connectTo("work")
        .done();
  }

  private TimerValue timer(Intent intent, int index) {
    return new TimerValue().readFrom(new UnsafeBuffer(eventValues(intent).get(index)));
  }

  @Test
  void aDurationStartEventStartsOneInstanceAtItsStartEvent() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(timed("duration", "PT0.2S", "work"))));
    completeJob(leader, awaitJob(leader, "work"));
    await(() -> lifecycle().contains("timed " + COMPLETED), "the instance to complete");
    assertThat(lifecycle()).contains("tick " + COMPLETED).doesNotContain("by-hand " + COMPLETED);
    assertThat(countOf(TimerIntent.TRIGGERED)).isEqualTo(1);
    assertThat(countOf(TimerIntent.CREATED)).as("no second timer").isEqualTo(1);
  }

  @Test
  void aDateStartEventStartsAnInstanceAtThatDate() {
    TestMember leader = leader();
    String soon = Instant.now().plusMillis(300).toString();
    deployed(deploy(leader, "p.bpmn", xml(timed("date", soon, "work"))));
    assertThat(timer(TimerIntent.CREATED, 0).dueDateMs)
        .isEqualTo(Instant.parse(soon).toEpochMilli());
    awaitJob(leader, "work");
    assertThat(System.currentTimeMillis())
        .isGreaterThanOrEqualTo(Instant.parse(soon).toEpochMilli());
  }

  @Test
  void aCycleStartsAnInstanceForEachRepetition() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(timed("cycle", "R3/PT0.1S", "work"))));
    await(() -> countOf(JobIntent.CREATED) == 3, "three instances");
    assertThat(countOf(TimerIntent.TRIGGERED)).isEqualTo(3);
    assertThat(countOf(TimerIntent.CREATED)).as("no fourth timer").isEqualTo(3);
    assertThat(timer(TimerIntent.CREATED, 2).repetitions).isEqualTo(1);
  }

  @Test
  void aCronCycleStartsAnInstanceEachTimeItMatches() {
    TestMember leader = leader();
    // Every second: two instances come within about two seconds.
    deployed(deploy(leader, "p.bpmn", xml(timed("cycle", "* * * * * *", "work"))));
    await(() -> countOf(JobIntent.CREATED) >= 2, "two instances");
    TimerValue first = timer(TimerIntent.CREATED, 0);
    TimerValue second = timer(TimerIntent.CREATED, 1);
    assertThat(first.dueDateMs % 1000).as("on a whole second").isZero();
    assertThat(second.dueDateMs).isGreaterThan(first.dueDateMs);
    assertThat(second.dueDateMs % 1000).isZero();
    assertThat(second.repetitions).isEqualTo(TimerValue.UNBOUNDED);
    // Redeploying without the cycle stops it.
    deployed(
        deploy(
            leader,
            "p.bpmn",
            xml(Bpmn.createExecutableProcess("timed").startEvent("by-hand").endEvent().done())));
    long created = countOf(TimerIntent.CREATED);
    assertThat(countOf(TimerIntent.CANCELED)).isEqualTo(1);
    assertThat(countOf(TimerIntent.CREATED)).isEqualTo(created);
  }

  @Test
  void aNewVersionReplacesThePreviousVersionsStartTimers() {
    TestMember leader = leader();
    DeploymentValue.Process first =
        deployed(deploy(leader, "p.bpmn", xml(timed("cycle", "R/PT1H", "first"))));
    DeploymentValue.Process second =
        deployed(deploy(leader, "p.bpmn", xml(timed("cycle", "R/PT2H", "second"))));
    assertThat(second.version()).isEqualTo(2);
    assertThat(countOf(TimerIntent.CANCELED)).isEqualTo(1);
    assertThat(timer(TimerIntent.CANCELED, 0).processDefinitionKey)
        .isEqualTo(first.processDefinitionKey());
    assertThat(timer(TimerIntent.CREATED, 1).processDefinitionKey)
        .isEqualTo(second.processDefinitionKey());

    // A version without timer start events cancels them too.
    BpmnModelInstance untimed =
        Bpmn.createExecutableProcess("timed").startEvent("by-hand").endEvent("end").done();
    deployed(deploy(leader, "p.bpmn", xml(untimed)));
    assertThat(countOf(TimerIntent.CANCELED)).isEqualTo(2);
    assertThat(timer(TimerIntent.CANCELED, 1).processDefinitionKey)
        .isEqualTo(second.processDefinitionKey());

    // The same resource again is no new version: nothing changes.
    deployed(deploy(leader, "p.bpmn", xml(untimed)));
    assertThat(countOf(TimerIntent.CREATED)).isEqualTo(2);
  }

  @Test
  void badStartTimersAreRejectedNamingTheStartEvent() {
    TestMember leader = leader();
    Answer typo = deploy(leader, "p.bpmn", xml(timed("duration", "PT10X", "work")));
    assertThat(typo.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(typo.reason()).contains("'tick'").contains("'PT10X'");

    Answer noValue = deploy(leader, "p.bpmn", xml(timed("duration", "=missing", "work")));
    assertThat(noValue.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(noValue.reason()).contains("'tick'");

    BpmnModelInstance inSubprocess =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .subProcess("sub")
            .embeddedSubProcess()
            .startEvent("sub-tick")
            .timerWithDuration("PT1S")
            .endEvent("sub-end")
            .subProcessDone()
            .endEvent("end")
            .done();
    Answer nested = deploy(leader, "p.bpmn", xml(inSubprocess));
    assertThat(nested.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(nested.reason()).contains("'sub-tick'").contains("not in subprocesses");
    assertThat(countOf(TimerIntent.CREATED)).isZero();
  }

  @Test
  void aProcessWithTimerStartsOnlyCannotBeCreatedByCommand() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("only")
            .startEvent("tick")
            .timerWithCycle("R/PT1H")
            .endEvent("end")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    Answer answer = create(leader, "only");
    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason()).contains("timer start events");
    assertThat(List.of(countOf(TimerIntent.CREATED))).containsExactly(1L);
  }
}

package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.ModificationIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue.Activation;
import io.tern.engine.workflow.value.TimerValue;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * ModifyProcessInstance: a token moved, an element activated inside a subprocess that is not
 * active, a parallel join activated, the instance ended by terminating its last element, and each
 * kind of wrong instruction rejected whole. Each test's log is replayed by a new member afterwards.
 */
class ModifyProcessInstanceTest extends WorkflowTestBase {
  private static final BpmnModelInstance TWO_TASKS =
      Bpmn.createExecutableProcess("repair")
          .startEvent("start")
          .serviceTask("a", t -> t.zeebeJobType("a"))
          .serviceTask("b", t -> t.zeebeJobType("b"))
          .subProcess(
              "sub",
              s ->
                  s.embeddedSubProcess()
                      .startEvent("subStart")
                      .serviceTask("x", t -> t.zeebeJobType("x"))
                      .endEvent("subEnd"))
          .endEvent("end")
          .done();

  private static final BpmnModelInstance FORK =
      Bpmn.createExecutableProcess("fork")
          .startEvent()
          .parallelGateway("split")
          .serviceTask("left", t -> t.zeebeJobType("left"))
          .parallelGateway("join")
          .endEvent("done")
          .moveToNode("split")
          .serviceTask("right", t -> t.zeebeJobType("right"))
          .connectTo("join")
          .done();

  private static Answer modify(
      TestMember member, long processInstanceKey, Consumer<ProcessInstanceModificationValue> how) {
    ProcessInstanceModificationValue modification = new ProcessInstanceModificationValue();
    how.accept(modification);
    return member.awaitAnswer(
        member.send(ModificationIntent.MODIFY, processInstanceKey, modification));
  }

  private static void activate(ProcessInstanceModificationValue m, String elementId) {
    m.activations.add(new Activation(elementId, -1));
  }

  private static void variables(
      ProcessInstanceModificationValue m, int activation, String scopeId, String json) {
    m.variables.add(
        new ProcessInstanceModificationValue.Variables(
            activation, scopeId, json.getBytes(StandardCharsets.UTF_8)));
  }

  private long start(TestMember leader) {
    deployed(deploy(leader, "repair.bpmn", xml(TWO_TASKS)));
    long instance = create(leader, "repair").key();
    awaitJob(leader, "a");
    return instance;
  }

  private int count(String line) {
    return Collections.frequency(lifecycle(), line);
  }

  @Test
  void aTokenMovesFromOneTaskToTheNextWithVariables() {
    TestMember leader = leader();
    long instance = start(leader);
    long a = elementKey("a", ProcessInstanceIntent.ELEMENT_ACTIVATED);

    Answer modified =
        modify(
            leader,
            instance,
            m -> {
              m.terminations.add(a);
              activate(m, "b");
              variables(m, 0, "", "{\"fixed\":true}");
              variables(m, 0, "b", "{\"note\":\"repaired\"}");
            });
    assertThat(modified.rejection()).as("%s", modified.reason()).isEqualTo(RejectionType.NONE);
    assertThat(modified.intent()).isEqualTo(ModificationIntent.MODIFIED);
    assertThat(count("a " + ProcessInstanceIntent.ELEMENT_TERMINATED)).isEqualTo(1);
    assertThat(activate(leader, "a", 1).jobKeys).as("a's job went with it").isEmpty();

    JobBatchValue b = activateWhenAvailable(leader, "b", List.of("fixed", "note"));
    String seen = new String(b.jobs.get(0).variables, StandardCharsets.UTF_8);
    assertThat(seen).contains("\"fixed\":true").contains("\"note\":\"repaired\"");
    completeJob(leader, b.jobKeys.get(0));
    completeJob(leader, awaitJob(leader, "x"));
    await(
        () -> count("repair " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1,
        "the repaired instance to complete");
  }

  @Test
  void anElementInASubprocessThatIsNotActiveGetsItsSubprocessWithoutItsStartEvent() {
    TestMember leader = leader();
    long instance = start(leader);
    long a = elementKey("a", ProcessInstanceIntent.ELEMENT_ACTIVATED);

    Answer modified =
        modify(
            leader,
            instance,
            m -> {
              activate(m, "x");
              variables(m, 0, "sub", "{\"inSub\":1}");
              m.terminations.add(a);
            });
    assertThat(modified.rejection()).as("%s", modified.reason()).isEqualTo(RejectionType.NONE);
    JobBatchValue x = activateWhenAvailable(leader, "x", List.of("inSub"));
    assertThat(new String(x.jobs.get(0).variables, StandardCharsets.UTF_8)).contains("\"inSub\":1");
    assertThat(count("sub " + ProcessInstanceIntent.ELEMENT_ACTIVATED)).isEqualTo(1);
    assertThat(count("subStart " + ProcessInstanceIntent.ELEMENT_ACTIVATING))
        .as("a scope made by a modification does not run its start event")
        .isZero();

    completeJob(leader, x.jobKeys.get(0));
    await(
        () -> count("repair " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1,
        "the subprocess, then the instance, to complete");
    assertThat(count("b " + ProcessInstanceIntent.ELEMENT_ACTIVATING)).isZero();
  }

  @Test
  void aParallelJoinActivatedByAModificationGoesOn() {
    TestMember leader = leader();
    deployed(deploy(leader, "fork.bpmn", xml(FORK)));
    long instance = create(leader, "fork").key();
    awaitJob(leader, "left");
    long left = elementKey("left", ProcessInstanceIntent.ELEMENT_ACTIVATED);
    long right = elementKey("right", ProcessInstanceIntent.ELEMENT_ACTIVATED);

    Answer modified =
        modify(
            leader,
            instance,
            m -> {
              activate(m, "join");
              m.terminations.add(left);
              m.terminations.add(right);
            });
    assertThat(modified.rejection()).as("%s", modified.reason()).isEqualTo(RejectionType.NONE);
    await(
        () -> count("fork " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1,
        "the join to take both tokens it was given and the instance to complete");
  }

  @Test
  void terminatingTheLastActiveElementEndsTheInstanceTerminated() {
    TestMember leader = leader();
    long instance = start(leader);
    long a = elementKey("a", ProcessInstanceIntent.ELEMENT_ACTIVATED);

    Answer modified = modify(leader, instance, m -> m.terminations.add(a));
    assertThat(modified.rejection()).as("%s", modified.reason()).isEqualTo(RejectionType.NONE);
    await(
        () -> count("repair " + ProcessInstanceIntent.ELEMENT_TERMINATED) == 1,
        "the instance left with nothing active to be terminated");
    assertThat(count("repair " + ProcessInstanceIntent.ELEMENT_COMPLETED)).isZero();
  }

  @Test
  void aScopeWithTwoActiveInstancesNeedsAnAncestorKey() {
    TestMember leader = leader();
    long instance = start(leader);
    // A second instance of the subprocess, next to the one the first modification creates.
    assertThat(modify(leader, instance, m -> activate(m, "x")).rejection())
        .isEqualTo(RejectionType.NONE);
    assertThat(
            modify(leader, instance, m -> m.activations.add(new Activation("x", instance)))
                .rejection())
        .isEqualTo(RejectionType.NONE);
    await(() -> count("sub " + ProcessInstanceIntent.ELEMENT_ACTIVATED) == 2, "two subprocesses");

    Answer ambiguous = modify(leader, instance, m -> activate(m, "x"));
    assertThat(ambiguous.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(ambiguous.reason())
        .contains("'sub' has more than one active instance")
        .contains("ancestor element instance key");
    long oneSub = elementKey("sub", ProcessInstanceIntent.ELEMENT_ACTIVATED);
    assertThat(
            modify(leader, instance, m -> m.activations.add(new Activation("x", oneSub)))
                .rejection())
        .isEqualTo(RejectionType.NONE);
    await(() -> count("x " + ProcessInstanceIntent.ELEMENT_ACTIVATED) == 3, "a third x");
    assertThat(count("sub " + ProcessInstanceIntent.ELEMENT_ACTIVATED))
        .as("an ancestor below which there is no scope left creates none")
        .isEqualTo(2);
  }

  @Test
  void wrongInstructionsAreRejectedWholeNamingWhatIsWrong() {
    TestMember leader = leader();
    long instance = start(leader);
    long a = elementKey("a", ProcessInstanceIntent.ELEMENT_ACTIVATED);
    List<String> before = lifecycle();

    Answer unknownInstance = modify(leader, instance + 1000, m -> activate(m, "b"));
    assertThat(unknownInstance.rejection()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(unknownInstance.reason()).contains("no active process instance");

    Answer unknownElement =
        modify(
            leader,
            instance,
            m -> {
              activate(m, "b");
              activate(m, "nope");
              m.terminations.add(a);
            });
    assertThat(unknownElement.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(unknownElement.reason()).contains("has no element 'nope'");

    Answer startEvent = modify(leader, instance, m -> activate(m, "subStart"));
    assertThat(startEvent.reason()).contains("subStart (a start event)");

    Answer unknownKey = modify(leader, instance, m -> m.terminations.add(a + 12345));
    assertThat(unknownKey.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(unknownKey.reason()).contains("has no element instance '" + (a + 12345) + "'");

    Answer outsideScope =
        modify(
            leader,
            instance,
            m -> {
              activate(m, "b");
              variables(m, 0, "sub", "{}");
            });
    assertThat(outsideScope.reason())
        .contains("sub (activating b)")
        .contains("neither the element activated nor one of its scopes");

    Answer notAnAncestor = modify(leader, instance, m -> m.activations.add(new Activation("b", a)));
    assertThat(notAnAncestor.reason())
        .contains("instance " + a + " of a is not one of the scopes of b");

    Answer badJson =
        modify(
            leader,
            instance,
            m -> {
              activate(m, "b");
              variables(m, 0, "", "[1,2]");
            });
    assertThat(badJson.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(badJson.reason()).contains("not a JSON object");

    assertThat(lifecycle()).as("nothing was written for a rejected command").isEqualTo(before);
  }

  @Test
  void restartingASubprocessTerminatesItAndActivatesTheElementInANewInstance() {
    TestMember leader = leader();
    deployed(deploy(leader, "repair.bpmn", xml(TWO_TASKS)));
    long instance = create(leader, "repair").key();
    completeJob(leader, awaitJob(leader, "a"));
    completeJob(leader, awaitJob(leader, "b"));
    awaitJob(leader, "x");
    long sub = elementKey("sub", ProcessInstanceIntent.ELEMENT_ACTIVATED);

    Answer modified =
        modify(
            leader,
            instance,
            m -> {
              m.terminations.add(sub);
              activate(m, "x");
            });
    assertThat(modified.rejection()).as("%s", modified.reason()).isEqualTo(RejectionType.NONE);
    await(() -> count("sub " + ProcessInstanceIntent.ELEMENT_TERMINATED) == 1, "the old sub gone");
    assertThat(count("sub " + ProcessInstanceIntent.ELEMENT_ACTIVATED))
        .as("x is activated in a new instance, not in the one being terminated")
        .isEqualTo(2);
    completeJob(leader, awaitJob(leader, "x"));
    await(
        () -> count("repair " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1,
        "the instance to complete through the new sub");
  }

  @Test
  void aScopeWhoseLastElementIsTerminatedWhileItsNewElementEndsCompletes() {
    TestMember leader = leader();
    deployed(deploy(leader, "repair.bpmn", xml(TWO_TASKS)));
    long instance = create(leader, "repair").key();
    completeJob(leader, awaitJob(leader, "a"));
    completeJob(leader, awaitJob(leader, "b"));
    awaitJob(leader, "x");
    long sub = elementKey("sub", ProcessInstanceIntent.ELEMENT_ACTIVATED);

    Answer modified =
        modify(
            leader,
            instance,
            m -> {
              activate(m, "end");
              m.terminations.add(sub);
            });
    assertThat(modified.rejection()).as("%s", modified.reason()).isEqualTo(RejectionType.NONE);
    await(
        () -> count("repair " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1,
        "the process to complete once its end event and the terminated sub are both done");
  }

  @Test
  void aJoinActivatedByAModificationTakesTheTokenWaitingThere() {
    TestMember leader = leader();
    deployed(deploy(leader, "fork.bpmn", xml(FORK)));
    long instance = create(leader, "fork").key();
    completeJob(leader, awaitJob(leader, "left")); // its token waits at the join
    awaitJob(leader, "right");
    long right = elementKey("right", ProcessInstanceIntent.ELEMENT_ACTIVATED);

    Answer modified =
        modify(
            leader,
            instance,
            m -> {
              m.terminations.add(right);
              activate(m, "join");
            });
    assertThat(modified.rejection()).as("%s", modified.reason()).isEqualTo(RejectionType.NONE);
    await(
        () -> count("fork " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1,
        "the join to take the waiting token and the instance to complete");
    assertThat(count("join " + ProcessInstanceIntent.ELEMENT_ACTIVATED)).isEqualTo(1);
  }

  @Test
  void aCreatedScopesEventsAreEvaluatedWithTheGivenVariablesAndATerminatedAncestorIsRefused() {
    TestMember leader = leader();
    BpmnModelInstance guarded =
        Bpmn.createExecutableProcess("guarded")
            .startEvent()
            .serviceTask("a", t -> t.zeebeJobType("ga"))
            .subProcess(
                "sub",
                s ->
                    s.embeddedSubProcess()
                        .startEvent()
                        .serviceTask("x", t -> t.zeebeJobType("gx"))
                        .endEvent())
            .boundaryEvent("late", b -> b.timerWithDurationExpression("subLimit"))
            .endEvent()
            .moveToActivity("sub")
            .endEvent()
            .done();
    deployed(deploy(leader, "guarded.bpmn", xml(guarded)));
    long instance = create(leader, "guarded", "{}").key();
    awaitJob(leader, "ga");
    long a = elementKey("a", ProcessInstanceIntent.ELEMENT_ACTIVATED);

    Answer missing = modify(leader, instance, m -> activate(m, "x"));
    assertThat(missing.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(missing.reason())
        .contains("would create an instance of 'sub' whose catch events cannot be subscribed to")
        .contains("'late'");

    Answer terminatedAncestor =
        modify(
            leader,
            instance,
            m -> {
              m.terminations.add(a);
              m.activations.add(new Activation("b", a));
            });
    assertThat(terminatedAncestor.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);

    Answer withVariables =
        modify(
            leader,
            instance,
            m -> {
              m.terminations.add(a);
              activate(m, "x");
              variables(m, 0, "sub", "{\"subLimit\":\"PT2H\"}");
            });
    assertThat(withVariables.rejection())
        .as("%s", withVariables.reason())
        .isEqualTo(RejectionType.NONE);
    TimerValue timer =
        new TimerValue().readFrom(new UnsafeBuffer(eventValues(TimerIntent.CREATED).get(0)));
    assertThat(timer.targetElementId).isEqualTo("late");
    assertThat(timer.dueDateMs - System.currentTimeMillis())
        .as("evaluated with the variable given for the new scope")
        .isGreaterThan(Duration.ofMinutes(90).toMillis());
    completeJob(leader, awaitJob(leader, "gx"));
    await(
        () -> count("guarded " + ProcessInstanceIntent.ELEMENT_COMPLETED) == 1,
        "the created sub, then the instance, to complete");
  }
}

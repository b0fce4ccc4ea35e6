package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.camunda.zeebe.model.bpmn.builder.AbstractFlowNodeBuilder;
import io.camunda.zeebe.model.bpmn.builder.IntermediateThrowEventBuilder;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CompensationIntent;
import io.tern.engine.protocol.Intent;
import io.tern.engine.protocol.ModificationIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ValueType;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.RecordBatch;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.CompensationSubscriptionValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Compensation: a throw event runs the handlers of the activities that completed in its scope
 * (through completed subprocesses too) and waits for them; an activity is compensated once, a
 * multi-instance activity once for all its instances; an activityRef picks one activity; what is
 * left is deleted when the instance ends; wrong models are refused at deployment naming the
 * element. Each test's log is replayed by a new member afterwards.
 */
class CompensationEventsTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;

  private int count(String line) {
    return Collections.frequency(lifecycle(), line);
  }

  private long subscriptions(Intent intent) {
    return countOf(intent);
  }

  /**
   * The committed records compensation is about, in log order: process instance events as
   * "elementId intent" (as {@link #lifecycle()}), the commands activating a compensation handler as
   * "elementId activate", and compensation subscription events as "activityId NAME".
   */
  private List<String> stream() {
    List<String> lines = new ArrayList<>();
    RecordBatch batch = new RecordBatch();
    ProcessInstanceValue element = new ProcessInstanceValue();
    CompensationSubscriptionValue subscription = new CompensationSubscriptionValue();
    for (byte[] entry : log.committedBatches()) {
      batch.wrap(new UnsafeBuffer(entry), 0, entry.length);
      while (batch.hasNext()) {
        LoggedRecord record = batch.next();
        if (record.valueType() == ValueType.PROCESS_INSTANCE) {
          element.readFrom(record.value());
          if (record.isEvent()) {
            lines.add(element.elementId + " " + record.intent());
          } else if (record.isCommand()
              && record.intent() == ProcessInstanceIntent.ACTIVATE_ELEMENT
              && element.elementId.startsWith("undo-")) {
            lines.add(element.elementId + " activate");
          }
        } else if (record.valueType() == ValueType.COMPENSATION_SUBSCRIPTION && record.isEvent()) {
          subscription.readFrom(record.value());
          lines.add(subscription.activityId + " " + record.intent().name());
        }
      }
    }
    return lines;
  }

  /** Element {@code elementId}'s four lifecycle events, in the order Zeebe writes them. */
  private static List<String> passes(String elementId) {
    return List.of(
        elementId + " " + ProcessInstanceIntent.ELEMENT_ACTIVATING,
        elementId + " " + ProcessInstanceIntent.ELEMENT_ACTIVATED,
        elementId + " " + ProcessInstanceIntent.ELEMENT_COMPLETING,
        elementId + " " + ProcessInstanceIntent.ELEMENT_COMPLETED);
  }

  /** Zeebe's records for compensating {@code activity}: its boundary, its handler, TRIGGERED. */
  private static List<String> compensates(String activity) {
    List<String> lines = new ArrayList<>(passes("comp-" + activity));
    lines.add("undo-" + activity + " activate");
    lines.add(activity + " TRIGGERED");
    return lines;
  }

  /** The values of the events of {@code elementId}'s element instances with {@code intent}. */
  private List<ProcessInstanceValue> elementEvents(String elementId, Intent intent) {
    List<ProcessInstanceValue> found = new ArrayList<>();
    for (byte[] value : eventValues(intent)) {
      ProcessInstanceValue event = new ProcessInstanceValue().readFrom(new UnsafeBuffer(value));
      if (event.elementId.equals(elementId)) {
        found.add(event);
      }
    }
    return found;
  }

  /** No element instance, token or compensation subscription is left in the leader's state. */
  private void assertNothingLeft(TestMember leader) {
    assertThat(workflowState(leader).keySet())
        .as("element instances, their children, compensation subscriptions")
        .noneMatch(
            key ->
                key.startsWith("0013")
                    || key.startsWith("001c")
                    || key.startsWith("0045")
                    || key.startsWith("0046"));
  }

  /**
   * Task {@code id} (job type = id) with compensation boundary event "comp-{id}" and handler
   * "undo-{id}" (job type likewise).
   */
  private static AbstractFlowNodeBuilder<?, ?> compensable(
      AbstractFlowNodeBuilder<?, ?> before, String id) {
    return compensable(before, id, "undo-" + id);
  }

  /**
   * Task {@code id} (job type = id) with compensation boundary event "comp-{id}" and handler
   * "undo-{id}" of job type {@code undoType}.
   */
  static AbstractFlowNodeBuilder<?, ?> compensable(
      AbstractFlowNodeBuilder<?, ?> before, String id, String undoType) {
    return before
        .serviceTask(id, t -> t.zeebeJobType(id))
        .boundaryEvent("comp-" + id)
        .compensation(c -> c.serviceTask("undo-" + id).zeebeJobType(undoType))
        .moveToActivity(id);
  }

  @Test
  void aThrowEventRunsTheHandlerOfACompletedTaskAndWaitsForIt() {
    TestMember leader = leader();
    BpmnModelInstance trip =
        compensable(Bpmn.createExecutableProcess("trip").startEvent(), "book")
            .serviceTask("pay", t -> t.zeebeJobType("pay"))
            .intermediateThrowEvent("undo")
            .compensateEventDefinition()
            .compensateEventDefinitionDone()
            .endEvent("end")
            .done();
    deployed(deploy(leader, "trip.bpmn", xml(trip)));
    create(leader, "trip");
    completeJob(leader, awaitJob(leader, "book"), "{\"booking\":\"B-17\"}");
    completeJob(leader, awaitJob(leader, "pay"));

    JobBatchValue undo = activateWhenAvailable(leader, "undo-book", List.of("booking"));
    assertThat(new String(undo.jobs.get(0).variables, StandardCharsets.UTF_8))
        .as("the handler sees the process's variables")
        .contains("B-17");
    assertThat(subscriptions(CompensationIntent.TRIGGERED)).isEqualTo(1);
    assertThat(count("undo " + COMPLETED)).as("the throw event waits for the handler").isZero();
    completeJob(leader, undo.jobKeys.get(0));
    await(() -> count("trip " + COMPLETED) == 1, "the instance to complete");
    List<String> lines = lifecycle();
    assertThat(lines.indexOf("undo-book " + COMPLETED))
        .isLessThan(lines.indexOf("undo " + COMPLETED));
    assertThat(subscriptions(CompensationIntent.COMPLETED)).isEqualTo(1);
    assertThat(subscriptions(CompensationIntent.DELETED)).isZero();
    assertThat(count("end " + COMPLETED))
        .as("the throw event went on to the end event: the handler's token did not end the scope")
        .isEqualTo(1);
    assertThat(lines.indexOf("end " + COMPLETED)).isLessThan(lines.indexOf("trip " + COMPLETED));

    List<String> stream = stream();
    assertThat(stream)
        .as("as in Zeebe: the boundary event passes, the handler is activated, then TRIGGERED")
        .containsSequence(compensates("book"))
        .containsSubsequence(
            "undo " + ProcessInstanceIntent.ELEMENT_ACTIVATED,
            "comp-book " + ProcessInstanceIntent.ELEMENT_ACTIVATING,
            "undo-book " + ProcessInstanceIntent.ELEMENT_ACTIVATING,
            "undo-book " + COMPLETED,
            "book COMPLETED",
            "undo " + COMPLETED);
    assertThat(Collections.frequency(stream, "comp-book " + COMPLETED)).isEqualTo(1);
    long instance = elementKey("trip", ProcessInstanceIntent.ELEMENT_ACTIVATED);
    ProcessInstanceValue boundary =
        elementEvents("comp-book", ProcessInstanceIntent.ELEMENT_ACTIVATING).get(0);
    assertThat(boundary.elementType).isEqualTo(BpmnElementType.BOUNDARY_EVENT);
    assertThat(boundary.flowScopeKey).as("the throw event's flow scope").isEqualTo(instance);
    assertThat(elementKey("comp-book", COMPLETED))
        .isEqualTo(elementKey("comp-book", ProcessInstanceIntent.ELEMENT_ACTIVATING));
    assertNothingLeft(leader);
  }

  @Test
  void nothingCompletedMeansNothingToWaitForAndAnUnusedRecordIsDeletedAtTheEnd() {
    TestMember leader = leader();
    BpmnModelInstance early =
        compensable(
                Bpmn.createExecutableProcess("early")
                    .startEvent()
                    .intermediateThrowEvent("too-soon")
                    .compensateEventDefinition()
                    .compensateEventDefinitionDone(),
                "work")
            .endEvent()
            .done();
    deployed(deploy(leader, "early.bpmn", xml(early)));
    create(leader, "early");
    completeJob(leader, awaitJob(leader, "work"));
    await(() -> count("early " + COMPLETED) == 1, "the instance to complete");
    assertThat(count("too-soon " + COMPLETED)).isEqualTo(1);
    assertThat(subscriptions(CompensationIntent.CREATED)).isEqualTo(1);
    assertThat(subscriptions(CompensationIntent.TRIGGERED)).isZero();
    assertThat(subscriptions(CompensationIntent.DELETED))
        .as("what was never compensated goes with the instance")
        .isEqualTo(1);
  }

  @Test
  void anActivityRefCompensatesOneActivityAndEachActivityOnlyOnce() {
    TestMember leader = leader();
    BpmnModelInstance two =
        compensable(compensable(Bpmn.createExecutableProcess("two").startEvent(), "a"), "b")
            .intermediateThrowEvent("only-a")
            .compensateEventDefinition()
            .activityRef("a")
            .<IntermediateThrowEventBuilder>compensateEventDefinitionDone()
            .serviceTask("between", t -> t.zeebeJobType("between"))
            .endEvent("all")
            .compensateEventDefinition()
            .compensateEventDefinitionDone()
            .done();
    deployed(deploy(leader, "two.bpmn", xml(two)));
    create(leader, "two");
    completeJob(leader, awaitJob(leader, "a"));
    completeJob(leader, awaitJob(leader, "b"));

    completeJob(leader, awaitJob(leader, "undo-a"));
    completeJob(leader, awaitJob(leader, "between"));
    completeJob(leader, awaitJob(leader, "undo-b"));
    await(() -> count("two " + COMPLETED) == 1, "the instance to complete");
    assertThat(count("undo-a " + COMPLETED)).as("a, compensated once").isEqualTo(1);
    assertThat(count("undo-b " + COMPLETED)).isEqualTo(1);
  }

  @Test
  void aThrowAfterACompletedSubprocessCompensatesWhatCompletedInsideIt() {
    TestMember leader = leader();
    BpmnModelInstance nested =
        Bpmn.createExecutableProcess("nested")
            .startEvent()
            .subProcess(
                "sub",
                s -> {
                  AbstractFlowNodeBuilder<?, ?> inside =
                      compensable(
                          compensable(s.embeddedSubProcess().startEvent(), "reserve"), "notify");
                  inside.endEvent();
                })
            .intermediateThrowEvent("undo-all")
            .compensateEventDefinition()
            .compensateEventDefinitionDone()
            .endEvent()
            .done();
    deployed(deploy(leader, "nested.bpmn", xml(nested)));
    long instance = create(leader, "nested").key();
    completeJob(leader, awaitJob(leader, "reserve"));
    completeJob(leader, awaitJob(leader, "notify"));
    completeJob(leader, awaitJob(leader, "undo-reserve"));
    long undoNotify = awaitJob(leader, "undo-notify");
    assertThat(stream())
        .as("the subprocess, without a handler, is TRIGGERED first and waits for what is inside")
        .containsSubsequence("sub TRIGGERED", "reserve TRIGGERED", "notify TRIGGERED")
        .containsSequence(compensates("reserve"))
        .containsSequence(compensates("notify"))
        .doesNotContain("sub COMPLETED");
    completeJob(leader, undoNotify);
    await(() -> count("nested " + COMPLETED) == 1, "the instance to complete");
    assertThat(subscriptions(CompensationIntent.CREATED))
        .as("the tasks, and the subprocess that holds them")
        .isEqualTo(3);
    assertThat(subscriptions(CompensationIntent.TRIGGERED)).isEqualTo(3);
    assertThat(subscriptions(CompensationIntent.COMPLETED)).isEqualTo(3);
    assertThat(stream())
        .as("bottom up: the subprocess completes after the last handler inside it, then the throw")
        .containsSubsequence(
            "undo-notify " + COMPLETED,
            "notify COMPLETED",
            "sub COMPLETED",
            "undo-all " + COMPLETED);
    assertThat(elementEvents("comp-notify", ProcessInstanceIntent.ELEMENT_ACTIVATING))
        .as("the boundary passes in the throw event's scope, not in the completed subprocess")
        .singleElement()
        .extracting(boundary -> boundary.flowScopeKey)
        .isEqualTo(instance);
    assertNothingLeft(leader);
  }

  @Test
  void aMultiInstanceActivityIsCompensatedOnceForAllItsInstances() {
    TestMember leader = leader();
    BpmnModelInstance many =
        Bpmn.createExecutableProcess("many")
            .startEvent()
            .serviceTask(
                "pay",
                t ->
                    t.zeebeJobType("pay")
                        .multiInstance(m -> m.parallel().zeebeInputCollectionExpression("[1,2,3]")))
            .boundaryEvent("comp-pay")
            .compensation(c -> c.serviceTask("refund").zeebeJobType("refund"))
            .moveToActivity("pay")
            .endEvent("refund-all")
            .compensateEventDefinition()
            .compensateEventDefinitionDone()
            .done();
    deployed(deploy(leader, "many.bpmn", xml(many)));
    create(leader, "many");
    for (int i = 0; i < 3; i++) {
      completeJob(leader, awaitJob(leader, "pay"));
    }
    completeJob(leader, awaitJob(leader, "refund"));
    await(() -> count("many " + COMPLETED) == 1, "the instance to complete");
    assertThat(count("refund " + COMPLETED)).isEqualTo(1);
    assertThat(subscriptions(CompensationIntent.CREATED)).as("the body's, once").isEqualTo(1);
    assertThat(count("comp-pay " + COMPLETED)).as("its boundary event passes once").isEqualTo(1);
    assertNothingLeft(leader);
  }

  @Test
  void canceledInstancesDropWhatTheyRecorded() {
    TestMember leader = leader();
    BpmnModelInstance stays =
        compensable(Bpmn.createExecutableProcess("stays").startEvent(), "first")
            .serviceTask("second", t -> t.zeebeJobType("second"))
            .endEvent()
            .done();
    deployed(deploy(leader, "stays.bpmn", xml(stays)));
    long instance = create(leader, "stays").key();
    completeJob(leader, awaitJob(leader, "first"));
    awaitJob(leader, "second");
    assertThat(
            leader
                .awaitAnswer(
                    leader.send(
                        ProcessInstanceIntent.CANCEL,
                        instance,
                        new io.tern.engine.workflow.value.ProcessInstanceValue()))
                .rejection())
        .isEqualTo(RejectionType.NONE);
    await(
        () -> subscriptions(CompensationIntent.DELETED) == 1,
        "the record of 'first' to be deleted with the instance");
  }

  @Test
  void wrongModelsAreRefusedNamingTheElement() {
    TestMember leader = leader();
    BpmnModelInstance handlerWithFlow =
        compensable(Bpmn.createExecutableProcess("p1").startEvent(), "a").endEvent().done();
    handlerWithFlow
        .<io.camunda.zeebe.model.bpmn.instance.ServiceTask>getModelElementById("undo-a")
        .builder()
        .endEvent("after-undo");
    assertRefused(leader, handlerWithFlow, "'undo-a': a compensation handler has no incoming");

    BpmnModelInstance noHandler =
        Bpmn.createExecutableProcess("p2")
            .startEvent()
            .serviceTask("a", t -> t.zeebeJobType("a"))
            .boundaryEvent("lonely")
            .compensateEventDefinition()
            .compensateEventDefinitionDone()
            .moveToActivity("a")
            .endEvent()
            .done();
    assertRefused(
        leader, noHandler, "'lonely' (compensation boundary event): it needs an association");

    BpmnModelInstance refToPlainTask =
        Bpmn.createExecutableProcess("p3")
            .startEvent()
            .serviceTask("plain", t -> t.zeebeJobType("plain"))
            .intermediateThrowEvent("undo-plain")
            .compensateEventDefinition()
            .activityRef("plain")
            .compensateEventDefinitionDone()
            .endEvent()
            .done();
    assertRefused(
        leader, refToPlainTask, "needs a compensation boundary event or must be a subprocess");

    BpmnModelInstance noWait =
        compensable(Bpmn.createExecutableProcess("p4").startEvent(), "a")
            .intermediateThrowEvent("hasty")
            .compensateEventDefinition()
            .waitForCompletion(false)
            .compensateEventDefinitionDone()
            .endEvent()
            .done();
    assertRefused(leader, noWait, "waitForCompletion must be true or absent");
  }

  @Test
  void aThrowInAnEventSubprocessCompensatesTheScopeItRunsIn() {
    TestMember leader = leader();
    BpmnModelInstance failing =
        compensable(
                Bpmn.createExecutableProcess("failing")
                    .eventSubProcess(
                        "on-failure",
                        e ->
                            e.startEvent("failed")
                                .error("fail")
                                .intermediateThrowEvent("undo")
                                .compensateEventDefinition()
                                .compensateEventDefinitionDone()
                                .endEvent("gave-up"))
                    .startEvent(),
                "book")
            .serviceTask("pay", t -> t.zeebeJobType("pay"))
            .endEvent()
            .done();
    deployed(deploy(leader, "failing.bpmn", xml(failing)));
    create(leader, "failing");
    completeJob(leader, awaitJob(leader, "book"));
    throwError(leader, awaitJob(leader, "pay"), "fail", "no money", "{}");
    completeJob(leader, awaitJob(leader, "undo-book"));
    await(() -> count("failing " + COMPLETED) == 1, "the instance to complete");
    assertThat(count("gave-up " + COMPLETED)).isEqualTo(1);
  }

  @Test
  void aHandlerTerminatedByAModificationLetsItsThrowEventGoOn() {
    TestMember leader = leader();
    BpmnModelInstance trip =
        compensable(Bpmn.createExecutableProcess("skip").startEvent(), "book")
            .intermediateThrowEvent("undo")
            .compensateEventDefinition()
            .compensateEventDefinitionDone()
            .endEvent("end")
            .done();
    deployed(deploy(leader, "skip.bpmn", xml(trip)));
    long instance = create(leader, "skip").key();
    completeJob(leader, awaitJob(leader, "book"));
    awaitJob(leader, "undo-book");
    long handler = elementKey("undo-book", ProcessInstanceIntent.ELEMENT_ACTIVATED);

    ProcessInstanceModificationValue activateHandler = new ProcessInstanceModificationValue();
    activateHandler.activations.add(
        new ProcessInstanceModificationValue.Activation("undo-book", -1));
    Answer refused =
        leader.awaitAnswer(leader.send(ModificationIntent.MODIFY, instance, activateHandler));
    assertThat(refused.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(refused.reason()).contains("compensation handler");

    ProcessInstanceModificationValue terminate = new ProcessInstanceModificationValue();
    terminate.terminations.add(handler);
    assertThat(
            leader
                .awaitAnswer(leader.send(ModificationIntent.MODIFY, instance, terminate))
                .rejection())
        .isEqualTo(RejectionType.NONE);
    await(() -> count("skip " + COMPLETED) == 1, "the throw event, then the instance, to go on");
    assertThat(count("end " + COMPLETED)).isEqualTo(1);
    assertThat(subscriptions(CompensationIntent.DELETED))
        .as("the terminated handler compensated nothing")
        .isEqualTo(1);
  }

  @Test
  void whatCompletedInATerminatedSubprocessIsDeletedAtOnce() {
    TestMember leader = leader();
    BpmnModelInstance interrupted =
        Bpmn.createExecutableProcess("interrupted")
            .startEvent()
            .subProcess(
                "sub",
                s ->
                    compensable(s.embeddedSubProcess().startEvent(), "a")
                        .serviceTask("b", t -> t.zeebeJobType("b"))
                        .endEvent())
            .boundaryEvent("boom", b -> b.error("boom"))
            .serviceTask("after", t -> t.zeebeJobType("after"))
            .endEvent()
            .done();
    deployed(deploy(leader, "interrupted.bpmn", xml(interrupted)));
    create(leader, "interrupted");
    completeJob(leader, awaitJob(leader, "a"));
    throwError(leader, awaitJob(leader, "b"), "boom", "", "{}");
    long after = awaitJob(leader, "after");
    assertThat(subscriptions(CompensationIntent.DELETED))
        .as("'a' can no longer be compensated once its subprocess is terminated")
        .isEqualTo(1);
    completeJob(leader, after);
    await(() -> count("interrupted " + COMPLETED) == 1, "the instance to complete");
  }

  private void assertRefused(TestMember leader, BpmnModelInstance model, String problem) {
    Answer answer = deploy(leader, "bad.bpmn", xml(model));
    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason()).contains(problem);
  }
}

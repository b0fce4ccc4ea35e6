package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.camunda.zeebe.model.bpmn.builder.MultiInstanceLoopCharacteristicsBuilder;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Multi-instance activities: parallel and sequential, input and output collections, events. */
class MultiInstanceTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;
  private static final ProcessInstanceIntent TERMINATED = ProcessInstanceIntent.ELEMENT_TERMINATED;

  /** start, a multi-instance task "work" over {@code items}, then task "after", end. */
  private static BpmnModelInstance loop(Consumer<MultiInstanceLoopCharacteristicsBuilder> loop) {
    return Bpmn.createExecutableProcess("loop")
        .startEvent("start")
        .serviceTask("work", t -> t.zeebeJobType("work").multiInstance(loop))
        .serviceTask("after", t -> t.zeebeJobType("after"))
        .endEvent("end")
        .done();
  }

  private static void collecting(MultiInstanceLoopCharacteristicsBuilder loop, boolean sequential) {
    if (sequential) {
      loop.sequential();
    } else {
      loop.parallel();
    }
    loop.zeebeInputCollectionExpression("items")
        .zeebeInputElement("item")
        .zeebeOutputCollection("results")
        .zeebeOutputElementExpression("result");
  }

  @Test
  void aParallelActivityRunsOneInstancePerItemAndCollectsOutputsInItemOrder() {
    TestMember leader = leader();
    deployed(deploy(leader, "loop.bpmn", xml(loop(l -> collecting(l, false)))));
    create(leader, "loop", "{\"items\": [1, 2, 3]}");

    await(() -> countOf(JobIntent.CREATED) == 3, "three jobs");
    JobBatchValue batch = activate(leader, "work", 10);
    assertThat(batch.jobs).hasSize(3);
    // Each inner instance sees its own item and 1-based loop counter.
    List<Object> items = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Map<?, ?> seen = (Map<?, ?>) JsonDocuments.toJava(batch.jobs.get(i).variables);
      assertThat(seen.get("loopCounter")).isEqualTo(seen.get("item"));
      items.add(seen.get("item"));
    }
    assertThat(items).containsExactlyInAnyOrder(1L, 2L, 3L);
    // Completed in reverse order, the outputs still land in item order.
    for (int i = 2; i >= 0; i--) {
      Map<?, ?> seen = (Map<?, ?>) JsonDocuments.toJava(batch.jobs.get(i).variables);
      Answer done =
          completeJob(leader, batch.jobKeys.get(i), "{\"result\": \"r" + seen.get("item") + "\"}");
      assertThat(done.rejection()).isEqualTo(RejectionType.NONE);
    }

    JobBatchValue after = activateWhenAvailable(leader, "after", List.of("results"));
    assertThat(JsonDocuments.toJava(after.jobs.get(0).variables))
        .isEqualTo(Map.of("results", List.of("r1", "r2", "r3")));
    // Three inner instances and the body complete; the flow out of "work" is taken once.
    assertThat(lifecycle().stream().filter(("work " + COMPLETED)::equals)).hasSize(4);
    assertThat(
            lifecycle().stream()
                .filter(("after " + ProcessInstanceIntent.ELEMENT_ACTIVATED)::equals))
        .hasSize(1);
  }

  @Test
  void aSequentialActivityRunsItsInstancesOneAfterAnother() {
    TestMember leader = leader();
    deployed(deploy(leader, "loop.bpmn", xml(loop(l -> collecting(l, true)))));
    create(leader, "loop", "{\"items\": [\"a\", \"b\"]}");

    JobBatchValue first = activateWhenAvailable(leader, "work", List.of("item", "loopCounter"));
    assertThat(JsonDocuments.toJava(first.jobs.get(0).variables))
        .isEqualTo(Map.of("item", "a", "loopCounter", 1L));
    assertThat(activate(leader, "work", 10).jobs).as("the second waits for the first").isEmpty();
    completeJob(leader, first.jobKeys.get(0), "{\"result\": 10}");

    JobBatchValue second = activateWhenAvailable(leader, "work", List.of("item", "loopCounter"));
    assertThat(JsonDocuments.toJava(second.jobs.get(0).variables))
        .isEqualTo(Map.of("item", "b", "loopCounter", 2L));
    completeJob(leader, second.jobKeys.get(0), "{\"result\": 20}");

    JobBatchValue after = activateWhenAvailable(leader, "after", List.of("results"));
    assertThat(JsonDocuments.toJava(after.jobs.get(0).variables))
        .isEqualTo(Map.of("results", List.of(10L, 20L)));
    assertThat(countOf(JobIntent.CREATED)).isEqualTo(3);
  }

  @Test
  void anEmptyCollectionCompletesTheActivityAtOnceWithAnEmptyOutputCollection() {
    TestMember leader = leader();
    deployed(deploy(leader, "loop.bpmn", xml(loop(l -> collecting(l, false)))));
    create(leader, "loop", "{\"items\": []}");

    JobBatchValue after = activateWhenAvailable(leader, "after", List.of("results"));
    assertThat(JsonDocuments.toJava(after.jobs.get(0).variables))
        .isEqualTo(Map.of("results", List.of()));
    assertThat(countOf(JobIntent.CREATED)).isEqualTo(1); // only "after"
  }

  @Test
  void anInputCollectionThatIsNoListRaisesAnIncidentThatResolvingRetries() {
    TestMember leader = leader();
    deployed(deploy(leader, "loop.bpmn", xml(loop(l -> collecting(l, false)))));
    long instance = create(leader, "loop", "{\"items\": 5}").key();

    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
    assertThat(incident.errorType).isEqualTo(ErrorType.EXTRACT_VALUE_ERROR);
    assertThat(incident.errorMessage)
        .contains("input collection")
        .contains("'work'")
        .contains("must give a list");

    assertThat(setVariables(leader, instance, "{\"items\": [7]}", false).rejection())
        .isEqualTo(RejectionType.NONE);
    resolveIncident(leader, firstKeyOf(IncidentIntent.CREATED));
    JobBatchValue work = activateWhenAvailable(leader, "work", List.of("item"));
    assertThat(JsonDocuments.toJava(work.jobs.get(0).variables)).isEqualTo(Map.of("item", 7L));
  }

  @Test
  void anErrorFromOneInnerInstanceIsCaughtOnTheBodyAndTerminatesTheOthers() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("loop")
            .startEvent("start")
            .serviceTask(
                "work",
                t ->
                    t.zeebeJobType("work")
                        .multiInstance(l -> l.parallel().zeebeInputCollectionExpression("items")))
            .boundaryEvent("failed", b -> b.error("BROKEN"))
            .endEvent("failed-end")
            .moveToActivity("work")
            .endEvent("end")
            .done();
    deployed(deploy(leader, "loop.bpmn", xml(model)));
    create(leader, "loop", "{\"items\": [1, 2, 3]}");
    await(() -> countOf(JobIntent.CREATED) == 3, "three jobs");
    JobBatchValue batch = activate(leader, "work", 10);

    throwError(leader, batch.jobKeys.get(1), "BROKEN", "", "");
    await(() -> lifecycle().contains("loop " + COMPLETED), "the process to end at the boundary");
    assertThat(lifecycle().stream().filter(("work " + TERMINATED)::equals))
        .as("three inner instances and the body")
        .hasSize(4);
    assertThat(lifecycle()).contains("failed-end " + COMPLETED).doesNotContain("end " + COMPLETED);
    // The thrower's job (as for a task without multi-instance) and the two others' go.
    assertThat(countOf(JobIntent.CANCELED)).isEqualTo(3);
    assertThat(activate(leader, "work", 10).jobs).isEmpty();
  }

  @Test
  void aMultiInstanceSubprocessGivesEachInnerInstanceItsItem() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("loop")
            .startEvent("start")
            .subProcess(
                "sub",
                s ->
                    s.multiInstance(
                        l ->
                            l.sequential()
                                .zeebeInputCollectionExpression("items")
                                .zeebeInputElement("item")))
            .embeddedSubProcess()
            .startEvent("sub-start")
            .serviceTask("inside", t -> t.zeebeJobType("inside"))
            .endEvent("sub-end")
            .subProcessDone()
            .endEvent("end")
            .done();
    deployed(deploy(leader, "loop.bpmn", xml(model)));
    create(leader, "loop", "{\"items\": [\"x\", \"y\"]}");

    for (String expected : List.of("x", "y")) {
      JobBatchValue inside = activateWhenAvailable(leader, "inside", List.of("item"));
      assertThat(JsonDocuments.toJava(inside.jobs.get(0).variables))
          .isEqualTo(Map.of("item", expected));
      completeJob(leader, inside.jobKeys.get(0));
    }
    await(() -> lifecycle().contains("loop " + COMPLETED), "the process to complete");
    assertThat(lifecycle().stream().filter(("sub " + COMPLETED)::equals)).hasSize(3);
  }

  @Test
  void cancelingTheInstanceTerminatesEveryInnerInstanceAndItsJob() {
    TestMember leader = leader();
    deployed(deploy(leader, "loop.bpmn", xml(loop(l -> collecting(l, false)))));
    long instance = create(leader, "loop", "{\"items\": [1, 2]}").key();
    await(() -> countOf(JobIntent.CREATED) == 2, "two jobs");

    Answer canceled =
        leader.awaitAnswer(
            leader.send(
                ProcessInstanceIntent.CANCEL,
                instance,
                new io.tern.engine.workflow.value.ProcessInstanceValue()));
    assertThat(canceled.rejection()).isEqualTo(RejectionType.NONE);
    await(() -> lifecycle().contains("loop " + TERMINATED), "the instance to be terminated");
    assertThat(lifecycle().stream().filter(("work " + TERMINATED)::equals)).hasSize(3);
    assertThat(countOf(JobIntent.CANCELED)).isEqualTo(2);
    assertThat(activate(leader, "work", 10).jobs).isEmpty();
  }

  @Test
  void aMultiInstanceWithoutInputCollectionIsRejectedNamingTheElement() {
    TestMember leader = leader();
    Answer answer =
        deploy(leader, "loop.bpmn", xml(loop(l -> l.parallel().zeebeOutputCollection("results"))));
    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason()).contains("'work'").contains("inputCollection");
  }

  @Test
  void eachInnerReceiveTaskWaitsForItsOwnMessage() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("loop")
            .startEvent("start")
            .receiveTask(
                "wait",
                r ->
                    r.message(m -> m.name("ready").zeebeCorrelationKeyExpression("item"))
                        .multiInstance(
                            l ->
                                l.parallel()
                                    .zeebeInputCollectionExpression("items")
                                    .zeebeInputElement("item")))
            .serviceTask("after", t -> t.zeebeJobType("after"))
            .endEvent("end")
            .done();
    deployed(deploy(leader, "loop.bpmn", xml(model)));
    create(leader, "loop", "{\"items\": [\"k1\", \"k2\"]}");
    await(
        () -> countOf(MessageSubscriptionIntent.CREATED) == 2,
        "one subscription per inner instance");

    publish(leader, "ready", "k2", 60_000, "", "");
    await(() -> lifecycle().contains("wait " + COMPLETED), "the inner instance for k2");
    assertThat(activate(leader, "after", 1).jobs).as("k1 still waits").isEmpty();
    publish(leader, "ready", "k1", 60_000, "", "");
    awaitJob(leader, "after");
  }

  @Test
  void aTimerBoundaryEventBelongsToTheBodyNotToEachInnerInstance() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("loop")
            .startEvent("start")
            .serviceTask(
                "work",
                t ->
                    t.zeebeJobType("work")
                        .multiInstance(l -> l.parallel().zeebeInputCollectionExpression("items")))
            .boundaryEvent("late", b -> b.cancelActivity(true).timerWithDuration("PT0.2S"))
            .endEvent("late-end")
            .moveToActivity("work")
            .endEvent("end")
            .done();
    deployed(deploy(leader, "loop.bpmn", xml(model)));
    create(leader, "loop", "{\"items\": [1, 2, 3]}");

    await(() -> lifecycle().contains("late-end " + COMPLETED), "the timer to interrupt the body");
    assertThat(countOf(TimerIntent.CREATED)).isEqualTo(1);
    assertThat(lifecycle().stream().filter(("work " + TERMINATED)::equals)).hasSize(4);
    assertThat(countOf(JobIntent.CANCELED)).isEqualTo(3);
  }
}

package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.protocol.ProcessInstanceIntent;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Joining inclusive gateways wait only for the branches that may still reach them: tokens that were
 * never sent, or that went where they cannot come back, do not hold the join; a loop back through
 * the gateway does not hold it either. Each test's log is replayed by a new member afterwards.
 */
class InclusiveJoinTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent ACTIVATING = ProcessInstanceIntent.ELEMENT_ACTIVATING;
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;

  /**
   * An inclusive fork to tasks a (x > 1), b (x > 5) and c (x > 10), joined by inclusive gateway
   * "merge" before task "after".
   */
  private static BpmnModelInstance forkAndJoin() {
    return Bpmn.createExecutableProcess("join")
        .startEvent("start")
        .inclusiveGateway("split")
        .conditionExpression("= x > 1")
        .serviceTask("a", t -> t.zeebeJobType("a"))
        .inclusiveGateway("merge")
        .serviceTask("after", t -> t.zeebeJobType("after"))
        .endEvent("end")
        .moveToNode("split")
        .conditionExpression("= x > 5")
        .serviceTask("b", t -> t.zeebeJobType("b"))
        .connectTo("merge")
        .moveToNode("split")
        .conditionExpression("= x > 10")
        .serviceTask("c", t -> t.zeebeJobType("c"))
        .connectTo("merge")
        .done();
  }

  private void completeWhenActive(TestMember leader, String type) {
    completeJob(leader, awaitJob(leader, type));
    await(() -> lifecycle().contains(type + " " + COMPLETED), type + " to complete");
  }

  private long occurrences(String line) {
    return Collections.frequency(lifecycle(), line);
  }

  @Test
  void joinsTheTakenBranchesOnceTheLastOfThemArrives() {
    TestMember leader = leader();
    deployed(deploy(leader, "join.bpmn", xml(forkAndJoin())));
    create(leader, "join", "{\"x\": 6}");

    completeWhenActive(leader, "a");
    completeWhenActive(leader, "b");
    awaitJob(leader, "after");

    List<String> lifecycle = lifecycle();
    assertThat(lifecycle).containsSubsequence("b " + COMPLETED, "merge " + ACTIVATING);
    assertThat(occurrences("merge " + COMPLETED)).isEqualTo(1);
    assertThat(lifecycle).doesNotContain("c " + ACTIVATING);
  }

  @Test
  void oneTakenBranchJoinsAsSoonAsItArrives() {
    TestMember leader = leader();
    deployed(deploy(leader, "join.bpmn", xml(forkAndJoin())));
    create(leader, "join", "{\"x\": 3}");

    completeWhenActive(leader, "a");
    awaitJob(leader, "after");
    assertThat(occurrences("merge " + COMPLETED)).isEqualTo(1);
  }

  @Test
  void aBranchThatCannotReachTheJoinDoesNotHoldIt() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("elsewhere")
            .startEvent("start")
            .parallelGateway("split")
            .serviceTask("a", t -> t.zeebeJobType("a"))
            .inclusiveGateway("merge")
            .serviceTask("after", t -> t.zeebeJobType("after"))
            .endEvent("end")
            .moveToNode("split")
            .serviceTask("c", t -> t.zeebeJobType("c"))
            .connectTo("merge")
            .moveToNode("split")
            .serviceTask("b", t -> t.zeebeJobType("b"))
            .endEvent("b-end")
            .done();
    deployed(deploy(leader, "elsewhere.bpmn", xml(model)));
    create(leader, "elsewhere", "{}");

    completeWhenActive(leader, "a");
    completeWhenActive(leader, "b"); // b cannot reach the join, but c still can: it waits
    completeWhenActive(leader, "c");
    awaitJob(leader, "after");
    assertThat(lifecycle()).containsSubsequence("c " + COMPLETED, "merge " + ACTIVATING);

    create(leader, "elsewhere", "{}");
    completeWhenActive(leader, "a");
    completeWhenActive(leader, "c");
    // b is still active, and cannot reach the join: it does not hold it.
    await(() -> occurrences("merge " + COMPLETED) == 2, "the second instance's join");
    assertThat(occurrences("b " + COMPLETED)).isEqualTo(1);
    awaitJob(leader, "b");
  }

  @Test
  void aTokenOnItsWayToAnElementHoldsTheJoinUntilItIsPlaced() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("direct")
            .startEvent("start")
            .parallelGateway("split")
            .inclusiveGateway("merge")
            .serviceTask("after", t -> t.zeebeJobType("after"))
            .endEvent("end")
            .moveToNode("split")
            .serviceTask("a", t -> t.zeebeJobType("a"))
            .connectTo("merge")
            .done();
    deployed(deploy(leader, "direct.bpmn", xml(model)));
    create(leader, "direct", "{}");

    completeWhenActive(leader, "a");
    awaitJob(leader, "after");
    assertThat(lifecycle()).containsSubsequence("a " + COMPLETED, "merge " + ACTIVATING);
    assertThat(occurrences("merge " + COMPLETED)).isEqualTo(1);
  }

  @Test
  void aLoopBackThroughTheJoinDoesNotHoldIt() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("loop")
            .startEvent("start")
            .inclusiveGateway("merge")
            .serviceTask("work", t -> t.zeebeJobType("work"))
            .exclusiveGateway("again")
            .conditionExpression("= done")
            .endEvent("end")
            .moveToNode("again")
            .conditionExpression("= not(done)")
            .connectTo("merge")
            .done();
    deployed(deploy(leader, "loop.bpmn", xml(model)));
    create(leader, "loop", "{\"done\": false}");

    completeJob(leader, awaitJob(leader, "work"), "{\"done\": false}");
    completeJob(leader, awaitJob(leader, "work"), "{\"done\": false}");
    completeJob(leader, awaitJob(leader, "work"), "{\"done\": true}");
    await(() -> lifecycle().contains("loop " + COMPLETED), "the instance to complete");
    assertThat(occurrences("merge " + COMPLETED)).isEqualTo(3);
  }

  @Test
  void tokensArrivingTwiceOnOneFlowJoinOneAtATime() {
    TestMember leader = leader();
    // Both branches of the fork lead to the same incoming flow of the join, through "a" and "b":
    // the join takes one token at a time, so "after" runs twice.
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("twice")
            .startEvent("start")
            .parallelGateway("split")
            .serviceTask("a", t -> t.zeebeJobType("a"))
            .exclusiveGateway("funnel")
            .inclusiveGateway("merge")
            .serviceTask("after", t -> t.zeebeJobType("after"))
            .endEvent("end")
            .moveToNode("split")
            .serviceTask("b", t -> t.zeebeJobType("b"))
            .connectTo("funnel")
            .moveToNode("split")
            .serviceTask("c", t -> t.zeebeJobType("c"))
            .connectTo("merge")
            .done();
    deployed(deploy(leader, "twice.bpmn", xml(model)));
    create(leader, "twice", "{}");

    completeWhenActive(leader, "c");
    completeWhenActive(leader, "a");
    completeWhenActive(leader, "b");
    completeJob(leader, awaitJob(leader, "after"));
    completeJob(leader, awaitJob(leader, "after"));
    await(() -> lifecycle().contains("twice " + COMPLETED), "the instance to complete");
    assertThat(occurrences("merge " + COMPLETED)).isEqualTo(2);
  }
}

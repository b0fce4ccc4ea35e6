package io.tern.engine.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.record.sbe.RejectionType;
import java.util.function.Function;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every FEEL expression of a process is parsed at deployment: a broken one rejects the deployment
 * naming the element, the expression and the parser's message, instead of deploying and leaving
 * each instance stuck where it is evaluated.
 */
class FeelAtDeploymentTest extends WorkflowTestBase {
  private static final String BROKEN = "= x >";

  record Case(String elementId, Function<String, BpmnModelInstance> model) {}

  static java.util.stream.Stream<Named<Case>> places() {
    return java.util.stream.Stream.of(
        Named.of(
            "a sequence flow's condition",
            new Case(
                "to-big",
                feel ->
                    Bpmn.createExecutableProcess("p")
                        .startEvent()
                        .exclusiveGateway("split")
                        .sequenceFlowId("to-big")
                        .conditionExpression(feel)
                        .endEvent("big")
                        .moveToNode("split")
                        .sequenceFlowId("otherwise")
                        .conditionExpression("= true")
                        .endEvent("small")
                        .done())),
        Named.of(
            "an input mapping",
            new Case(
                "task",
                feel ->
                    Bpmn.createExecutableProcess("p")
                        .startEvent()
                        .serviceTask(
                            "task", t -> t.zeebeJobType("t").zeebeInputExpression(feel, "a"))
                        .endEvent()
                        .done())),
        Named.of(
            "a job type",
            new Case(
                "task",
                feel ->
                    Bpmn.createExecutableProcess("p")
                        .startEvent()
                        .serviceTask("task", t -> t.zeebeJobTypeExpression(feel.substring(1)))
                        .endEvent()
                        .done())),
        Named.of(
            "a message correlation key",
            new Case(
                "wait",
                feel ->
                    Bpmn.createExecutableProcess("p")
                        .startEvent()
                        .intermediateCatchEvent(
                            "wait", e -> e.message(m -> m.name("m").zeebeCorrelationKey(feel)))
                        .endEvent()
                        .done())),
        Named.of(
            "a timer duration",
            new Case(
                "later",
                feel ->
                    Bpmn.createExecutableProcess("p")
                        .startEvent()
                        .intermediateCatchEvent("later", e -> e.timerWithDuration(feel))
                        .endEvent()
                        .done())),
        Named.of(
            "a multi-instance input collection",
            new Case(
                "each",
                feel ->
                    Bpmn.createExecutableProcess("p")
                        .startEvent()
                        .serviceTask(
                            "each",
                            t ->
                                t.zeebeJobType("t")
                                    .multiInstance(
                                        m -> m.zeebeInputCollectionExpression(feel.substring(1))))
                        .endEvent()
                        .done())),
        Named.of(
            "a called process id",
            new Case(
                "call",
                feel ->
                    Bpmn.createExecutableProcess("p")
                        .startEvent()
                        .callActivity("call", c -> c.zeebeProcessIdExpression(feel.substring(1)))
                        .endEvent()
                        .done())));
  }

  @ParameterizedTest
  @MethodSource("places")
  void aBrokenExpressionRejectsTheDeploymentNamingElementExpressionAndReason(Case place) {
    TestMember leader = leader();
    Answer answer = deploy(leader, "p.bpmn", xml(place.model().apply(BROKEN)));
    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason())
        .contains("'" + place.elementId() + "'")
        .contains("'" + BROKEN + "'")
        .contains("is not valid FEEL: ");

    Answer fixed = deploy(leader, "p.bpmn", xml(place.model().apply("= x > 1")));
    assertThat(fixed.rejection())
        .as("the same model with a valid expression")
        .isEqualTo(RejectionType.NONE);
  }
}

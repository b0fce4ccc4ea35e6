package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static io.tern.engine.workflow.PoisonDeploymentTest.aNormalInstanceCompletes;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.IncidentValue;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * FEEL expressions built to hold the processor or fill its heap: at deployment they are refused
 * with INVALID_ARGUMENT naming the expression and the budget; at run time they raise an incident
 * naming the expression. The partition goes on, and so does a new leader replaying them.
 */
class PoisonFeelTest extends WorkflowTestBase {
  static final String HUGE = "=string(count(for x in 1..300000000 return x))";

  @Test
  void aMessageStartEventNamedByAHugeLoopIsRefusedAtOnce() {
    TestMember leader = leader();
    long startNs = System.nanoTime();

    Answer answer =
        deploy(
            leader,
            "huge.bpmn",
            xml(
                Bpmn.createExecutableProcess("huge")
                    .startEvent("start")
                    .message(HUGE)
                    .endEvent()
                    .done()));

    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason())
        .contains("'start' (startEvent)")
        .contains("'" + HUGE + "' was stopped: it needs more than 1000000 evaluation steps")
        .contains("the budget of one FEEL evaluation");
    // Without the budget it runs for minutes, or fills the heap (with a cold JVM, on a busy
    // machine, the refusal takes a few seconds here; warm, milliseconds).
    assertThat(System.nanoTime() - startNs).as("refused at once").isLessThan(10_000_000_000L);
    aNormalInstanceCompletes(leader, "after-huge");
  }

  @Test
  void anExpressionNestedTooDeeplyToParseIsRefused() {
    TestMember leader = leader();
    String nested = "=" + "(".repeat(300) + "1" + ")".repeat(300);

    Answer answer =
        deploy(
            leader,
            "nested.bpmn",
            xml(
                Bpmn.createExecutableProcess("nested")
                    .startEvent()
                    .serviceTask("task", t -> t.zeebeJobType("t").zeebeInputExpression(nested, "a"))
                    .endEvent()
                    .done()));

    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason())
        .contains("'task' (serviceTask)")
        .contains("brackets nested more than 64 deep");
    aNormalInstanceCompletes(leader, "after-nested");
  }

  @Test
  void aHugeLoopAtRunTimeRaisesAnIncidentNamingTheExpression() {
    TestMember first = leader();
    String loop = "=count(for x in 1..n return x)";
    deployed(
        deploy(
            first,
            "loop.bpmn",
            xml(
                Bpmn.createExecutableProcess("loop")
                    .startEvent()
                    .manualTask("count")
                    .zeebeInputExpression(loop, "counted")
                    .endEvent()
                    .done())));

    create(first, "loop", "{\"n\": 300000000}");
    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
    assertThat(incident.elementId).isEqualTo("count");
    assertThat(incident.errorMessage)
        .contains("'" + loop + "'")
        .contains("was stopped: it needs more than 1000000 evaluation steps")
        .contains("the range 1..300000000");
    create(first, "loop", "{\"n\": 1000}"); // the same expression within its budget
    await(
        () -> lifecycle().contains("loop " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "the instance counting to 1000 to complete");

    first.close(); // killed: the next leader replays the incident
    members.remove(first);
    TestMember second = takeOver("second");
    assertThat(second.processor.phase()).isEqualTo(ProcessorPhase.PROCESSING);
    aNormalInstanceCompletes(second, "after-loop");
  }
}

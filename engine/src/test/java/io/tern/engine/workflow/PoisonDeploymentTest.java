package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.sbe.RejectionType;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Deployments built to take a partition down (poison pills) are refused with INVALID_ARGUMENT
 * naming the limit and the element, before any parser recursing once per level sees them; the
 * partition goes on deploying and running instances, and so does a new leader replaying them.
 */
class PoisonDeploymentTest extends WorkflowTestBase {
  private static final String DEFINITIONS =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
          + "<bpmn:definitions xmlns:bpmn=\"http://www.omg.org/spec/BPMN/20100524/MODEL\""
          + " xmlns:zeebe=\"http://camunda.org/schema/zeebe/1.0\""
          + " id=\"d\" targetNamespace=\"http://tern.io\">";

  /** A process whose start event is wrapped in {@code levels} embedded subprocesses. */
  static byte[] nested(int levels) {
    StringBuilder xml = new StringBuilder(DEFINITIONS);
    xml.append("<bpmn:process id=\"deep\" isExecutable=\"true\"><bpmn:startEvent id=\"s\"/>");
    for (int i = 0; i < levels; i++) {
      xml.append("<bpmn:subProcess id=\"sub").append(i).append("\">");
      xml.append("<bpmn:startEvent id=\"start").append(i).append("\"/>");
    }
    xml.append("</bpmn:subProcess>".repeat(levels));
    xml.append("</bpmn:process></bpmn:definitions>");
    return xml.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aProcessNested3000Or20000LevelsDeepIsRefusedNamingTheLimit() {
    TestMember leader = leader();

    for (int levels : new int[] {3_000, 20_000}) {
      long startNs = System.nanoTime();
      Answer answer = deploy(leader, "deep.bpmn", nested(levels));
      assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
      assertThat(answer.reason())
          .contains("'deep.bpmn' cannot be deployed")
          .contains("'start97' (startEvent) is nested 101 levels deep")
          .contains("at most 100 levels (processing.limits.maxNestingDepth)");
      assertThat(System.nanoTime() - startNs).as("refused at once").isLessThan(2_000_000_000L);
    }
    assertThat(deployed(deploy(leader, "fine.bpmn", nested(20))).bpmnProcessId()).isEqualTo("deep");
    aNormalInstanceCompletes(leader, "after-nesting");
  }

  /** A process of 10,001 elements: one more than the default limit. */
  static byte[] wide() {
    StringBuilder xml = new StringBuilder(DEFINITIONS);
    xml.append("<bpmn:process id=\"wide\" isExecutable=\"true\"><bpmn:startEvent id=\"s\"/>");
    for (int i = 0; i < 10_000; i++) {
      xml.append("<bpmn:endEvent id=\"e").append(i).append("\"/>");
    }
    xml.append("</bpmn:process></bpmn:definitions>");
    return xml.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** A process whose task maps an expression of 9,004 characters. */
  static byte[] longExpression() {
    String expression = "= \"" + "x".repeat(9_000) + "\"";
    return xml(
        Bpmn.createExecutableProcess("long")
            .startEvent()
            .serviceTask("task", t -> t.zeebeJobType("t").zeebeInputExpression(expression, "a"))
            .endEvent()
            .done());
  }

  @Test
  void aProcessWithTooManyElementsIsRefusedNamingTheProcessAndTheLimit() {
    TestMember leader = leader();

    Answer answer = deploy(leader, "wide.bpmn", wide());

    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason())
        .contains("'wide' (process) holds more than 10000 elements")
        .contains("(processing.limits.maxElementsPerProcess)")
        .contains("'e9999' (endEvent) is one too many");
    aNormalInstanceCompletes(leader, "after-wide");
  }

  @Test
  void anOverlongExpressionIsRefusedNamingTheElementAndTheLimit() {
    TestMember leader = leader();

    Answer answer = deploy(leader, "long.bpmn", longExpression());

    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason())
        .contains("in 'task' (serviceTask) has an expression of 9004 characters")
        .contains("at most 8192 characters long (processing.limits.maxExpressionChars)");
    aNormalInstanceCompletes(leader, "after-long");
  }

  @Test
  void aNewLeaderReplaysTheRefusedPillsAndGoesOn() {
    TestMember first = leader();
    assertThat(deploy(first, "deep.bpmn", nested(3_000)).rejection())
        .isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(deploy(first, "wide.bpmn", wide()).rejection())
        .isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(deploy(first, "long.bpmn", longExpression()).rejection())
        .isEqualTo(RejectionType.INVALID_ARGUMENT);
    aNormalInstanceCompletes(first, "before");

    first.close(); // killed: the next leader replays the pill from the log
    members.remove(first);
    TestMember second = takeOver("second");

    assertThat(second.processor.phase()).isEqualTo(ProcessorPhase.PROCESSING);
    aNormalInstanceCompletes(second, "after");
  }

  /** Deploys a process of one start and one end event, and runs an instance to its end. */
  static void aNormalInstanceCompletes(TestMember leader, String processId) {
    deployed(
        deploy(
            leader,
            processId + ".bpmn",
            xml(Bpmn.createExecutableProcess(processId).startEvent().endEvent().done())));
    create(leader, processId);
    await(
        () ->
            lifecycle(leader.log)
                .contains(processId + " " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "an instance of " + processId + " to complete");
  }
}

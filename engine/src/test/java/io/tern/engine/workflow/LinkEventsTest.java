package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.sbe.RejectionType;
import org.junit.jupiter.api.Test;

/** Link events: a link throw event goes on at the catch event of its name in the same scope. */
class LinkEventsTest extends WorkflowTestBase {
  private static final ProcessInstanceIntent ACTIVATED = ProcessInstanceIntent.ELEMENT_ACTIVATED;
  private static final ProcessInstanceIntent COMPLETED = ProcessInstanceIntent.ELEMENT_COMPLETED;

  /** Task "before", then a jump by link {@code throwName} to catch event {@code catchName}. */
  private static byte[] linked(String throwName, String catchName) {
    return ("""
        <?xml version="1.0" encoding="UTF-8"?>
        <bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
            xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" id="d"
            targetNamespace="http://bpmn.io/schema/bpmn">
          <bpmn:process id="p" isExecutable="true">
            <bpmn:startEvent id="start"><bpmn:outgoing>f1</bpmn:outgoing></bpmn:startEvent>
            <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="before" />
            <bpmn:serviceTask id="before">
              <bpmn:extensionElements><zeebe:taskDefinition type="before" /></bpmn:extensionElements>
              <bpmn:incoming>f1</bpmn:incoming><bpmn:outgoing>f2</bpmn:outgoing>
            </bpmn:serviceTask>
            <bpmn:sequenceFlow id="f2" sourceRef="before" targetRef="to-b" />
            <bpmn:intermediateThrowEvent id="to-b">
              <bpmn:incoming>f2</bpmn:incoming>
              <bpmn:linkEventDefinition id="l1" name="THROW" />
            </bpmn:intermediateThrowEvent>
            <bpmn:intermediateCatchEvent id="from-a">
              <bpmn:outgoing>f3</bpmn:outgoing>
              <bpmn:linkEventDefinition id="l2" name="CATCH" />
            </bpmn:intermediateCatchEvent>
            <bpmn:sequenceFlow id="f3" sourceRef="from-a" targetRef="after" />
            <bpmn:serviceTask id="after">
              <bpmn:extensionElements><zeebe:taskDefinition type="after" /></bpmn:extensionElements>
              <bpmn:incoming>f3</bpmn:incoming><bpmn:outgoing>f4</bpmn:outgoing>
            </bpmn:serviceTask>
            <bpmn:sequenceFlow id="f4" sourceRef="after" targetRef="end" />
            <bpmn:endEvent id="end"><bpmn:incoming>f4</bpmn:incoming></bpmn:endEvent>
          </bpmn:process>
        </bpmn:definitions>
        """)
        .strip()
        .replace("THROW", throwName)
        .replace("CATCH", catchName)
        .getBytes(UTF_8);
  }

  @Test
  void aLinkThrowEventGoesOnAtTheCatchEventOfItsName() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", (linked("B", "B"))));
    create(leader, "p");
    completeJob(leader, awaitJob(leader, "before"));
    completeJob(leader, awaitJob(leader, "after"));

    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
    assertThat(lifecycle())
        .containsSubsequence(
            "before " + COMPLETED,
            "to-b " + COMPLETED,
            "from-a " + ACTIVATED,
            "from-a " + COMPLETED,
            "after " + ACTIVATED,
            "p " + COMPLETED);
  }

  /**
   * A subprocess that jumps from its start to a link catch event; the process has a catch event of
   * another name (Zeebe wants link names unique in the whole process).
   */
  private static final String SUBPROCESS_LINKS =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
          xmlns:zeebe="http://camunda.org/schema/zeebe/1.0" id="d"
          targetNamespace="http://bpmn.io/schema/bpmn">
        <bpmn:process id="p" isExecutable="true">
          <bpmn:startEvent id="start"><bpmn:outgoing>f1</bpmn:outgoing></bpmn:startEvent>
          <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="sub" />
          <bpmn:subProcess id="sub">
            <bpmn:incoming>f1</bpmn:incoming><bpmn:outgoing>f2</bpmn:outgoing>
            <bpmn:startEvent id="sub-start"><bpmn:outgoing>s1</bpmn:outgoing></bpmn:startEvent>
            <bpmn:sequenceFlow id="s1" sourceRef="sub-start" targetRef="jump" />
            <bpmn:intermediateThrowEvent id="jump">
              <bpmn:incoming>s1</bpmn:incoming>
              <bpmn:linkEventDefinition id="l1" name="L" />
            </bpmn:intermediateThrowEvent>
            <bpmn:intermediateCatchEvent id="landing">
              <bpmn:outgoing>s2</bpmn:outgoing>
              <bpmn:linkEventDefinition id="l2" name="L" />
            </bpmn:intermediateCatchEvent>
            <bpmn:sequenceFlow id="s2" sourceRef="landing" targetRef="inside" />
            <bpmn:serviceTask id="inside">
              <bpmn:extensionElements><zeebe:taskDefinition type="inside" /></bpmn:extensionElements>
              <bpmn:incoming>s2</bpmn:incoming><bpmn:outgoing>s3</bpmn:outgoing>
            </bpmn:serviceTask>
            <bpmn:sequenceFlow id="s3" sourceRef="inside" targetRef="sub-end" />
            <bpmn:endEvent id="sub-end"><bpmn:incoming>s3</bpmn:incoming></bpmn:endEvent>
          </bpmn:subProcess>
          <bpmn:sequenceFlow id="f2" sourceRef="sub" targetRef="after" />
          <bpmn:serviceTask id="after">
            <bpmn:extensionElements><zeebe:taskDefinition type="after" /></bpmn:extensionElements>
            <bpmn:incoming>f2</bpmn:incoming><bpmn:outgoing>f3</bpmn:outgoing>
          </bpmn:serviceTask>
          <bpmn:sequenceFlow id="f3" sourceRef="after" targetRef="end" />
          <bpmn:endEvent id="end"><bpmn:incoming>f3</bpmn:incoming></bpmn:endEvent>
          <bpmn:intermediateCatchEvent id="outer-landing">
            <bpmn:linkEventDefinition id="l3" name="M" />
          </bpmn:intermediateCatchEvent>
        </bpmn:process>
      </bpmn:definitions>
      """;

  @Test
  void aLinkInASubprocessGoesOnInsideIt() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", SUBPROCESS_LINKS.strip().getBytes(UTF_8)));
    create(leader, "p");
    completeJob(leader, awaitJob(leader, "inside"));
    completeJob(leader, awaitJob(leader, "after"));
    await(() -> lifecycle().contains("p " + COMPLETED), "the process to complete");
    assertThat(lifecycle())
        .containsSubsequence(
            "jump " + COMPLETED, "landing " + COMPLETED, "inside " + COMPLETED, "sub " + COMPLETED)
        .doesNotContain("outer-landing " + ACTIVATED);
  }

  @Test
  void aThrowEventDoesNotLeaveItsScope() {
    TestMember leader = leader();
    String outside =
        SUBPROCESS_LINKS
            .strip()
            .replace("name=\"L\"", "name=\"X\"")
            .replace("name=\"M\"", "name=\"L\"");
    outside =
        outside.replace(
            "<bpmn:linkEventDefinition id=\"l2\" name=\"X\" />",
            "<bpmn:linkEventDefinition id=\"l2\" name=\"Y\" />");
    outside =
        outside.replace(
            "<bpmn:linkEventDefinition id=\"l1\" name=\"X\" />",
            "<bpmn:linkEventDefinition id=\"l1\" name=\"L\" />");
    Answer answer = deploy(leader, "p.bpmn", outside.getBytes(UTF_8));
    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason()).contains("'jump'").contains("no link catch event named 'L'");
  }

  @Test
  void twoCatchEventsOfOneNameInAScopeAreRejected() {
    TestMember leader = leader();
    String twice =
        SUBPROCESS_LINKS
            .strip()
            .replace("<bpmn:intermediateCatchEvent id=\"outer-landing\">", "")
            .replace("<bpmn:linkEventDefinition id=\"l3\" name=\"M\" />", "")
            .replace("</bpmn:intermediateCatchEvent>\n  </bpmn:process>", "</bpmn:process>")
            .replace(
                "<bpmn:sequenceFlow id=\"s2\"",
                "<bpmn:intermediateCatchEvent id=\"second\"><bpmn:linkEventDefinition id=\"l4\""
                    + " name=\"L\" /></bpmn:intermediateCatchEvent><bpmn:sequenceFlow id=\"s2\"");
    Answer answer = deploy(leader, "p.bpmn", twice.getBytes(UTF_8));
    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason()).contains("'second'").contains("link name 'L'");
  }

  @Test
  void aThrowEventWithoutACatchEventOfItsNameIsRejectedNamingIt() {
    TestMember leader = leader();
    Answer answer = deploy(leader, "p.bpmn", (linked("B", "C")));
    assertThat(answer.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(answer.reason()).contains("'to-b'").contains("no link catch event named 'B'");
  }
}

package io.tern.engine.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.camunda.client.CamundaClient;
import io.camunda.client.api.command.ClientStatusException;
import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.grpc.Status;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The poison pills of issue 44, sent as an attacker would, through the official client to three
 * brokers: a BPMN nested 3,000 and 20,000 levels deep, a process of 10,001 elements, an expression
 * of 9,004 characters, a message start event named by a loop over 300,000,000 numbers, the same
 * loop at run time, and in a DMN decision (EvaluateDecision, and a business rule task). Each is
 * refused (or raises an incident), the broker stays healthy and a normal instance completes; then
 * the same after partition 1's leader is stopped and another one, which replays the pills from the
 * log, leads.
 */
@Tag("slow") // a three-broker cluster under a poison command: docs/testing.md
class PoisonPillClusterTest {
  private static final Duration READY = Duration.ofSeconds(90);
  private static final String DEFINITIONS =
      "<bpmn:definitions xmlns:bpmn=\"http://www.omg.org/spec/BPMN/20100524/MODEL\""
          + " id=\"d\" targetNamespace=\"http://tern.io\">";
  private static final String PROCESS =
      "<bpmn:process id=\"pill\" isExecutable=\"true\"><bpmn:startEvent id=\"s\"/>";

  /** A decision table whose output entry counts to n: over the FEEL budget for huge n. */
  private static final String COSTLY_DMN =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="costly"
          name="Costly" namespace="http://camunda.org/schema/1.0/dmn">
        <decision id="counted" name="Counted">
          <decisionTable id="table" hitPolicy="FIRST">
            <input id="in" label="n">
              <inputExpression id="inExpression" typeRef="number"><text>n</text></inputExpression>
            </input>
            <output id="out" name="counted" typeRef="number"/>
            <rule id="rule">
              <inputEntry id="entry"><text>-</text></inputEntry>
              <outputEntry id="outEntry"><text>count(for x in 1..n return x)</text></outputEntry>
            </rule>
          </decisionTable>
        </decision>
      </definitions>
      """;

  @TempDir Path dir;

  @Test
  void theBrokersAnswerEveryPillAndANewLeaderReplayingThemToo() throws Exception {
    try (TestCluster cluster = new TestCluster(dir, 3, 1, 3).start();
        CamundaClient client = cluster.client()) {
      cluster.awaitReady(READY);
      assertThat(cluster.gateway().awaitLeaders(READY)).isTrue();
      deploy(
          client,
          "loop.bpmn",
          Bpmn.createExecutableProcess("loop")
              .startEvent()
              .manualTask("count")
              .zeebeInputExpression("=count(for x in 1..n return x)", "counted")
              .endEvent()
              .done());
      client
          .newDeployResourceCommand()
          .addResourceBytes(COSTLY_DMN.strip().getBytes(StandardCharsets.UTF_8), "costly.dmn")
          .send()
          .join(20, TimeUnit.SECONDS);
      deploy(
          client,
          "rules.bpmn",
          Bpmn.createExecutableProcess("rules")
              .startEvent()
              .businessRuleTask(
                  "decide", t -> t.zeebeCalledDecisionId("counted").zeebeResultVariable("counted"))
              .endEvent()
              .done());
      deploy(
          client,
          "normal.bpmn",
          Bpmn.createExecutableProcess("normal").startEvent().endEvent().done());

      sendThePillsAndRunANormalInstance(cluster, client);
      int victim = cluster.leaderOf(1);
      cluster.stop(victim);
      cluster.awaitReady(READY);
      assertThat(cluster.leaderOf(1)).isNotEqualTo(victim);
      sendThePillsAndRunANormalInstance(cluster, client);
    }
  }

  private static void sendThePillsAndRunANormalInstance(TestCluster cluster, CamundaClient client)
      throws Exception {
    for (int levels : new int[] {3_000, 20_000}) {
      assertRefused(client, "deep.bpmn", nested(levels), "processing.limits.maxNestingDepth");
    }
    StringBuilder wide = new StringBuilder(DEFINITIONS).append(PROCESS);
    for (int i = 0; i < 10_000; i++) {
      wide.append("<bpmn:endEvent id=\"e").append(i).append("\"/>");
    }
    wide.append("</bpmn:process></bpmn:definitions>");
    assertRefused(
        client,
        "wide.bpmn",
        wide.toString().getBytes(StandardCharsets.UTF_8),
        "processing.limits.maxElementsPerProcess");
    String longExpression = "= \"" + "x".repeat(9_000) + "\"";
    byte[] expression =
        xml(
            Bpmn.createExecutableProcess("long")
                .startEvent()
                .manualTask("task")
                .zeebeInputExpression(longExpression, "a")
                .endEvent()
                .done());
    assertRefused(client, "long.bpmn", expression, "processing.limits.maxExpressionChars");
    byte[] huge =
        xml(
            Bpmn.createExecutableProcess("huge")
                .startEvent()
                .message("=string(count(for x in 1..300000000 return x))")
                .endEvent()
                .done());
    assertRefused(client, "huge.bpmn", huge, "the budget of one FEEL evaluation");
    // At run time the loop raises an incident; the instance is created all the same.
    assertThat(
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("loop")
                .latestVersion()
                .variables("{\"n\": 300000000}")
                .send()
                .join(20, TimeUnit.SECONDS)
                .getProcessInstanceKey())
        .isPositive();

    // A decision over the budget: EvaluateDecision is refused naming the decision and expression,
    // and a business rule task raises an incident (its instance is created all the same).
    assertThatThrownBy(
            () ->
                client
                    .newEvaluateDecisionCommand()
                    .decisionId("counted")
                    .variables("{\"n\": 300000000}")
                    .send()
                    .join(20, TimeUnit.SECONDS))
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.INVALID_ARGUMENT))
        .hasMessageContaining(
            "the expression 'count(for x in 1..n return x)' of decision 'counted'")
        .hasMessageContaining("was stopped: it needs more than 1000000 evaluation steps");
    assertThat(
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("rules")
                .latestVersion()
                .variables("{\"n\": 300000000}")
                .send()
                .join(20, TimeUnit.SECONDS)
                .getProcessInstanceKey())
        .isPositive();

    assertThat(health(cluster.broker(cluster.leaderOf(1)))).isEqualTo(200);
    assertThat(
            client
                .newCreateInstanceCommand()
                .bpmnProcessId("normal")
                .latestVersion()
                .withResult()
                .send()
                .join(20, TimeUnit.SECONDS)
                .getBpmnProcessId())
        .isEqualTo("normal");
  }

  private static void assertRefused(
      CamundaClient client, String name, byte[] resource, String limitKey) {
    assertThatThrownBy(
            () ->
                client
                    .newDeployResourceCommand()
                    .addResourceBytes(resource, name)
                    .send()
                    .join(20, TimeUnit.SECONDS))
        .isInstanceOfSatisfying(
            ClientStatusException.class,
            e -> assertThat(e.getStatusCode()).isEqualTo(Status.Code.INVALID_ARGUMENT))
        .hasMessageContaining(name)
        .hasMessageContaining(limitKey);
  }

  /** A process whose end is wrapped in {@code levels} embedded subprocesses. */
  private static byte[] nested(int levels) {
    StringBuilder xml = new StringBuilder(DEFINITIONS).append(PROCESS);
    for (int i = 0; i < levels; i++) {
      xml.append("<bpmn:subProcess id=\"sub").append(i).append("\">");
    }
    xml.append("</bpmn:subProcess>".repeat(levels)).append("</bpmn:process></bpmn:definitions>");
    return xml.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static void deploy(CamundaClient client, String name, BpmnModelInstance model) {
    client
        .newDeployResourceCommand()
        .addResourceBytes(xml(model), name)
        .send()
        .join(20, TimeUnit.SECONDS);
  }

  private static byte[] xml(BpmnModelInstance model) {
    return Bpmn.convertToString(model).getBytes(StandardCharsets.UTF_8);
  }

  private static int health(Broker broker) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + broker.managementPort() + "/actuator/health"))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .statusCode();
  }
}

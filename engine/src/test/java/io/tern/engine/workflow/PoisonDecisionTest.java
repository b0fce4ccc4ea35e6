package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static io.tern.engine.workflow.PoisonDeploymentTest.aNormalInstanceCompletes;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.tern.engine.processor.ProcessorPhase;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.DecisionEvaluationIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.DecisionEvaluationValue;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * DMN decisions whose FEEL is built to hold the processor: every expression of a decision runs
 * under the FEEL budget, wherever it sits (an input expression, an input entry, an output entry, a
 * literal expression of a required decision). A business rule task raises an incident naming the
 * decision and the expression, EvaluateDecision is rejected naming them; the partition goes on, the
 * same decisions with small inputs still evaluate, and a new leader replaying it all decides alike.
 */
class PoisonDecisionTest extends WorkflowTestBase {
  /** Costs {@code n} steps: within the budget for small n, far beyond it for 300,000,000. */
  static final String LOOP = "count(for x in 1..n return x)";

  static final String HUGE_N = "{\"n\": 300000000}";

  /** One file, one decision per place an expression can sit; each gives "counted" or a number. */
  static final byte[] DMN =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="costly"
          name="Costly" namespace="http://camunda.org/schema/1.0/dmn">
        <decision id="inputExpression" name="Input expression">
          <decisionTable id="t1" hitPolicy="FIRST">
            <input id="t1i" label="count">
              <inputExpression id="t1ie" typeRef="number"><text>%1$s</text></inputExpression>
            </input>
            <output id="t1o" name="out" typeRef="string"/>
            <rule id="t1r">
              <inputEntry id="t1ri"><text>-</text></inputEntry>
              <outputEntry id="t1ro"><text>"counted"</text></outputEntry>
            </rule>
          </decisionTable>
        </decision>
        <decision id="inputEntry" name="Input entry">
          <decisionTable id="t2" hitPolicy="FIRST">
            <input id="t2i" label="n">
              <inputExpression id="t2ie" typeRef="number"><text>n</text></inputExpression>
            </input>
            <output id="t2o" name="out" typeRef="string"/>
            <rule id="t2r">
              <inputEntry id="t2ri"><text>count(for x in 1..? return x) &gt; 0</text></inputEntry>
              <outputEntry id="t2ro"><text>"counted"</text></outputEntry>
            </rule>
          </decisionTable>
        </decision>
        <decision id="outputEntry" name="Output entry">
          <decisionTable id="t3" hitPolicy="FIRST">
            <input id="t3i" label="n">
              <inputExpression id="t3ie" typeRef="number"><text>n</text></inputExpression>
            </input>
            <output id="t3o" name="out" typeRef="number"/>
            <rule id="t3r">
              <inputEntry id="t3ri"><text>-</text></inputEntry>
              <outputEntry id="t3ro"><text>%1$s</text></outputEntry>
            </rule>
          </decisionTable>
        </decision>
        <decision id="chain" name="Chain">
          <variable name="chain"/>
          <informationRequirement id="needsCounted">
            <requiredDecision href="#counted"/>
          </informationRequirement>
          <literalExpression id="chainText"><text>counted + 1</text></literalExpression>
        </decision>
        <decision id="counted" name="Counted">
          <variable name="counted"/>
          <literalExpression id="countedText"><text>%1$s</text></literalExpression>
        </decision>
      </definitions>
      """
          .formatted(LOOP)
          .strip()
          .getBytes(StandardCharsets.UTF_8);

  /**
   * Each called decision, the decision named as failed and the expression named; and what it gives
   * for n = 1000.
   */
  record Case(String called, String failed, String expression, Object small) {}

  static final List<Case> CASES =
      List.of(
          new Case("inputExpression", "inputExpression", LOOP, "counted"),
          new Case("inputEntry", "inputEntry", "count(for x in 1..? return x) > 0", "counted"),
          new Case("outputEntry", "outputEntry", LOOP, 1000L),
          new Case("chain", "counted", LOOP, 1001L));

  /** Process "rules": calls the decision named by variable "decision", then job "after". */
  private static void deployDecisionsAndProcess(TestMember leader) {
    DecisionsTest.deployedValue(deploy(leader, "costly.dmn", DMN));
    deployed(
        deploy(
            leader,
            "rules.bpmn",
            xml(
                Bpmn.createExecutableProcess("rules")
                    .startEvent()
                    .businessRuleTask(
                        "decide",
                        t ->
                            t.zeebeCalledDecisionIdExpression("decision")
                                .zeebeResultVariable("result"))
                    .serviceTask("after", t -> t.zeebeJobType("after"))
                    .endEvent()
                    .done())));
  }

  @Test
  void aBusinessRuleTaskOverTheBudgetRaisesAnIncidentNamingTheDecisionAndTheExpression() {
    TestMember first = leader();
    deployDecisionsAndProcess(first);
    long startNs = System.nanoTime();

    for (int i = 0; i < CASES.size(); i++) {
      Case pill = CASES.get(i);
      create(first, "rules", "{\"decision\": \"" + pill.called() + "\", \"n\": 300000000}");
      int incidents = i + 1;
      await(() -> countOf(IncidentIntent.CREATED) == incidents, "an incident for " + pill.called());
      IncidentValue incident =
          new IncidentValue()
              .readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(i)));
      assertThat(incident.elementId).isEqualTo("decide");
      assertThat(incident.errorType).isEqualTo(ErrorType.DECISION_EVALUATION_ERROR);
      assertThat(incident.errorMessage)
          .as(pill.called())
          .contains("decision '" + pill.failed() + "' called by 'decide'")
          .contains("the expression '" + pill.expression() + "'")
          .contains("was stopped: it needs more than 1000000 evaluation steps")
          .contains("the budget of one decision evaluation")
          .contains("the range 1..300000000");
    }
    // Unmetered, the first of them alone counts to 300,000,000 for minutes or fills the heap.
    assertThat(System.nanoTime() - startNs).as("stopped at once").isLessThan(10_000_000_000L);

    for (Case fine : CASES) { // the same decisions within the budget
      create(first, "rules", "{\"decision\": \"" + fine.called() + "\", \"n\": 1000}");
      List<String> fetch = List.of("result");
      Object result =
          JsonDocuments.toJava(activateWhenAvailable(first, "after", fetch).jobs.get(0).variables);
      assertThat(result).as(fine.called()).isEqualTo(Map.of("result", fine.small()));
    }
    aNormalInstanceCompletes(first, "after-decisions");

    first.close(); // killed: the next leader replays the incidents from the log
    members.remove(first);
    TestMember second = takeOver("second");
    assertThat(second.processor.phase()).isEqualTo(ProcessorPhase.PROCESSING);
    create(second, "rules", "{\"decision\": \"chain\", \"n\": 300000000}");
    await(() -> countOf(IncidentIntent.CREATED) == CASES.size() + 1, "the new leader's incident");
    aNormalInstanceCompletes(second, "after-failover");
  }

  @Test
  void evaluateDecisionOverTheBudgetIsRejectedNamingTheDecisionAndTheExpression() {
    TestMember first = leader();
    DecisionsTest.deployedValue(deploy(first, "costly.dmn", DMN));

    for (Case pill : CASES) {
      Answer answer = evaluate(first, pill.called(), HUGE_N);
      assertThat(answer.rejection()).as(pill.called()).isEqualTo(RejectionType.INVALID_ARGUMENT);
      assertThat(answer.reason())
          .as(pill.called())
          .contains("the expression '" + pill.expression() + "'")
          .contains("of decision '" + pill.failed() + "' was stopped")
          .contains("it needs more than 1000000 evaluation steps");

      Answer fine = evaluate(first, pill.called(), "{\"n\": 1000}");
      assertThat(fine.rejection()).as("%s", fine.reason()).isEqualTo(RejectionType.NONE);
      assertThat(fine.intent()).isEqualTo(DecisionEvaluationIntent.EVALUATED);
    }
    aNormalInstanceCompletes(first, "after-evaluations");

    first.close();
    members.remove(first);
    TestMember second = takeOver("second");
    assertThat(evaluate(second, "outputEntry", HUGE_N).rejection())
        .isEqualTo(RejectionType.INVALID_ARGUMENT);
    aNormalInstanceCompletes(second, "after-failover");
  }

  private static Answer evaluate(TestMember member, String decisionId, String variables) {
    DecisionEvaluationValue evaluation = new DecisionEvaluationValue();
    evaluation.decisionId = decisionId;
    evaluation.variables = variables.getBytes(StandardCharsets.UTF_8);
    return member.awaitAnswer(member.send(DecisionEvaluationIntent.EVALUATE, -1, evaluation));
  }
}

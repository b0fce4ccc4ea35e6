package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

/** DMN: deploying decision requirements graphs, and business rule tasks that call a decision. */
class DecisionsTest extends WorkflowTestBase {
  private static final String LITERAL_DMN =
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" id="checks"
          name="Checks" namespace="http://camunda.org/schema/1.0/dmn">
        <decision id="doubled" name="Doubled">
          <literalExpression id="expr">
            <text>assert(amount, amount != null) * %s</text>
          </literalExpression>
        </decision>
      </definitions>
      """;

  /** Process "p": a business rule task ("rules") setting doubled's result, then job "after". */
  static final BpmnModelInstance RULES_THEN_AFTER =
      Bpmn.createExecutableProcess("p")
          .startEvent()
          .businessRuleTask(
              "rules", t -> t.zeebeCalledDecisionId("doubled").zeebeResultVariable("result"))
          .serviceTask("after", t -> t.zeebeJobType("after"))
          .endEvent()
          .done();

  static byte[] resource(String name) throws IOException {
    try (InputStream in = DecisionsTest.class.getResourceAsStream("/bpmn/" + name)) {
      assertThat(in).as(name).isNotNull();
      return in.readAllBytes();
    }
  }

  static byte[] literal(String factor) {
    return LITERAL_DMN.formatted(factor).strip().getBytes(StandardCharsets.UTF_8);
  }

  static DeploymentValue deployedValue(Answer answer) {
    assertThat(answer.rejection()).as("%s", answer.reason()).isEqualTo(RejectionType.NONE);
    return new DeploymentValue().readFrom(new UnsafeBuffer(answer.value()));
  }

  private IncidentValue onlyIncident() {
    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    return new IncidentValue()
        .readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
  }

  @Test
  void aDmnFileDeploysItsGraphAndDecisionsWithVersionsAndKeys() throws IOException {
    TestMember leader = leader();
    byte[] dmn = resource("order-discount.dmn");
    DeploymentValue first = deployedValue(deploy(leader, "order-discount.dmn", dmn));
    assertThat(first.processes).isEmpty();
    assertThat(first.decisions)
        .extracting(DeploymentValue.Decision::decisionId)
        .containsExactly("customerTier", "order-discount");
    DeploymentValue.Decision tier = first.decisions.get(0);
    assertThat(tier.decisionName()).isEqualTo("Customer tier");
    assertThat(tier.version()).isEqualTo(1);
    assertThat(tier.decisionRequirementsId()).isEqualTo("order-discount-rules");
    assertThat(tier.decisionRequirementsName()).isEqualTo("Order discount rules");
    assertThat(tier.decisionRequirementsVersion()).isEqualTo(1);
    assertThat(first.decisions.get(1).decisionRequirementsKey())
        .isEqualTo(tier.decisionRequirementsKey());
    assertThat(first.decisions.get(1).decisionKey()).isNotEqualTo(tier.decisionKey());

    DeploymentValue again = deployedValue(deploy(leader, "order-discount.dmn", dmn));
    assertThat(again.decisions.get(0).duplicate()).isTrue();
    assertThat(again.decisions.get(0).decisionKey()).isEqualTo(tier.decisionKey());

    byte[] changed =
        new String(dmn, StandardCharsets.UTF_8)
            .replace("0.15", "0.2")
            .getBytes(StandardCharsets.UTF_8);
    DeploymentValue second = deployedValue(deploy(leader, "order-discount.dmn", changed));
    assertThat(second.decisions.get(0).duplicate()).isFalse();
    assertThat(second.decisions.get(0).version()).isEqualTo(2);
    assertThat(second.decisions.get(0).decisionRequirementsVersion()).isEqualTo(2);
    assertThat(second.decisions.get(0).decisionKey()).isNotEqualTo(tier.decisionKey());
  }

  @Test
  void invalidDmnIsRefusedNamingTheResource() {
    TestMember leader = leader();
    Answer garbage = deploy(leader, "bad.dmn", "<definitions".getBytes(StandardCharsets.UTF_8));
    assertThat(garbage.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(garbage.reason()).contains("'bad.dmn' is not a valid DMN file");

    Answer badFeel = deploy(leader, "feel.dmn", literal("(("));
    assertThat(badFeel.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(badFeel.reason()).contains("'feel.dmn'");

    Answer calledWithoutResult =
        deploy(
            leader,
            "p.bpmn",
            xml(
                Bpmn.createExecutableProcess("p")
                    .startEvent()
                    .businessRuleTask("rules", t -> t.zeebeCalledDecisionId("doubled"))
                    .endEvent()
                    .done()));
    assertThat(calledWithoutResult.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(calledWithoutResult.reason()).contains("'rules'");
  }

  @Test
  void aBusinessRuleTaskSetsTheDecisionsOutputAsItsResultVariable() {
    TestMember leader = leader();
    deployedValue(deploy(leader, "checks.dmn", literal("2")));
    deployed(deploy(leader, "p.bpmn", xml(RULES_THEN_AFTER)));
    create(leader, "p", "{\"amount\": 21}");
    JobBatchValue after = activateWhenAvailable(leader, "after", List.of("result"));
    assertThat(JsonDocuments.toJava(after.jobs.get(0).variables)).isEqualTo(Map.of("result", 42L));
  }

  @Test
  void aMissingDecisionRaisesAnIncidentThatDeployingItResolves() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(RULES_THEN_AFTER)));
    create(leader, "p", "{\"amount\": 5}");
    IncidentValue missing = onlyIncident();
    assertThat(missing.errorType).isEqualTo(ErrorType.CALLED_DECISION_ERROR);
    assertThat(missing.errorMessage).contains("'rules'").contains("'doubled'");

    deployedValue(deploy(leader, "checks.dmn", literal("3")));
    resolveIncident(leader, firstKeyOf(IncidentIntent.CREATED));
    JobBatchValue after = activateWhenAvailable(leader, "after", List.of("result"));
    assertThat(JsonDocuments.toJava(after.jobs.get(0).variables)).isEqualTo(Map.of("result", 15L));
  }

  @Test
  void aDecisionThatFailsRaisesADecisionEvaluationIncident() {
    TestMember leader = leader();
    deployedValue(deploy(leader, "checks.dmn", literal("2")));
    deployed(
        deploy(
            leader,
            "p.bpmn",
            xml(
                Bpmn.createExecutableProcess("p")
                    .startEvent()
                    .businessRuleTask(
                        "rules",
                        t -> t.zeebeCalledDecisionId("doubled").zeebeResultVariable("result"))
                    .endEvent()
                    .done())));
    create(leader, "p", "{}");
    IncidentValue failed = onlyIncident();
    assertThat(failed.errorType).isEqualTo(ErrorType.DECISION_EVALUATION_ERROR);
    assertThat(failed.errorMessage).contains("'doubled'").contains("'rules'");
    assertThat(lifecycle()).doesNotContain("rules " + ProcessInstanceIntent.ELEMENT_ACTIVATED);
  }

  @Test
  void aProcessAndItsDecisionsDeployTogetherAndRunAsTheModelerSavedThem() throws IOException {
    TestMember leader = leader();
    DeploymentValue deployment = new DeploymentValue();
    deployment.resources.add(
        new DeploymentValue.Resource("order-pricing.bpmn", resource("order-pricing.bpmn")));
    deployment.resources.add(
        new DeploymentValue.Resource("order-discount.dmn", resource("order-discount.dmn")));
    DeploymentValue deployed =
        deployedValue(leader.awaitAnswer(leader.send(DeploymentIntent.CREATE, -1, deployment)));
    assertThat(deployed.processes).hasSize(1);
    assertThat(deployed.decisions).hasSize(2);

    // A gold customer: the discount needs approval by the sales rep.
    create(
        leader,
        "order-pricing",
        """
        {"customer": {"yearsActive": 6, "totalSpent": 25000},
         "order": {"total": 400, "salesRep": "maria", "placedAt": "2026-11-27T10:00:00Z"}}
        """);
    JobBatchValue approval =
        activateWhenAvailable(leader, "io.camunda.zeebe:userTask", List.of("discount"));
    assertThat(JsonDocuments.toJava(approval.jobs.get(0).variables))
        .isEqualTo(
            Map.of("discount", Map.of("rate", new BigDecimal("0.15"), "reason", "gold customer")));
    assertThat(JsonDocuments.toJava(approval.jobs.get(0).customHeaders))
        .asInstanceOf(InstanceOfAssertFactories.map(String.class, Object.class))
        .containsEntry("io.camunda.zeebe:assignee", "maria")
        .containsEntry("io.camunda.zeebe:candidateGroups", "[\"sales\",\"pricing\"]")
        .containsEntry("io.camunda.zeebe:dueDate", "2026-11-29T10:00:00Z")
        .containsEntry("io.camunda.zeebe:formKey", "camunda-forms:bpmn:approve-discount");
    completeJob(leader, approval.jobKeys.get(0));
    JobBatchValue confirmation =
        activateWhenAvailable(leader, "send-confirmation", List.of("finalTotal"));
    assertThat(JsonDocuments.toJava(confirmation.jobs.get(0).variables))
        .isEqualTo(Map.of("finalTotal", 340L));
    completeJob(leader, confirmation.jobKeys.get(0));
    await(
        () -> lifecycle().contains("order-pricing " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "the first order to be priced");

    // A new customer: no discount, straight to the total.
    create(
        leader,
        "order-pricing",
        "{\"customer\": {\"yearsActive\": 0, \"totalSpent\": 0}, \"order\": {\"total\": 80}}");
    JobBatchValue plain = activateWhenAvailable(leader, "send-confirmation", List.of("finalTotal"));
    assertThat(JsonDocuments.toJava(plain.jobs.get(0).variables))
        .isEqualTo(Map.of("finalTotal", 80L));
  }
}

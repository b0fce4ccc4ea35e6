package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Forking inclusive gateways: every flow whose condition holds, else the default flow. Joining ones
 * are {@link InclusiveJoinTest}'s.
 */
class InclusiveGatewayTest extends WorkflowTestBase {
  /** An inclusive fork to tasks "small" (x > 1), "large" (x > 5), or by default "none". */
  private static BpmnModelInstance fork(boolean withDefault) {
    var split = Bpmn.createExecutableProcess("fork").startEvent("start").inclusiveGateway("split");
    if (withDefault) {
      split
          .defaultFlow()
          .sequenceFlowId("to-none")
          .serviceTask("none", t -> t.zeebeJobType("none"))
          .endEvent("none-end");
    }
    return split
        .moveToNode("split")
        .sequenceFlowId("to-small")
        .conditionExpression("= x > 1")
        .serviceTask("small", t -> t.zeebeJobType("small"))
        .endEvent("small-end")
        .moveToNode("split")
        .sequenceFlowId("to-large")
        .conditionExpression("= x > 5")
        .serviceTask("large", t -> t.zeebeJobType("large"))
        .endEvent("large-end")
        .done();
  }

  private static List<String> jobTypes(TestMember leader, String... types) {
    List<String> found = new ArrayList<>();
    for (String type : types) {
      activate(leader, type, 10).jobs.forEach(job -> found.add(job.type));
    }
    return found;
  }

  @Test
  void everyFlowWhoseConditionHoldsIsTakenElseTheDefault() {
    TestMember leader = leader();
    deployed(deploy(leader, "fork.bpmn", xml(fork(true))));

    create(leader, "fork", "{\"x\": 10}");
    await(() -> countOf(JobIntent.CREATED) == 2, "two jobs");
    assertThat(jobTypes(leader, "small", "large", "none")).containsExactly("small", "large");

    create(leader, "fork", "{\"x\": 3}");
    await(() -> countOf(JobIntent.CREATED) == 3, "one more job");
    assertThat(jobTypes(leader, "small", "large", "none")).containsExactly("small");

    create(leader, "fork", "{\"x\": 0}");
    await(() -> countOf(JobIntent.CREATED) == 4, "one more job");
    assertThat(jobTypes(leader, "small", "large", "none")).containsExactly("none");
  }

  @Test
  void noMatchingFlowWithoutDefaultRaisesAnIncident() {
    TestMember leader = leader();
    deployed(deploy(leader, "fork.bpmn", xml(fork(false))));
    long instance = create(leader, "fork", "{\"x\": 0}").key();

    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
    assertThat(incident.errorType).isEqualTo(ErrorType.CONDITION_ERROR);
    assertThat(incident.errorMessage).contains("'split'").contains("no default flow");

    setVariables(leader, instance, "{\"x\": 6}", false);
    resolveIncident(leader, firstKeyOf(IncidentIntent.CREATED));
    await(() -> countOf(JobIntent.CREATED) == 2, "both jobs");
  }
}

package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Job types given as FEEL expressions, evaluated for each job from the task's variables. */
class JobTypeExpressionTest extends WorkflowTestBase {
  private static BpmnModelInstance regional() {
    return Bpmn.createExecutableProcess("p")
        .startEvent("start")
        .serviceTask("work", t -> t.zeebeJobTypeExpression("\"work-\" + region"))
        .endEvent("end")
        .done();
  }

  @Test
  void theJobTypeIsEvaluatedFromTheInstancesVariables() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(regional())));
    create(leader, "p", "{\"region\": \"eu\"}");
    create(leader, "p", "{\"region\": \"us\"}");

    completeJob(leader, awaitJob(leader, "work-eu"));
    completeJob(leader, awaitJob(leader, "work-us"));
  }

  @Test
  void aJobTypeThatCannotBeEvaluatedRaisesAnIncidentThatResolvingRetries() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(regional())));
    long instance = create(leader, "p", "{}").key();

    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
    assertThat(incident.errorType).isEqualTo(ErrorType.EXTRACT_VALUE_ERROR);
    assertThat(incident.errorMessage).contains("job type").contains("'work'");

    setVariables(leader, instance, "{\"region\": \"ap\"}", false);
    resolveIncident(leader, firstKeyOf(IncidentIntent.CREATED));
    completeJob(leader, awaitJob(leader, "work-ap"));
  }

  @Test
  void retriesGivenAsAnExpressionAreEvaluatedAndABadResultRaisesAnIncident() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("r")
            .startEvent("start")
            .serviceTask("work", t -> t.zeebeJobType("retried").zeebeJobRetriesExpression("tries"))
            .endEvent("end")
            .done();
    deployed(deploy(leader, "r.bpmn", xml(model)));
    create(leader, "r", "{\"tries\": 7}");
    assertThat(activate(leader, "retried", 1).jobs.get(0).retries).isEqualTo(7);

    create(leader, "r", "{\"tries\": \"many\"}");
    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
    assertThat(incident.errorMessage).contains("job retries").contains("many");
  }
}

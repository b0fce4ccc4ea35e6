package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** zeebe:ioMapping inputs and outputs with FEEL. */
class IoMappingTest extends WorkflowTestBase {
  private static BpmnModelInstance mapped(String inputSource) {
    return Bpmn.createExecutableProcess("p")
        .startEvent("start")
        .serviceTask(
            "charge",
            t ->
                t.zeebeJobType("charge")
                    .zeebeInputExpression(inputSource, "amount")
                    .zeebeInput("EUR", "currency")
                    .zeebeOutputExpression("result + 1", "answer")
                    .zeebeOutputExpression("\"charged\"", "order.status"))
        .serviceTask("next", t -> t.zeebeJobType("next"))
        .endEvent("end")
        .done();
  }

  private static String variables(JobBatchValue batch) {
    return new String(batch.jobs.get(0).variables, StandardCharsets.UTF_8);
  }

  @Test
  void inputsAreTheTasksOwnAndOutputsAloneReachTheProcess() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(mapped("order.total * 2"))));
    create(leader, "p", "{\"order\": {\"total\": 21}}");

    JobBatchValue charge = activateWhenAvailable(leader, "charge", List.of());
    assertThat(variables(charge))
        .as("the instance's variables keep the text they were given in")
        .isEqualTo("{\"amount\":42,\"currency\":\"EUR\",\"order\":{\"total\": 21}}");
    completeJob(leader, charge.jobKeys.get(0), "{\"result\": 5}");

    JobBatchValue next = activateWhenAvailable(leader, "next", List.of());
    assertThat(variables(next))
        .as("the outputs, merged into order; not the inputs nor the job's own result")
        .isEqualTo("{\"order\":{\"total\":21,\"status\":\"charged\"},\"answer\":6}");
  }

  @Test
  void aFailingInputRaisesAnIncidentAndTheElementIsEnteredAgainOnceResolved() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(mapped("assert(total, total != null, \"no total\")"))));
    long instance = create(leader, "p").key();
    await(() -> countOf(IncidentIntent.CREATED) == 1, "an incident");
    IncidentValue incident =
        new IncidentValue().readFrom(new UnsafeBuffer(eventValues(IncidentIntent.CREATED).get(0)));
    assertThat(incident.errorType).isEqualTo(ErrorType.EXTRACT_VALUE_ERROR);
    assertThat(incident.elementId).isEqualTo("charge");
    assertThat(incident.errorMessage).contains("input mapping").contains("no total");
    assertThat(lifecycle()).doesNotContain("charge " + ProcessInstanceIntent.ELEMENT_ACTIVATED);

    setVariables(leader, instance, "{\"total\": 3}", false);
    resolveIncident(leader, firstKeyOf(IncidentIntent.CREATED));
    JobBatchValue charge = activateWhenAvailable(leader, "charge", List.of("amount"));
    assertThat(variables(charge)).isEqualTo("{\"amount\":3}");
  }

  @Test
  void mappingsThatCannotWorkAreRejectedAtDeployment() {
    TestMember leader = leader();
    Answer badFeel = deploy(leader, "p.bpmn", xml(mapped("order.total +")));
    assertThat(badFeel.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(badFeel.reason()).contains("'charge'").contains("not valid FEEL");

    BpmnModelInstance badTarget =
        Bpmn.createExecutableProcess("q")
            .startEvent()
            .serviceTask("t", t -> t.zeebeJobType("t").zeebeInputExpression("1", "a..b"))
            .endEvent()
            .done();
    Answer target = deploy(leader, "q.bpmn", xml(badTarget));
    assertThat(target.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(target.reason()).contains("'a..b'");
  }
}

package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.VariableDocumentIntent;
import io.tern.engine.protocol.VariableIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.VariableValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** SetVariables: local to a scope, or propagated as a job completion's variables are. */
class SetVariablesTest extends WorkflowTestBase {
  @Test
  void localVariablesStayInTheirScopeAndPropagatedOnesGoWhereTheNameExists() {
    TestMember leader = leader();
    BpmnModelInstance model =
        Bpmn.createExecutableProcess("p")
            .startEvent("start")
            .subProcess("sub")
            .embeddedSubProcess()
            .startEvent("sub-start")
            .serviceTask("inner", t -> t.zeebeJobType("inner"))
            .endEvent("sub-end")
            .subProcessDone()
            .serviceTask("after", t -> t.zeebeJobType("after"))
            .endEvent("end")
            .done();
    deployed(deploy(leader, "p.bpmn", xml(model)));
    long instance = create(leader, "p", "{\"total\": 1}").key();
    await(() -> elementKey("sub", ProcessInstanceIntent.ELEMENT_ACTIVATED) >= 0, "the subprocess");
    long sub = elementKey("sub", ProcessInstanceIntent.ELEMENT_ACTIVATED);

    Answer local = setVariables(leader, sub, "{\"onlyInSub\": true, \"total\": 2}", true);
    assertThat(local.intent()).isEqualTo(VariableDocumentIntent.UPDATED);
    Answer propagated = setVariables(leader, sub, "{\"shared\": \"x\"}", false);
    assertThat(propagated.intent()).isEqualTo(VariableDocumentIntent.UPDATED);

    assertThat(scopeOf("onlyInSub")).isEqualTo(sub);
    assertThat(scopeOf("shared")).as("no scope had it: the process gets it").isEqualTo(instance);
    JobBatchValue inner = activateWhenAvailable(leader, "inner", List.of("total", "shared"));
    assertThat(new String(inner.jobs.get(0).variables, StandardCharsets.UTF_8))
        .as("the closest scope's value wins")
        .isEqualTo("{\"total\":2,\"shared\":\"x\"}");

    // Propagating "total" from the subprocess updates the subprocess's local one, not the
    // process's.
    setVariables(leader, sub, "{\"total\": 3}", false);
    completeJob(leader, inner.jobKeys.get(0));
    JobBatchValue after = activateWhenAvailable(leader, "after", List.of("total", "onlyInSub"));
    assertThat(new String(after.jobs.get(0).variables, StandardCharsets.UTF_8))
        .as("the subprocess's variables went with it")
        .isEqualTo("{\"total\":1}");
  }

  @Test
  void unknownScopesAndDocumentsThatAreNotObjectsAreRejected() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(oneTask("p", "work"))));
    long instance = create(leader, "p").key();
    assertThat(create(leader, "p").intent()).isEqualTo(CreationIntent.CREATED);

    Answer unknown = setVariables(leader, 12345, "{\"a\": 1}", false);
    assertThat(unknown.rejection()).isEqualTo(RejectionType.NOT_FOUND);
    assertThat(unknown.reason()).contains("12345");
    Answer array = setVariables(leader, instance, "[1, 2]", true);
    assertThat(array.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(array.reason()).contains("JSON object");
    Answer broken = setVariables(leader, instance, "{\"a\": ", true);
    assertThat(broken.rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(countOf(VariableIntent.CREATED)).isZero();
  }

  private long scopeOf(String name) {
    VariableValue variable = new VariableValue();
    long scope = -1;
    for (byte[] value : eventValues(VariableIntent.CREATED)) {
      variable.readFrom(new UnsafeBuffer(value));
      if (variable.name.equals(name)) {
        scope = variable.scopeKey;
      }
    }
    return scope;
  }
}

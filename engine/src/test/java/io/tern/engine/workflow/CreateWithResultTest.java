package io.tern.engine.workflow;

import static io.tern.engine.processor.TestMember.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.tern.engine.processor.TestMember;
import io.tern.engine.processor.TestMember.Answer;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ResultIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.ProcessInstanceCreationValue;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Creating an instance and awaiting its end; a worker changing its job's timeout. */
class CreateWithResultTest extends WorkflowTestBase {
  private WorkflowConfig config = WorkflowConfig.defaults();

  @Override
  WorkflowConfig workflowConfig() {
    return config;
  }

  @Test
  void aClientThatWaitsLongerThanTheLimitIsForgottenAndTheInstanceGoesOn()
      throws InterruptedException {
    config = WorkflowConfig.defaults().withResultAwaitLimit(java.time.Duration.ofMillis(100));
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(oneTask("p", "work"))));
    createAwaiting(leader, "p", "{}", List.of());
    long job = awaitJob(leader, "work");
    // A duration: past the limit, the awaiter is dropped by the scheduler (its map is confined to
    // the processor thread); the completion below must then answer nobody.
    Thread.sleep(300);

    completeJob(leader, job, "");
    await(
        () -> lifecycle().contains("p " + ProcessInstanceIntent.ELEMENT_COMPLETED),
        "the instance to complete");
    assertThat(countOf(ResultIntent.COMPLETED)).as("nobody waits any more").isZero();
  }

  private static long createAwaiting(
      TestMember member, String processId, String variables, List<String> fetch) {
    ProcessInstanceCreationValue creation = new ProcessInstanceCreationValue();
    creation.bpmnProcessId = processId;
    creation.variables = variables.getBytes(StandardCharsets.UTF_8);
    creation.fetchVariables.addAll(fetch);
    return member.send(CreationIntent.CREATE_WITH_AWAITING_RESULT, -1, creation);
  }

  private static ProcessInstanceCreationValue result(Answer answer) {
    return new ProcessInstanceCreationValue().readFrom(new UnsafeBuffer(answer.value()));
  }

  @Test
  void theAnswerComesWhenTheInstanceCompletesWithTheVariablesAskedFor() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(oneTask("p", "work"))));
    long request = createAwaiting(leader, "p", "{\"a\": 1, \"b\": 2}", List.of("b", "c"));
    long job = awaitJob(leader, "work");
    completeJob(leader, job, "{\"c\": 3}");

    Answer answer = leader.awaitAnswer(request);
    assertThat(answer.intent()).isEqualTo(ResultIntent.COMPLETED);
    ProcessInstanceCreationValue result = result(answer);
    assertThat(result.bpmnProcessId).isEqualTo("p");
    assertThat(result.version).isEqualTo(1);
    assertThat(result.processInstanceKey).isEqualTo(answer.key());
    assertThat(new String(result.variables, StandardCharsets.UTF_8)).isEqualTo("{\"b\":2,\"c\":3}");
  }

  @Test
  void anInstanceThatEndsInItsFirstBatchStillAnswersAndACanceledOneSaysSo() {
    TestMember leader = leader();
    deployed(
        deploy(
            leader,
            "direct.bpmn",
            xml(Bpmn.createExecutableProcess("direct").startEvent().endEvent().done())));
    Answer direct = leader.awaitAnswer(createAwaiting(leader, "direct", "{\"x\": 1}", List.of()));
    assertThat(direct.intent()).isEqualTo(ResultIntent.COMPLETED);
    assertThat(new String(result(direct).variables, StandardCharsets.UTF_8)).isEqualTo("{\"x\":1}");

    deployed(deploy(leader, "p.bpmn", xml(oneTask("p", "work"))));
    long request = createAwaiting(leader, "p", "", List.of());
    await(() -> countOf(JobIntent.CREATED) == 1, "the job");
    long instance = lastKeyOf(CreationIntent.CREATED);
    Answer canceled =
        leader.awaitAnswer(
            leader.send(
                ProcessInstanceIntent.CANCEL,
                instance,
                new io.tern.engine.workflow.value.ProcessInstanceValue()));
    assertThat(canceled.rejection()).isEqualTo(RejectionType.NONE);
    Answer answer = leader.awaitAnswer(request);
    assertThat(answer.intent()).isEqualTo(ResultIntent.TERMINATED);
    assertThat(answer.key()).isEqualTo(instance);
  }

  private static Answer updateTimeout(TestMember member, long jobKey, long timeoutMs) {
    JobValue update = new JobValue();
    update.timeoutMs = timeoutMs;
    return member.awaitAnswer(member.send(JobIntent.UPDATE_TIMEOUT, jobKey, update));
  }

  @Test
  void aWorkerCanShortenOrLengthenItsJobsTimeout() {
    TestMember leader = leader();
    deployed(deploy(leader, "p.bpmn", xml(oneTask("p", "work"))));
    create(leader, "p");
    long job = awaitJob(leader, "work"); // 60 s timeout

    assertThat(updateTimeout(leader, job, 0).rejection()).isEqualTo(RejectionType.INVALID_ARGUMENT);
    assertThat(updateTimeout(leader, 12345, 100).rejection()).isEqualTo(RejectionType.NOT_FOUND);
    Answer updated = updateTimeout(leader, job, 100);
    assertThat(updated.intent()).isEqualTo(JobIntent.TIMEOUT_UPDATED);
    JobValue value = new JobValue().readFrom(new UnsafeBuffer(updated.value()));
    assertThat(value.deadline).isLessThanOrEqualTo(System.currentTimeMillis() + 100);

    await(() -> countOf(JobIntent.TIMED_OUT) == 1, "the job to time out");
    assertThat(updateTimeout(leader, job, 100).rejection())
        .as("no longer activated")
        .isEqualTo(RejectionType.INVALID_STATE);
    assertThat(awaitJob(leader, "work")).isEqualTo(job);
  }
}

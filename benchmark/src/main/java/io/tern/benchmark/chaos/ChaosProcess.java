package io.tern.benchmark.chaos;

import io.camunda.zeebe.model.bpmn.Bpmn;
import java.nio.charset.StandardCharsets;

/**
 * The process the chaos workload runs, crossing every layer: a service task, a message catch
 * correlated by the instance's business id, a second service task that reads what the first wrote
 * and what the message brought, a short timer, the end. Names shared by the workload and the
 * checker.
 */
final class ChaosProcess {
  static final String PROCESS_ID = "chaos";
  static final String TASK_A = "chaos-a";
  static final String TASK_B = "chaos-b";
  static final String MESSAGE = "chaos-message";

  /** The business id of an instance, set at creation and the message's correlation key. */
  static final String BIZ = "biz";

  /** Written by task A (its job key), read by task B. */
  static final String A_OUT = "aOut";

  /** Brought by the message (the publication's own id), read by task B. */
  static final String MESSAGE_ID = "msgId";

  /** Written by task B. */
  static final String B_OUT = "bOut";

  /** The timer between task B and the end: short, so that instances end during the run. */
  static final String TIMER = "PT1S";

  private ChaosProcess() {}

  static byte[] bpmn() {
    return Bpmn.convertToString(
            Bpmn.createExecutableProcess(PROCESS_ID)
                .startEvent()
                .serviceTask("task-a", task -> task.zeebeJobType(TASK_A))
                .intermediateCatchEvent(
                    "message",
                    event -> event.message(m -> m.name(MESSAGE).zeebeCorrelationKeyExpression(BIZ)))
                .serviceTask("task-b", task -> task.zeebeJobType(TASK_B))
                .intermediateCatchEvent("timer", event -> event.timerWithDuration(TIMER))
                .endEvent()
                .done())
        .getBytes(StandardCharsets.UTF_8);
  }

  /** What task A writes: derived from its job key, so a stale or foreign value shows. */
  static String aValue(long jobKey) {
    return "a-" + jobKey;
  }
}

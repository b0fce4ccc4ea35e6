package io.tern.benchmark.load;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.builder.AbstractFlowNodeBuilder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The processes latency experiments run. "one-task": start, a service task, end. "typical": close
 * to the Zeebe hackday's benchmark model (about 30 commands an instance): ten service tasks on the
 * path taken, an exclusive gateway choosing between two branches and joining them again, a short
 * timer wait, and a payload of a few KB.
 */
public final class Workloads {
  public static final String TYPICAL = "typical";
  public static final String ONE_TASK = "one-task";
  static final List<String> ALL = List.of(TYPICAL, ONE_TASK);

  /** The typical instance's variables: this many bytes of payload. */
  static final int TYPICAL_PAYLOAD_BYTES = 4 * 1024;

  private Workloads() {}

  static LoadDriver.Model model(String name) {
    return switch (name) {
      case TYPICAL -> new LoadDriver.Model(TYPICAL, Workloads::typical, "task-10");
      case ONE_TASK -> new LoadDriver.Model(ONE_TASK, type -> tasks(ONE_TASK, 1, type), "task-1");
      default -> throw new IllegalArgumentException("no workload named " + name + "; " + ALL);
    };
  }

  /** Workload {@code name}'s process (its id is the name) with every task of {@code jobType}. */
  public static byte[] bpmn(String name, String jobType) {
    return model(name).bpmn().apply(jobType);
  }

  /** The id of the task that ends an instance of workload {@code name}. */
  public static String lastTaskId(String name) {
    return model(name).lastTaskId();
  }

  static int payloadBytes(String name) {
    return name.equals(TYPICAL) ? TYPICAL_PAYLOAD_BYTES : 100;
  }

  /**
   * start, tasks 1-3, a split on {@code route} (no variable of that name: the long branch, tasks
   * 4a-6a; "short": task 4b), a join, a 10 ms timer, tasks 7-10, end.
   */
  private static byte[] typical(String type) {
    AbstractFlowNodeBuilder<?, ?> flow =
        Bpmn.createExecutableProcess(TYPICAL)
            .startEvent("received")
            .serviceTask("task-1", t -> t.zeebeJobType(type))
            .serviceTask("task-2", t -> t.zeebeJobType(type))
            .serviceTask("task-3", t -> t.zeebeJobType(type))
            .exclusiveGateway("route")
            .sequenceFlowId("long")
            .conditionExpression("= is defined(route) = false or route != \"short\"")
            .serviceTask("task-4a", t -> t.zeebeJobType(type))
            .serviceTask("task-5a", t -> t.zeebeJobType(type))
            .serviceTask("task-6a", t -> t.zeebeJobType(type))
            .exclusiveGateway("join")
            .intermediateCatchEvent("pause", event -> event.timerWithDuration("PT0.01S"))
            .serviceTask("task-7", t -> t.zeebeJobType(type))
            .serviceTask("task-8", t -> t.zeebeJobType(type))
            .serviceTask("task-9", t -> t.zeebeJobType(type))
            .serviceTask("task-10", t -> t.zeebeJobType(type))
            .endEvent("done")
            .moveToNode("route")
            .sequenceFlowId("short")
            .conditionExpression("= is defined(route) and route = \"short\"")
            .serviceTask("task-4b", t -> t.zeebeJobType(type))
            .connectTo("join");
    return Bpmn.convertToString(flow.done()).getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] tasks(String processId, int count, String type) {
    AbstractFlowNodeBuilder<?, ?> flow = Bpmn.createExecutableProcess(processId).startEvent();
    for (int i = 1; i <= count; i++) {
      flow = flow.serviceTask("task-" + i, t -> t.zeebeJobType(type));
    }
    return Bpmn.convertToString(flow.endEvent().done()).getBytes(StandardCharsets.UTF_8);
  }
}

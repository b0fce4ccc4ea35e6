package io.tern.benchmark.soak;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.tern.benchmark.load.Workloads;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the soak's instances run, by name as Zeebe's benchmarks name them, or a BPMN file and a
 * payload given by path.
 *
 * <ul>
 *   <li>{@code one-task}: start, a service task, end.
 *   <li>{@code typical}: ten service tasks on the path taken, a gateway, a short timer, 4 KB of
 *       payload (the latency experiments' typical process).
 *   <li>{@code message-start}: started by publishing a message, then a service task.
 *   <li>{@code timer}: a task, a 100 ms timer, a task.
 *   <li>{@code multi-instance}: a task run for each of five items in parallel, then a last task.
 *   <li>a file: its executable process, whose tasks of the worker's job type the worker completes;
 *       its instances are created with result, so the end is seen whatever the process' shape.
 * </ul>
 *
 * An instance of a named workload ends with its {@code lastTaskId}: the worker that completes it
 * measures the instance's execution latency (PEL) from the send time the starter put in {@link
 * #SENT_AT}.
 *
 * @param bpmn the process for a job type
 * @param lastTaskId the task that ends an instance, or null to await each instance's result
 * @param payload the variables of each instance, a JSON object
 * @param startMessage the message that starts an instance, or null to create instances
 */
record SoakWorkload(
    String name,
    String processId,
    Function<String, byte[]> bpmn,
    String lastTaskId,
    String payload,
    String startMessage) {
  static final List<String> NAMES =
      List.of(Workloads.ONE_TASK, Workloads.TYPICAL, "message-start", "timer", "multi-instance");

  /**
   * The variable carrying when the instance was sent (epoch ms, for workers in other processes).
   */
  static final String SENT_AT = "soakSentAtMs";

  static final String START_MESSAGE = "soak-start";
  private static final Pattern PROCESS_ID =
      Pattern.compile("<(?:\\w+:)?process\\b[^>]*\\bid=\"([^\"]+)\"");

  static SoakWorkload named(String name) {
    return switch (name) {
      case Workloads.ONE_TASK, Workloads.TYPICAL ->
          new SoakWorkload(
              name,
              name,
              type -> Workloads.bpmn(name, type),
              Workloads.lastTaskId(name),
              payload(name.equals(Workloads.TYPICAL) ? 4096 : 100),
              null);
      case "message-start" ->
          new SoakWorkload(
              name,
              name,
              type ->
                  xml(
                      Bpmn.createExecutableProcess(name)
                          .startEvent()
                          .message(START_MESSAGE)
                          .serviceTask("task-1", t -> t.zeebeJobType(type))
                          .endEvent()
                          .done()),
              "task-1",
              payload(100),
              START_MESSAGE);
      case "timer" ->
          new SoakWorkload(
              name,
              name,
              type ->
                  xml(
                      Bpmn.createExecutableProcess(name)
                          .startEvent()
                          .serviceTask("task-1", t -> t.zeebeJobType(type))
                          .intermediateCatchEvent("wait", e -> e.timerWithDuration("PT0.1S"))
                          .serviceTask("task-2", t -> t.zeebeJobType(type))
                          .endEvent()
                          .done()),
              "task-2",
              payload(100),
              null);
      case "multi-instance" ->
          new SoakWorkload(
              name,
              name,
              type ->
                  xml(
                      Bpmn.createExecutableProcess(name)
                          .startEvent()
                          .serviceTask("each", t -> t.zeebeJobType(type))
                          .multiInstance(m -> m.parallel().zeebeInputCollectionExpression("items"))
                          .serviceTask("last", t -> t.zeebeJobType(type))
                          .endEvent()
                          .done()),
              "last",
              "{\"items\":[1,2,3,4,5]}",
              null);
      default ->
          throw new IllegalArgumentException(
              "--workload: no workload named '" + name + "'; known: " + String.join(", ", NAMES));
    };
  }

  /** The process in {@code bpmnFile}, with {@code payloadFile}'s JSON object (or none) each. */
  static SoakWorkload file(Path bpmnFile, Path payloadFile) {
    try {
      byte[] bpmn = Files.readAllBytes(bpmnFile);
      Matcher id = PROCESS_ID.matcher(new String(bpmn, StandardCharsets.UTF_8));
      if (!id.find()) {
        throw new IllegalArgumentException("--bpmn: no process id found in " + bpmnFile);
      }
      String payload = payloadFile == null ? "{}" : Files.readString(payloadFile).strip();
      if (!payload.startsWith("{") || !payload.endsWith("}")) {
        throw new IllegalArgumentException(
            "--payload: " + payloadFile + " must hold one JSON object, {...}");
      }
      return new SoakWorkload(
          bpmnFile.getFileName().toString(), id.group(1), type -> bpmn, null, payload, null);
    } catch (IOException e) {
      throw new IllegalArgumentException("--bpmn/--payload: cannot read " + e.getMessage(), e);
    }
  }

  /** The instance's variables as JSON: the payload plus when it was sent. */
  String variables(long sentAtMs) {
    String rest = payload.substring(1).strip();
    return "{\"" + SENT_AT + "\":" + sentAtMs + (rest.equals("}") ? "}" : "," + rest);
  }

  private static String payload(int bytes) {
    return "{\"payload\":\"" + "x".repeat(bytes) + "\"}";
  }

  private static byte[] xml(io.camunda.zeebe.model.bpmn.BpmnModelInstance model) {
    return Bpmn.convertToString(model).getBytes(StandardCharsets.UTF_8);
  }
}

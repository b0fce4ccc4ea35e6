package io.tern.engine.workflow.model;

import io.tern.engine.workflow.feel.Mapping;
import io.tern.engine.workflow.value.BpmnElementType;
import java.util.List;

/**
 * One flow node of a deployed process, as the engine runs it. Ids are unique within a BPMN file, so
 * elements of embedded subprocesses live in the same map as the process's own.
 *
 * @param incoming the ids of its incoming sequence flows (a parallel gateway joins them all)
 * @param outgoing its outgoing sequence flows
 * @param defaultFlowId for exclusive gateways, the flow taken when no condition holds, or null
 * @param job for service tasks, the job to create; else null
 * @param startEventId for embedded subprocesses, the none start event that starts them; else null
 * @param boundaryEventIds for activities, the ids of the boundary events attached to them
 * @param attachedToId for boundary events, the activity they are attached to; else null
 * @param interrupting for boundary events, whether triggering terminates the activity
 * @param event what a catch event waits for, or what an end event throws; null for none events
 * @param call for call activities, the process to call; else null
 * @param evaluation for script tasks with {@code zeebe:script} and business rule tasks with {@code
 *     zeebe:calledDecision}, what they evaluate; else null
 * @param loop for multi-instance activities, how the instances are made; else null
 * @param inputs {@code zeebe:ioMapping} inputs: local variables set when the element is entered
 * @param outputs {@code zeebe:ioMapping} outputs: variables set in the flow scope when it is left
 * @param userTask for Camunda user tasks ({@code zeebe:userTask}), the task to create; else null
 */
public record ExecutableElement(
    String id,
    BpmnElementType type,
    List<String> incoming,
    List<Flow> outgoing,
    String defaultFlowId,
    JobDefinition job,
    String startEventId,
    List<String> boundaryEventIds,
    String attachedToId,
    boolean interrupting,
    EventDefinition event,
    CallDefinition call,
    Evaluation evaluation,
    MultiInstance loop,
    List<Mapping> inputs,
    List<Mapping> outputs,
    UserTaskDefinition userTask) {

  /**
   * A sequence flow: its id, the id of the element it leads to, and its FEEL condition (with the
   * leading '=') or null.
   */
  public record Flow(String id, String targetId, String condition) {}

  /**
   * The job of a job-based element (service, user, script, send and business rule tasks, message
   * throw events): {@code zeebe:taskDefinition} type and retries, and {@code zeebe:taskHeaders} as
   * a JSON object.
   *
   * @param retries the static retries (when {@code retriesExpression} is null)
   * @param retriesExpression FEEL (after '=') for the retries, evaluated for each job; else null
   * @param headerExpressions headers whose values are FEEL, evaluated for each job: the mapping's
   *     target is the header's name (a user task's assignee, candidates and dates, say)
   */
  public record JobDefinition(
      String type,
      int retries,
      String retriesExpression,
      String customHeadersJson,
      List<Mapping> headerExpressions) {
    /** Whether the type is FEEL (after '='), evaluated for each job from the task's variables. */
    public boolean typeIsExpression() {
      return type.startsWith("=");
    }

    /** Whether anything of the job is evaluated when it is made (and so may fail). */
    public boolean hasExpressions() {
      return typeIsExpression() || retriesExpression != null || !headerExpressions.isEmpty();
    }
  }

  /**
   * A Camunda user task ({@code zeebe:userTask}): each property is null (not given), static text,
   * or FEEL after a leading '=', evaluated when the task is created. Static candidates are a comma
   * separated list.
   *
   * @param priority 0 to 100, Zeebe's default 50 when not given
   * @param externalFormReference the form a task list shows: {@code zeebe:formDefinition}'s {@code
   *     externalReference} or {@code formKey}
   * @param customHeadersJson {@code zeebe:taskHeaders} as a JSON object
   */
  public record UserTaskDefinition(
      String assignee,
      String candidateGroups,
      String candidateUsers,
      String dueDate,
      String followUpDate,
      String priority,
      String externalFormReference,
      String customHeadersJson) {}

  /** What a script task or business rule task evaluates, and the variable its result is set in. */
  public sealed interface Evaluation {
    String resultVariable();
  }

  /** A script task's {@code zeebe:script}: a FEEL expression (with its leading '='). */
  public record Script(String expression, String resultVariable) implements Evaluation {}

  /**
   * A business rule task's {@code zeebe:calledDecision}: the id of the decision (static, or FEEL
   * after '='), whose latest version is evaluated.
   */
  public record CalledDecision(String decisionId, String resultVariable) implements Evaluation {}

  /**
   * What a call activity calls ({@code zeebe:calledElement}): the process id (static, or FEEL after
   * a leading '='; its latest version is called) and which variables cross over.
   */
  public record CallDefinition(
      String processId, boolean propagateAllChildVariables, boolean propagateAllParentVariables) {}

  /**
   * A multi-instance activity ({@code zeebe:loopCharacteristics}): one inner instance per item of
   * the input collection (FEEL), each with the item as {@code inputElement} and its 1-based {@code
   * loopCounter}; optionally each inner instance's {@code outputElement} (FEEL) is collected, in
   * item order, into {@code outputCollection}.
   *
   * @param outputCollection a variable name, or null
   * @param outputElement a FEEL expression, or null
   */
  public record MultiInstance(
      boolean sequential,
      String inputCollection,
      String inputElement,
      String outputCollection,
      String outputElement) {}
}

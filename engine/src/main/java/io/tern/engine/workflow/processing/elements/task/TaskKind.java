package io.tern.engine.workflow.processing.elements.task;

import io.tern.engine.workflow.feel.FeelStrings;
import io.tern.engine.workflow.feel.IoMappings;
import io.tern.engine.workflow.feel.Mapping;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementKind;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementLifecycle;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementStep;
import io.tern.engine.workflow.processing.elements.lifecycle.JobBehavior;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tasks. A job-based task (service, user, send; script and business rule tasks without a script or
 * decision) creates a job ({@link JobBehavior}) and completes when a worker completes it; a Camunda
 * user task ({@code zeebe:userTask}) creates a user task ({@link UserTaskCreation}) and completes
 * when a person completes that. A receive task waits for its message ({@link
 * io.tern.engine.workflow.processing.messages.ProcessMessageSubscriptionProcessors}). A script task
 * with {@code zeebe:script} evaluates its FEEL expression into its result variable and completes; a
 * business rule task with {@code zeebe:calledDecision} does so with its decision ({@link
 * DecisionBehavior}). Undefined and manual tasks complete as soon as they are activated, applying
 * their mappings.
 */
public final class TaskKind implements ElementKind {
  private final ElementLifecycle lifecycle;
  private final JobBehavior jobs;
  private final UserTaskCreation userTasks;
  private final DecisionBehavior decisions;
  private final IncidentBehavior incidents;
  private final VariableBehavior variables;
  private final IoMappings mappings = new IoMappings();

  public TaskKind(
      ElementLifecycle lifecycle,
      Behaviors behaviors,
      JobBehavior jobs,
      UserTaskCreation userTasks,
      DecisionBehavior decisions) {
    this.lifecycle = lifecycle;
    this.jobs = jobs;
    this.userTasks = userTasks;
    this.decisions = decisions;
    this.incidents = behaviors.incidents();
    this.variables = behaviors.variables();
  }

  @Override
  public Set<BpmnElementType> types() {
    return EnumSet.of(
        BpmnElementType.SERVICE_TASK,
        BpmnElementType.RECEIVE_TASK,
        BpmnElementType.TASK,
        BpmnElementType.MANUAL_TASK,
        BpmnElementType.USER_TASK,
        BpmnElementType.SCRIPT_TASK,
        BpmnElementType.SEND_TASK,
        BpmnElementType.BUSINESS_RULE_TASK);
  }

  @Override
  public void activate(ElementStep step) {
    if (!lifecycle.applyInputs(step) || !lifecycle.subscribe(step)) {
      return; // an incident holds the task until it is resolved
    }
    ExecutableElement element = step.element();
    if (step.type() == BpmnElementType.RECEIVE_TASK) {
      lifecycle.activated(step); // it waits for its message
    } else if (element.job() != null) {
      jobs.activateWithJob(step); // or an incident holds the task until it is resolved
    } else if (element.userTask() != null) {
      userTasks.activateWithTask(step); // or an incident holds the task until it is resolved
    } else if (element.evaluation() instanceof ExecutableElement.Script script) {
      Map<String, byte[]> result = evaluateScript(step, script);
      if (result != null) {
        completeWithResult(step, result);
      } // else an incident holds the task until it is resolved
    } else if (element.evaluation() instanceof ExecutableElement.CalledDecision called) {
      Map<String, byte[]> result = decisions.evaluate(step, called);
      if (result != null) {
        completeWithResult(step, result);
      } // else an incident holds the task until it is resolved
    } else {
      lifecycle.activated(step); // undefined and manual tasks pass through
      lifecycle.completeInstance(step.result(), step.key());
    }
  }

  @Override
  public void complete(ElementStep step, ElementInstance stored) {
    lifecycle.complete(step, null);
  }

  /**
   * Activates the task, sets its result variable and completes it. Like a job's variables, the
   * result is the task's own when output mappings are to read it, else it propagates.
   */
  private void completeWithResult(ElementStep step, Map<String, byte[]> result) {
    lifecycle.activated(step);
    ProcessInstanceValue value = step.value();
    if (step.element().outputs().isEmpty()) {
      variables.setPropagating(
          step.result(), step.key(), value.processInstanceKey, value.processDefinitionKey, result);
    } else {
      variables.setLocal(
          step.result(), step.key(), value.processInstanceKey, value.processDefinitionKey, result);
    }
    lifecycle.completeInstance(step.result(), step.key());
  }

  /** The script's result as its result variable; null after raising an incident. */
  private Map<String, byte[]> evaluateScript(ElementStep step, ExecutableElement.Script script) {
    try {
      return mappings.evaluate(
          List.of(new Mapping(script.expression(), script.resultVariable())),
          variables.visible(step.key(), List.of()));
    } catch (FeelStrings.EvaluationException | InvalidVariablesException e) {
      incidents.raise(
          step.result(),
          ErrorType.EXTRACT_VALUE_ERROR,
          step.key(),
          step.value(),
          "the script of '" + step.element().id() + "' cannot be evaluated: " + e.getMessage());
      return null;
    }
  }
}

package io.tern.engine.workflow.processing.elements;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.JobIntent;
import io.tern.engine.workflow.feel.FeelStrings;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.Behaviors;
import io.tern.engine.workflow.processing.WorkflowMetrics;
import io.tern.engine.workflow.processing.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.jobs.JobPushBehavior;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.Set;

/**
 * Tasks. A service task creates a job of its type (static, or FEEL evaluated when the task is
 * entered, as are its retries) and completes when a worker completes the job ({@link
 * io.tern.engine.workflow.processing.jobs.JobProcessors}). A receive task waits for its message
 * ({@link io.tern.engine.workflow.processing.messages.ProcessMessageSubscriptionProcessors}).
 */
final class TaskKind implements ElementKind {
  /** A service task's job type and retries, evaluated. */
  private record JobSettings(String type, int retries) {}

  private final ProcessingContext context;
  private final ElementLifecycle lifecycle;
  private final IncidentBehavior incidents;
  private final JobPushBehavior jobPush;
  private final WorkflowMetrics metrics;
  private final JobValue job = new JobValue();

  TaskKind(ProcessingContext context, ElementLifecycle lifecycle, Behaviors behaviors) {
    this.context = context;
    this.lifecycle = lifecycle;
    this.incidents = behaviors.incidents();
    this.jobPush = behaviors.jobPush();
    this.metrics = behaviors.metrics();
  }

  @Override
  public Set<BpmnElementType> types() {
    return EnumSet.of(BpmnElementType.SERVICE_TASK, BpmnElementType.RECEIVE_TASK);
  }

  /** A service task's job type or retries may be FEEL that does not evaluate. */
  @Override
  public boolean mayFailToActivate(ElementStep step) {
    return step.type() == BpmnElementType.SERVICE_TASK && step.element().job().hasExpressions();
  }

  @Override
  public void activate(ElementStep step) {
    if (!lifecycle.applyInputs(step) || !lifecycle.subscribe(step)) {
      return; // an incident holds the task until it is resolved
    }
    if (step.type() == BpmnElementType.RECEIVE_TASK) {
      lifecycle.activated(step); // it waits for its message
      return;
    }
    JobSettings settings = resolveJob(step);
    if (settings == null) {
      return; // an incident holds the task until it is resolved
    }
    lifecycle.activated(step);
    createJob(step, settings);
  }

  @Override
  public void complete(ElementStep step, ElementInstance stored) {
    lifecycle.complete(step, null);
  }

  /**
   * The task's job type and retries: static, or FEEL evaluated now from the task's variables. Null
   * after raising an incident.
   */
  private JobSettings resolveJob(ElementStep step) {
    ExecutableElement.JobDefinition definition = step.element().job();
    String jobType = definition.type();
    int jobRetries = definition.retries();
    if (!definition.hasExpressions()) {
      return new JobSettings(jobType, jobRetries);
    }
    String expression = definition.type();
    String what = "job type";
    String problem;
    try {
      if (definition.typeIsExpression()) {
        jobType = lifecycle.evaluateText(expression, step.key());
        if (jobType.isBlank()) {
          throw new FeelStrings.EvaluationException("it gave an empty job type");
        }
      }
      if (definition.retriesExpression() != null) {
        expression = definition.retriesExpression();
        what = "job retries";
        jobRetries = parseRetries(lifecycle.evaluateText(expression, step.key()));
      }
      return new JobSettings(jobType, jobRetries);
    } catch (FeelStrings.EvaluationException | InvalidVariablesException e) {
      problem = e.getMessage();
    }
    incidents.raise(
        step.result(),
        ErrorType.EXTRACT_VALUE_ERROR,
        step.key(),
        step.value(),
        "the "
            + what
            + " '"
            + expression
            + "' of '"
            + step.element().id()
            + "' cannot be evaluated: "
            + problem);
    return null;
  }

  private static int parseRetries(String text) {
    try {
      int retries = Integer.parseInt(text.strip());
      if (retries >= 0) {
        return retries;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new FeelStrings.EvaluationException(
        "retries must be a whole number >= 0, the expression gave '" + text + "'");
  }

  private void createJob(ElementStep step, JobSettings settings) {
    ProcessingResult result = step.result();
    ProcessInstanceValue value = step.value();
    ExecutableElement element = step.element();
    job.deadline = -1;
    job.retries = settings.retries();
    job.processInstanceKey = value.processInstanceKey;
    job.elementInstanceKey = step.key();
    job.processDefinitionKey = value.processDefinitionKey;
    job.processDefinitionVersion = value.version;
    job.type = settings.type();
    job.worker = "";
    job.bpmnProcessId = value.bpmnProcessId;
    job.elementId = element.id();
    job.customHeaders = element.job().customHeadersJson().getBytes(StandardCharsets.UTF_8);
    job.variables = new byte[0];
    job.errorMessage = "";
    job.errorCode = "";
    long jobKey = context.nextKey();
    result.appendEvent(jobKey, ValueTypes.JOB, JobIntent.CREATED, job);
    metrics.jobCreated(result, jobKey, context.nowMs());
    jobPush.activatable(result, jobKey, job);
  }
}

package io.tern.engine.workflow.processing.elements.lifecycle;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.workflow.feel.FeelStrings;
import io.tern.engine.workflow.feel.IoMappings;
import io.tern.engine.workflow.feel.Mapping;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.behavior.jobs.JobPushBehavior;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.WorkflowMetrics;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import io.tern.engine.workflow.variables.JsonValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates the job of a job-based element (a service, user, script, send or business rule task, a
 * message throw event). Its type, retries and FEEL headers are evaluated when it is made; an
 * incident holds the element if one does not evaluate. The element completes when a worker
 * completes the job ({@link io.tern.engine.workflow.processing.jobs.JobProcessors}).
 */
public final class JobBehavior {
  /** A job's type, retries and headers, evaluated. */
  private record JobSettings(String type, int retries, String customHeadersJson) {}

  private final ProcessingContext context;
  private final ElementLifecycle lifecycle;
  private final IncidentBehavior incidents;
  private final JobPushBehavior jobPush;
  private final WorkflowMetrics metrics;
  private final VariableBehavior variables;
  private final IoMappings mappings = new IoMappings();
  private final JobValue job = new JobValue();

  public JobBehavior(ProcessingContext context, ElementLifecycle lifecycle, Behaviors behaviors) {
    this.context = context;
    this.lifecycle = lifecycle;
    this.incidents = behaviors.incidents();
    this.jobPush = behaviors.jobPush();
    this.metrics = behaviors.metrics();
    this.variables = behaviors.variables();
  }

  /**
   * Activates the element and creates its job; false, leaving it ACTIVATING with an incident, if
   * the job's expressions do not evaluate.
   */
  public boolean activateWithJob(ElementStep step) {
    JobSettings settings = resolve(step);
    if (settings == null) {
      return false;
    }
    lifecycle.activated(step);
    create(step, settings);
    return true;
  }

  /**
   * The job's type, retries and headers: static, or FEEL evaluated now from the element's
   * variables. Null after raising an incident.
   */
  private JobSettings resolve(ElementStep step) {
    ExecutableElement.JobDefinition definition = step.element().job();
    if (!definition.hasExpressions()) {
      return new JobSettings(
          definition.type(), definition.retries(), definition.customHeadersJson());
    }
    String expression = definition.type();
    String what = "job type";
    try {
      String jobType = definition.type();
      if (definition.typeIsExpression()) {
        jobType = lifecycle.evaluateText(expression, step.key());
        if (jobType.isBlank()) {
          throw new FeelStrings.EvaluationException("it gave an empty job type");
        }
      }
      int jobRetries = definition.retries();
      if (definition.retriesExpression() != null) {
        expression = definition.retriesExpression();
        what = "job retries";
        jobRetries = parseRetries(lifecycle.evaluateText(expression, step.key()));
      }
      String headers = definition.customHeadersJson();
      if (!definition.headerExpressions().isEmpty()) {
        what = "headers";
        expression = describe(definition.headerExpressions());
        headers = withHeaders(headers, definition.headerExpressions(), step.key());
      }
      return new JobSettings(jobType, jobRetries, headers);
    } catch (FeelStrings.EvaluationException | InvalidVariablesException e) {
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
              + e.getMessage());
      return null;
    }
  }

  /**
   * The static headers plus the FEEL ones, evaluated: a string as it is, anything else (a list of
   * candidates, say) as JSON, as Zeebe writes it into the header.
   */
  private String withHeaders(String staticJson, List<Mapping> expressions, long key) {
    // Header names hold dots, which a mapping target reads as a path: evaluate to plain names.
    List<Mapping> renamed = new ArrayList<>();
    for (int i = 0; i < expressions.size(); i++) {
      renamed.add(new Mapping(expressions.get(i).source(), "header" + i));
    }
    Map<String, byte[]> values = mappings.evaluate(renamed, variables.visible(key, List.of()));
    Map<String, Object> headers = new LinkedHashMap<>();
    Object parsed = JsonDocuments.toJava(staticJson.getBytes(StandardCharsets.UTF_8));
    if (parsed instanceof Map<?, ?> map) {
      map.forEach((name, value) -> headers.put(String.valueOf(name), value));
    }
    for (int i = 0; i < expressions.size(); i++) {
      byte[] json = values.get("header" + i);
      Object value = JsonDocuments.toJava(json);
      if (value == null) {
        continue; // Zeebe leaves a header out when its expression gives null
      }
      headers.put(
          expressions.get(i).target(),
          value instanceof String text ? text : new String(json, StandardCharsets.UTF_8));
    }
    StringBuilder json = new StringBuilder("{");
    headers.forEach(
        (name, value) -> {
          if (json.length() > 1) {
            json.append(',');
          }
          json.append(quote(name)).append(':').append(quote(String.valueOf(value)));
        });
    return json.append('}').toString();
  }

  private static String quote(String text) {
    return new String(JsonValues.fromJava(text), StandardCharsets.UTF_8);
  }

  private static String describe(List<Mapping> expressions) {
    List<String> sources = new ArrayList<>();
    for (Mapping mapping : expressions) {
      sources.add(mapping.target() + " " + mapping.source());
    }
    return String.join(", ", sources);
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

  private void create(ElementStep step, JobSettings settings) {
    ProcessingResult result = step.result();
    ProcessInstanceValue value = step.value();
    job.deadline = -1;
    job.retries = settings.retries();
    job.processInstanceKey = value.processInstanceKey;
    job.elementInstanceKey = step.key();
    job.processDefinitionKey = value.processDefinitionKey;
    job.processDefinitionVersion = value.version;
    job.type = settings.type();
    job.worker = "";
    job.bpmnProcessId = value.bpmnProcessId;
    job.elementId = step.element().id();
    job.customHeaders = settings.customHeadersJson().getBytes(StandardCharsets.UTF_8);
    job.variables = new byte[0];
    job.errorMessage = "";
    job.errorCode = "";
    long jobKey = context.nextKey();
    result.appendEvent(jobKey, JobIntent.CREATED, job);
    metrics.jobCreated(result, jobKey, context.nowMs());
    jobPush.activatable(result, jobKey, job);
  }
}

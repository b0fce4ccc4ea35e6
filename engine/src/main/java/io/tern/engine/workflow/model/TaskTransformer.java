package io.tern.engine.workflow.model;

import static io.tern.engine.workflow.model.BpmnTransformer.describe;

import io.camunda.zeebe.model.bpmn.instance.FlowNode;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeAssignmentDefinition;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeCalledDecision;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeFormDefinition;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeHeader;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeScript;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeTaskDefinition;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeTaskHeaders;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeTaskSchedule;
import io.tern.engine.workflow.feel.Mapping;
import io.tern.engine.workflow.model.ExecutableElement.JobDefinition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a task (or a job-based throw event) does: the job it creates ({@code zeebe:taskDefinition},
 * or for a user task the job Zeebe makes for it, with the assignment and schedule as headers), or
 * what it evaluates ({@code zeebe:script}, {@code zeebe:calledDecision}).
 */
final class TaskTransformer {
  /** The job type of job-based user tasks, which task list applications subscribe to. */
  static final String USER_TASK_JOB_TYPE = "io.camunda.zeebe:userTask";

  /** The headers of a user task's job, named as Zeebe names them. */
  static final String ASSIGNEE_HEADER = "io.camunda.zeebe:assignee";

  static final String CANDIDATE_GROUPS_HEADER = "io.camunda.zeebe:candidateGroups";
  static final String CANDIDATE_USERS_HEADER = "io.camunda.zeebe:candidateUsers";
  static final String DUE_DATE_HEADER = "io.camunda.zeebe:dueDate";
  static final String FOLLOW_UP_DATE_HEADER = "io.camunda.zeebe:followUpDate";
  static final String FORM_KEY_HEADER = "io.camunda.zeebe:formKey";

  /** A user task job's retries: Zeebe's default, as the task has no task definition. */
  private static final int USER_TASK_RETRIES = 1;

  private TaskTransformer() {}

  /** The element's {@code zeebe:taskDefinition} job, or null (with the reason in problems). */
  static JobDefinition jobOf(FlowNode node, List<String> problems) {
    ZeebeTaskDefinition definition = node.getSingleExtensionElement(ZeebeTaskDefinition.class);
    String jobType = definition == null ? null : definition.getType();
    if (jobType == null || jobType.isBlank()) {
      // A missing element or an empty type Zeebe's validator has reported already; a blank one
      // (" ") it lets through.
      if (!BpmnTransformer.alreadyReported(problems, node, "taskDefinition")) {
        problems.add(describe(node) + ": it needs a zeebe:taskDefinition type");
      }
      return null;
    }
    if (jobType.strip().startsWith("=")) {
      MappingChecks.checkFeel(node, jobType.strip(), problems); // evaluated when a job is made
    }
    String retriesText = definition.getRetries() == null ? null : definition.getRetries().strip();
    String retriesExpression = null;
    int retries = 0;
    if (retriesText != null && retriesText.startsWith("=")) {
      MappingChecks.checkFeel(node, retriesText, problems); // evaluated when a job is made
      retriesExpression = retriesText;
    } else {
      retries = parseRetries(node, retriesText, problems);
    }
    return new JobDefinition(
        jobType.strip(), retries, retriesExpression, headersJson(headersOf(node)), List.of());
  }

  /**
   * A job-based user task's job: type {@link #USER_TASK_JOB_TYPE}, with the task's headers plus its
   * assignment, schedule and form key as headers. Static values are set now, FEEL values when the
   * job is made (candidates as a JSON list, as Zeebe writes them).
   */
  static JobDefinition userTaskJobOf(FlowNode node, List<String> problems) {
    Map<String, String> headers = headersOf(node);
    List<Mapping> expressions = new ArrayList<>();
    ZeebeAssignmentDefinition assignment =
        node.getSingleExtensionElement(ZeebeAssignmentDefinition.class);
    if (assignment != null) {
      header(
          node, ASSIGNEE_HEADER, assignment.getAssignee(), false, headers, expressions, problems);
      header(
          node,
          CANDIDATE_GROUPS_HEADER,
          assignment.getCandidateGroups(),
          true,
          headers,
          expressions,
          problems);
      header(
          node,
          CANDIDATE_USERS_HEADER,
          assignment.getCandidateUsers(),
          true,
          headers,
          expressions,
          problems);
    }
    ZeebeTaskSchedule schedule = node.getSingleExtensionElement(ZeebeTaskSchedule.class);
    if (schedule != null) {
      header(node, DUE_DATE_HEADER, schedule.getDueDate(), false, headers, expressions, problems);
      header(
          node,
          FOLLOW_UP_DATE_HEADER,
          schedule.getFollowUpDate(),
          false,
          headers,
          expressions,
          problems);
    }
    ZeebeFormDefinition form = node.getSingleExtensionElement(ZeebeFormDefinition.class);
    if (form != null) {
      if (form.getFormKey() == null || form.getFormKey().isBlank()) {
        problems.add(
            describe(node)
                + ": only forms given by zeebe:formDefinition formKey are supported (deployed"
                + " forms, formId, are not yet)");
        return null;
      }
      headers.put(FORM_KEY_HEADER, form.getFormKey().strip());
    }
    return new JobDefinition(
        USER_TASK_JOB_TYPE,
        USER_TASK_RETRIES,
        null,
        headersJson(headers),
        List.copyOf(expressions));
  }

  /** A script task's {@code zeebe:script}, or null if it has none (it is then job-based). */
  static ExecutableElement.Script scriptOf(FlowNode node, List<String> problems) {
    ZeebeScript script = node.getSingleExtensionElement(ZeebeScript.class);
    if (script == null) {
      return null;
    }
    String expression = script.getExpression() == null ? "" : script.getExpression().strip();
    String resultVariable = script.getResultVariable();
    if (!expression.startsWith("=") || resultVariable == null || resultVariable.isBlank()) {
      problems.add(
          describe(node)
              + ": zeebe:script needs a FEEL expression (starting with '=') and a resultVariable");
      return new ExecutableElement.Script(expression, "");
    }
    MappingChecks.checkFeel(node, expression, problems);
    return new ExecutableElement.Script(expression, resultVariable.strip());
  }

  /** A business rule task's {@code zeebe:calledDecision}, or null if it has none (job-based). */
  static ExecutableElement.CalledDecision calledDecisionOf(FlowNode node, List<String> problems) {
    ZeebeCalledDecision called = node.getSingleExtensionElement(ZeebeCalledDecision.class);
    if (called == null) {
      return null;
    }
    String decisionId = called.getDecisionId() == null ? "" : called.getDecisionId().strip();
    String resultVariable = called.getResultVariable();
    if (decisionId.isEmpty() || resultVariable == null || resultVariable.isBlank()) {
      problems.add(
          describe(node) + ": zeebe:calledDecision needs a decisionId and a resultVariable");
      return new ExecutableElement.CalledDecision(decisionId, "");
    }
    if (decisionId.startsWith("=")) {
      MappingChecks.checkFeel(node, decisionId, problems); // evaluated when the task is entered
    }
    return new ExecutableElement.CalledDecision(decisionId, resultVariable.strip());
  }

  /**
   * Adds a user task header: FEEL to {@code expressions}, static text to {@code headers} (a static
   * list, "a, b", as a JSON list).
   */
  private static void header(
      FlowNode node,
      String name,
      String value,
      boolean list,
      Map<String, String> headers,
      List<Mapping> expressions,
      List<String> problems) {
    if (value == null || value.isBlank()) {
      return;
    }
    String text = value.strip();
    if (text.startsWith("=")) {
      MappingChecks.checkFeel(node, text, problems);
      expressions.add(new Mapping(text, name));
    } else if (list) {
      StringBuilder json = new StringBuilder("[");
      for (String item : text.split(",")) {
        if (!item.isBlank()) {
          appendJsonString(json.length() > 1 ? json.append(',') : json, item.strip());
        }
      }
      headers.put(name, json.append(']').toString());
    } else {
      headers.put(name, text);
    }
  }

  static Map<String, String> headersOf(FlowNode node) {
    Map<String, String> headers = new LinkedHashMap<>();
    ZeebeTaskHeaders taskHeaders = node.getSingleExtensionElement(ZeebeTaskHeaders.class);
    if (taskHeaders != null) {
      for (ZeebeHeader header : taskHeaders.getHeaders()) {
        headers.put(header.getKey(), header.getValue());
      }
    }
    return headers;
  }

  private static int parseRetries(FlowNode node, String retries, List<String> problems) {
    String text = retries == null ? ZeebeTaskDefinition.DEFAULT_RETRIES : retries.trim();
    try {
      int value = Integer.parseInt(text);
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    problems.add(
        describe(node)
            + ": retries must be a whole number >= 0 or a FEEL expression after '=', got '"
            + text
            + "'");
    return 0;
  }

  /** The headers as a JSON object of strings. */
  static String headersJson(Map<String, String> headers) {
    if (headers.isEmpty()) {
      return "{}";
    }
    StringBuilder json = new StringBuilder("{");
    headers.forEach(
        (key, value) -> {
          if (json.length() > 1) {
            json.append(',');
          }
          appendJsonString(json, key).append(':');
          appendJsonString(json, value);
        });
    return json.append('}').toString();
  }

  static StringBuilder appendJsonString(StringBuilder json, String text) {
    json.append('"');
    for (char c : (text == null ? "" : text).toCharArray()) {
      switch (c) {
        case '"' -> json.append("\\\"");
        case '\\' -> json.append("\\\\");
        case '\n' -> json.append("\\n");
        case '\r' -> json.append("\\r");
        case '\t' -> json.append("\\t");
        default -> {
          if (c < 0x20) {
            json.append(String.format("\\u%04x", (int) c));
          } else {
            json.append(c);
          }
        }
      }
    }
    return json.append('"');
  }
}

package io.tern.engine.workflow.model;

import static io.tern.engine.workflow.model.BpmnTransformer.describe;

import io.camunda.zeebe.model.bpmn.instance.FlowNode;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeAssignmentDefinition;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeFormDefinition;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebePriorityDefinition;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeTaskListeners;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeTaskSchedule;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeUserTask;
import io.tern.engine.workflow.model.ExecutableElement.UserTaskDefinition;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * A Camunda user task ({@code zeebe:userTask}): its assignment, schedule, priority, form and
 * headers. Static values are checked now, so a bad one refuses the deployment; FEEL is parsed now
 * and evaluated when the task is created (an incident holds the task if it does not evaluate).
 */
final class UserTaskTransformer {
  private UserTaskTransformer() {}

  static boolean isCamundaUserTask(FlowNode node) {
    return node.getSingleExtensionElement(ZeebeUserTask.class) != null;
  }

  /** The task, or null with the reasons in {@code problems}. */
  static UserTaskDefinition transform(FlowNode node, List<String> problems) {
    int before = problems.size();
    ZeebeTaskListeners listeners = node.getSingleExtensionElement(ZeebeTaskListeners.class);
    if (listeners != null && !listeners.getTaskListeners().isEmpty()) {
      // Refused rather than skipped: a listener that never runs would let a task go on unchecked.
      problems.add(
          describe(node)
              + ": task listeners (zeebe:taskListeners) are not run by Tern; remove them, or"
              + " check the task in the job of a service task after it");
    }
    ZeebeAssignmentDefinition assignment =
        node.getSingleExtensionElement(ZeebeAssignmentDefinition.class);
    ZeebeTaskSchedule schedule = node.getSingleExtensionElement(ZeebeTaskSchedule.class);
    ZeebePriorityDefinition priority =
        node.getSingleExtensionElement(ZeebePriorityDefinition.class);
    ZeebeFormDefinition form = node.getSingleExtensionElement(ZeebeFormDefinition.class);
    UserTaskDefinition task =
        new UserTaskDefinition(
            property(node, assignment == null ? null : assignment.getAssignee(), problems),
            property(node, assignment == null ? null : assignment.getCandidateGroups(), problems),
            property(node, assignment == null ? null : assignment.getCandidateUsers(), problems),
            date(node, "due date", schedule == null ? null : schedule.getDueDate(), problems),
            date(
                node,
                "follow-up date",
                schedule == null ? null : schedule.getFollowUpDate(),
                problems),
            priority(node, priority == null ? null : priority.getPriority(), problems),
            form(node, form, problems),
            TaskTransformer.headersJson(TaskTransformer.headersOf(node)));
    return problems.size() == before ? task : null;
  }

  /** Null for nothing given; else the stripped text, FEEL checked. */
  private static String property(FlowNode node, String value, List<String> problems) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String text = value.strip();
    MappingChecks.checkFeel(node, text, problems);
    return text;
  }

  private static String date(FlowNode node, String what, String value, List<String> problems) {
    String text = property(node, value, problems);
    if (text != null && !text.startsWith("=")) {
      try {
        ZonedDateTime.parse(text);
      } catch (DateTimeParseException e) {
        problems.add(
            describe(node)
                + ": the "
                + what
                + " '"
                + text
                + "' is no ISO 8601 date-time with an offset (such as 2026-12-24T18:00:00+01:00)");
      }
    }
    return text;
  }

  private static String priority(FlowNode node, String value, List<String> problems) {
    String text = property(node, value, problems);
    if (text != null && !text.startsWith("=")) {
      try {
        int number = Integer.parseInt(text);
        if (number >= 0 && number <= 100) {
          return text;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      problems.add(
          describe(node)
              + ": the priority must be a whole number from 0 to 100 or a FEEL expression after"
              + " '=', got '"
              + text
              + "'");
    }
    return text;
  }

  /**
   * The form a task list shows. Tern has no form resources to deploy, so a linked form ({@code
   * formId}) cannot be resolved: it refuses the deployment, naming what works instead.
   */
  private static String form(FlowNode node, ZeebeFormDefinition form, List<String> problems) {
    if (form == null) {
      return null;
    }
    if (form.getFormId() != null && !form.getFormId().isBlank()) {
      problems.add(
          describe(node)
              + ": linked forms (zeebe:formDefinition formId '"
              + form.getFormId().strip()
              + "') need deployed form resources, which Tern does not have; give the form as"
              + " externalReference (or formKey)");
      return null;
    }
    String reference =
        form.getExternalReference() != null && !form.getExternalReference().isBlank()
            ? form.getExternalReference()
            : form.getFormKey();
    return property(node, reference, problems);
  }
}

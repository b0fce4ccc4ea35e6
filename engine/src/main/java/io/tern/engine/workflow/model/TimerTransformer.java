package io.tern.engine.workflow.model;

import static io.tern.engine.workflow.model.BpmnTransformer.describe;

import io.camunda.zeebe.model.bpmn.instance.FlowNode;
import io.camunda.zeebe.model.bpmn.instance.IntermediateCatchEvent;
import io.camunda.zeebe.model.bpmn.instance.TimerEventDefinition;
import io.tern.engine.workflow.timer.TimerKind;
import java.util.List;

/** Reads a timer event definition: which of duration, date or cycle, and its expression. */
final class TimerTransformer {
  private TimerTransformer() {}

  static EventDefinition.Timer transform(
      FlowNode node, TimerEventDefinition timer, List<String> problems) {
    TimerKind kind;
    String text;
    if (timer.getTimeDuration() != null) {
      kind = TimerKind.DURATION;
      text = timer.getTimeDuration().getTextContent();
    } else if (timer.getTimeDate() != null) {
      kind = TimerKind.DATE;
      text = timer.getTimeDate().getTextContent();
    } else if (timer.getTimeCycle() != null) {
      kind = TimerKind.CYCLE;
      text = timer.getTimeCycle().getTextContent();
    } else {
      problems.add(describe(node) + ": a timer needs a timeDuration, timeDate or timeCycle");
      return null;
    }
    if (text == null || text.isBlank()) {
      problems.add(describe(node) + ": the timer's " + kind.name().toLowerCase() + " is empty");
      return null;
    }
    if (kind == TimerKind.CYCLE && node instanceof IntermediateCatchEvent) {
      problems.add(
          describe(node) + ": an intermediate timer catch event needs a duration or a date");
      return null;
    }
    String expression = text.strip();
    MappingChecks.checkFeel(node, expression, problems);
    if (!expression.startsWith("=")) {
      // A static timer is checked now, so a typo is a deployment error and not an incident.
      try {
        io.tern.engine.workflow.timer.TimerSchedule.check(kind, expression);
      } catch (IllegalArgumentException e) {
        problems.add(describe(node) + ": " + e.getMessage());
        return null;
      }
    }
    return new EventDefinition.Timer(kind, expression);
  }
}

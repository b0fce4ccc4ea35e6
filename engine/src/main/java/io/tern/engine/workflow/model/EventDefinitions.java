package io.tern.engine.workflow.model;

import static io.tern.engine.workflow.model.BpmnTransformer.describe;

import io.camunda.zeebe.model.bpmn.instance.BoundaryEvent;
import io.camunda.zeebe.model.bpmn.instance.CompensateEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.EndEvent;
import io.camunda.zeebe.model.bpmn.instance.ErrorEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.EscalationEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.EventDefinition;
import io.camunda.zeebe.model.bpmn.instance.FlowNode;
import io.camunda.zeebe.model.bpmn.instance.LinkEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.MessageEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.SignalEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.StartEvent;
import io.camunda.zeebe.model.bpmn.instance.SubProcess;
import io.camunda.zeebe.model.bpmn.instance.TerminateEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.TimerEventDefinition;
import io.tern.engine.workflow.feel.FeelStrings;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * An event's BPMN event definition (error, escalation, link, message, signal, terminate, timer)
 * read into the {@link io.tern.engine.workflow.model.EventDefinition} Tern runs, with the checks
 * each kind needs at deployment.
 */
final class EventDefinitions {
  private EventDefinitions() {}

  /** True if {@code node} has exactly one event definition, of {@code kind}. */
  static boolean only(FlowNode node, Class<? extends EventDefinition> kind) {
    Collection<EventDefinition> definitions = of(node);
    return definitions.size() == 1 && kind.isInstance(definitions.iterator().next());
  }

  /** The event definitions of an event; none for other nodes. */
  static Collection<EventDefinition> of(FlowNode node) {
    if (node instanceof io.camunda.zeebe.model.bpmn.instance.CatchEvent catchEvent) {
      return catchEvent.getEventDefinitions();
    }
    if (node instanceof io.camunda.zeebe.model.bpmn.instance.ThrowEvent throwEvent) {
      return throwEvent.getEventDefinitions();
    }
    return List.of();
  }

  /** What Tern runs of {@code definition}, or null with the reasons in {@code problems}. */
  static io.tern.engine.workflow.model.EventDefinition transform(
      FlowNode node, EventDefinition definition, List<String> problems) {
    if (definition instanceof ErrorEventDefinition error) {
      String code = error.getError() == null ? null : error.getError().getErrorCode();
      if (code != null && code.strip().startsWith("=")) {
        if (!(node instanceof EndEvent)) {
          problems.add(
              describe(node)
                  + ": a catching error event needs a static error code (expressions are for"
                  + " error end events)");
          return null;
        }
        code = code.strip();
        MappingChecks.checkFeel(node, code, problems); // evaluated when the end event is reached
      }
      if (code == null && node instanceof EndEvent) {
        problems.add(describe(node) + ": an error end event needs an error with an error code");
        return null;
      }
      return new io.tern.engine.workflow.model.EventDefinition.Error(code);
    }
    if (definition instanceof LinkEventDefinition link) {
      String name = link.getName();
      if (name == null || name.isBlank()) {
        problems.add(describe(node) + ": a link event needs a name");
        return null;
      }
      return new io.tern.engine.workflow.model.EventDefinition.Link(name.strip(), null);
    }
    if (definition instanceof TerminateEventDefinition) {
      return new io.tern.engine.workflow.model.EventDefinition.Terminate();
    }
    if (definition instanceof TimerEventDefinition timer) {
      return TimerTransformer.transform(node, timer, problems);
    }
    if (definition instanceof MessageEventDefinition message) {
      // A process's message start needs no correlation key; an event subprocess's does.
      return node instanceof StartEvent && !inEventSubprocess(node)
          ? MessageTransformer.transformStart(node, message.getMessage(), problems)
          : MessageTransformer.transform(node, message.getMessage(), problems);
    }
    if (definition instanceof SignalEventDefinition signal) {
      return signalOf(node, signal, problems);
    }
    if (definition instanceof EscalationEventDefinition escalation) {
      return escalationOf(node, escalation, problems);
    }
    if (definition instanceof CompensateEventDefinition compensate) {
      return compensationOf(node, compensate, problems);
    }
    problems.add(
        describe(node)
            + ": this event definition is not supported yet ("
            + ElementTransformer.SUPPORTED
            + ")");
    return null;
  }

  /**
   * A signal event's signal name: a process's start event's is evaluated now (its subscription
   * opens at deployment, without variables); others may be FEEL, evaluated on entering.
   */
  private static io.tern.engine.workflow.model.EventDefinition.Signal signalOf(
      FlowNode node, SignalEventDefinition definition, List<String> problems) {
    String name = definition.getSignal() == null ? null : definition.getSignal().getName();
    if (name == null || name.isBlank()) {
      problems.add(describe(node) + ": it needs a signal with a name");
      return null;
    }
    if (name.strip().startsWith("=")) {
      name = name.strip(); // an expression; a static name is matched exactly as written
    }
    if (node instanceof StartEvent && !inEventSubprocess(node)) {
      try {
        name = new FeelStrings().evaluate(name, Map::of);
      } catch (FeelStrings.EvaluationException e) {
        problems.add(
            describe(node)
                + ": the signal name of a start event is evaluated at deployment, without"
                + " variables, and '"
                + name
                + "' fails: "
                + e.getMessage());
        return null;
      }
    } else {
      MappingChecks.checkFeel(node, name, problems);
    }
    return new io.tern.engine.workflow.model.EventDefinition.Signal(name);
  }

  /**
   * An escalation event's code: a throw event needs one (static, or FEEL evaluated when it is
   * reached); a catch event's is static, and without one it catches every escalation.
   */
  private static io.tern.engine.workflow.model.EventDefinition.Escalation escalationOf(
      FlowNode node, EscalationEventDefinition definition, List<String> problems) {
    String code =
        definition.getEscalation() == null ? null : definition.getEscalation().getEscalationCode();
    code = code == null || code.isBlank() ? null : code.strip();
    boolean thrown =
        node instanceof EndEvent
            || node instanceof io.camunda.zeebe.model.bpmn.instance.IntermediateThrowEvent;
    if (thrown && code == null) {
      problems.add(describe(node) + ": an escalation throw event needs an escalation code");
      return null;
    }
    if (code != null && code.startsWith("=")) {
      if (!thrown) {
        problems.add(
            describe(node)
                + ": a catching escalation event needs a static escalation code (expressions are"
                + " for throw events)");
        return null;
      }
      MappingChecks.checkFeel(node, code, problems); // evaluated when the event is reached
    }
    return new io.tern.engine.workflow.model.EventDefinition.Escalation(code);
  }

  /**
   * A compensation event: a throw event's activity to compensate, if it names one; it always waits
   * for the handlers (as Zeebe, which refuses waitForCompletion="false").
   */
  private static io.tern.engine.workflow.model.EventDefinition.Compensation compensationOf(
      FlowNode node, CompensateEventDefinition definition, List<String> problems) {
    if (node instanceof BoundaryEvent) {
      return new io.tern.engine.workflow.model.EventDefinition.Compensation(null);
    }
    // The model reads an absent attribute as false; only one written "false" is refused.
    String waitForCompletion = definition.getAttributeValue("waitForCompletion");
    if (waitForCompletion != null && !Boolean.parseBoolean(waitForCompletion.strip())) {
      problems.add(
          describe(node)
              + ": a compensation throw event waits for the compensation handlers;"
              + " waitForCompletion must be true or absent");
      return null;
    }
    String activity = definition.getActivity() == null ? null : definition.getActivity().getId();
    return new io.tern.engine.workflow.model.EventDefinition.Compensation(activity);
  }

  private static boolean inEventSubprocess(FlowNode node) {
    return node.getParentElement() instanceof SubProcess subprocess
        && subprocess.triggeredByEvent();
  }
}

package io.tern.engine.workflow.model;

import static io.tern.engine.workflow.model.BpmnTransformer.describe;

import io.camunda.zeebe.model.bpmn.instance.Activity;
import io.camunda.zeebe.model.bpmn.instance.BoundaryEvent;
import io.camunda.zeebe.model.bpmn.instance.BusinessRuleTask;
import io.camunda.zeebe.model.bpmn.instance.CallActivity;
import io.camunda.zeebe.model.bpmn.instance.CompensateEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.EndEvent;
import io.camunda.zeebe.model.bpmn.instance.ErrorEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.EscalationEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.EventBasedGateway;
import io.camunda.zeebe.model.bpmn.instance.EventDefinition;
import io.camunda.zeebe.model.bpmn.instance.ExclusiveGateway;
import io.camunda.zeebe.model.bpmn.instance.FlowElement;
import io.camunda.zeebe.model.bpmn.instance.FlowNode;
import io.camunda.zeebe.model.bpmn.instance.InclusiveGateway;
import io.camunda.zeebe.model.bpmn.instance.IntermediateCatchEvent;
import io.camunda.zeebe.model.bpmn.instance.IntermediateThrowEvent;
import io.camunda.zeebe.model.bpmn.instance.LinkEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.ManualTask;
import io.camunda.zeebe.model.bpmn.instance.MessageEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.ParallelGateway;
import io.camunda.zeebe.model.bpmn.instance.ReceiveTask;
import io.camunda.zeebe.model.bpmn.instance.ScriptTask;
import io.camunda.zeebe.model.bpmn.instance.SendTask;
import io.camunda.zeebe.model.bpmn.instance.SequenceFlow;
import io.camunda.zeebe.model.bpmn.instance.ServiceTask;
import io.camunda.zeebe.model.bpmn.instance.SignalEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.StartEvent;
import io.camunda.zeebe.model.bpmn.instance.SubProcess;
import io.camunda.zeebe.model.bpmn.instance.Task;
import io.camunda.zeebe.model.bpmn.instance.TerminateEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.TimerEventDefinition;
import io.camunda.zeebe.model.bpmn.instance.UserTask;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeCalledElement;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeInput;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeIoMapping;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeOutput;
import io.tern.engine.workflow.feel.Mapping;
import io.tern.engine.workflow.model.ExecutableElement.Flow;
import io.tern.engine.workflow.model.ExecutableElement.JobDefinition;
import io.tern.engine.workflow.value.BpmnElementType;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Turns one BPMN flow node into an {@link ExecutableElement}, or reports (into {@code problems})
 * why Tern cannot run it, naming the element.
 */
final class ElementTransformer {
  static final String SUPPORTED =
      "Tern runs none, message, timer and signal start events, none, error, terminate, signal and"
          + " message (job-based) end events, none, link, signal and message (job-based)"
          + " intermediate throw events, escalation and compensation intermediate throw and end"
          + " events,"
          + " service tasks, receive tasks, undefined and manual tasks, user tasks (job-based or Camunda user tasks),"
          + " script tasks (FEEL or job-based), send tasks, business rule tasks (called decision or"
          + " job-based), call activities and embedded subprocesses (every task and these two also"
          + " multi-instance), event subprocesses (timer, message, signal, error or escalation start,"
          + " interrupting or not), timer, message, signal and link intermediate catch events,"
          + " timer, message, signal, error and compensation boundary events (a compensation"
          + " handler: an activity marked isForCompensation), escalation boundary events on"
          + " subprocesses and call activities, parallel, exclusive, inclusive and"
          + " event-based gateways, and sequence flows";

  private ElementTransformer() {}

  /** Null (with the reason in {@code problems}) if the element cannot be run. */
  static ExecutableElement transform(
      FlowElement element, List<String> boundaryEventIds, List<String> problems) {
    BpmnElementType type = typeOf(element, problems);
    if (type == null) {
      return null;
    }
    FlowNode node = (FlowNode) element;
    List<String> incoming = new ArrayList<>();
    for (SequenceFlow flow : node.getIncoming()) {
      incoming.add(flow.getId());
    }
    List<Flow> outgoing = new ArrayList<>();
    for (SequenceFlow flow : node.getOutgoing()) {
      outgoing.add(
          new Flow(flow.getId(), flow.getTarget().getId(), BpmnTransformer.conditionOf(flow)));
    }
    String defaultFlow = null;
    if (node instanceof ExclusiveGateway gateway && gateway.getDefault() != null) {
      defaultFlow = gateway.getDefault().getId();
    } else if (node instanceof InclusiveGateway gateway && gateway.getDefault() != null) {
      defaultFlow = gateway.getDefault().getId();
    }
    JobDefinition job = null;
    ExecutableElement.Evaluation evaluation = null;
    switch (type) {
      case SCRIPT_TASK -> evaluation = TaskTransformer.scriptOf(node, problems);
      case BUSINESS_RULE_TASK -> evaluation = TaskTransformer.calledDecisionOf(node, problems);
      default -> {}
    }
    ExecutableElement.UserTaskDefinition userTask = null;
    if (type == BpmnElementType.USER_TASK && UserTaskTransformer.isCamundaUserTask(node)) {
      userTask = UserTaskTransformer.transform(node, problems);
      if (userTask == null) {
        return null;
      }
    } else if (type == BpmnElementType.USER_TASK) {
      job = TaskTransformer.userTaskJobOf(node, problems);
      if (job == null) {
        return null;
      }
    } else if (isJobBased(type, node) && evaluation == null) {
      job = TaskTransformer.jobOf(node, problems);
      if (job == null) {
        return null;
      }
    }
    ExecutableElement.CallDefinition call = null;
    if (type == BpmnElementType.CALL_ACTIVITY) {
      call = callOf(node, problems);
      if (call == null) {
        return null;
      }
    }
    ExecutableElement.MultiInstance loop = null;
    if (node instanceof Activity activity && activity.getLoopCharacteristics() != null) {
      loop = MultiInstanceTransformer.transform(node, activity.getLoopCharacteristics(), problems);
      if (loop == null) {
        return null;
      }
    }
    String attachedTo = null;
    boolean interrupting = false;
    if (node instanceof BoundaryEvent boundary) {
      attachedTo = boundary.getAttachedTo().getId();
      interrupting = boundary.cancelActivity();
    } else if (node instanceof StartEvent start) {
      interrupting = start.isInterrupting(); // meaningful in event subprocesses
    }
    io.tern.engine.workflow.model.EventDefinition event = null;
    Collection<EventDefinition> definitions = EventDefinitions.of(node);
    if (node instanceof ReceiveTask receiveTask) {
      event = MessageTransformer.transform(node, receiveTask.getMessage(), problems);
      if (event == null) {
        return null;
      }
    } else if (!definitions.isEmpty() && job == null) {
      event = EventDefinitions.transform(node, definitions.iterator().next(), problems);
      if (event == null) {
        return null;
      }
    }
    ZeebeIoMapping io = node.getSingleExtensionElement(ZeebeIoMapping.class);
    List<Mapping> inputs = new ArrayList<>();
    List<Mapping> outputs = new ArrayList<>();
    if (io != null) {
      for (ZeebeInput input : io.getInputs()) {
        inputs.add(MappingChecks.check(node, input.getSource(), input.getTarget(), problems));
      }
      for (ZeebeOutput output : io.getOutputs()) {
        outputs.add(MappingChecks.check(node, output.getSource(), output.getTarget(), problems));
      }
    }
    return new ExecutableElement(
        node.getId(),
        type,
        List.copyOf(incoming),
        List.copyOf(outgoing),
        defaultFlow,
        job,
        null,
        List.copyOf(boundaryEventIds),
        attachedTo,
        interrupting,
        event,
        call,
        evaluation,
        loop,
        List.copyOf(inputs),
        List.copyOf(outputs),
        userTask);
  }

  /** The subprocess {@code element} with the id of the start event its flow begins at. */
  static ExecutableElement withStartEvent(ExecutableElement element, String startEventId) {
    return new ExecutableElement(
        element.id(),
        element.type(),
        element.incoming(),
        element.outgoing(),
        element.defaultFlowId(),
        element.job(),
        startEventId,
        element.boundaryEventIds(),
        element.attachedToId(),
        element.interrupting(),
        element.event(),
        element.call(),
        element.evaluation(),
        element.loop(),
        element.inputs(),
        element.outputs(),
        element.userTask());
  }

  /**
   * Whether the element creates a job: service, send, script and business rule tasks (the last two
   * unless they evaluate a script or decision), and message throw events.
   */
  private static boolean isJobBased(BpmnElementType type, FlowNode node) {
    return switch (type) {
      case SERVICE_TASK, SEND_TASK, SCRIPT_TASK, BUSINESS_RULE_TASK -> true;
      case END_EVENT, INTERMEDIATE_THROW_EVENT ->
          EventDefinitions.only(node, MessageEventDefinition.class);
      default -> false;
    };
  }

  private static BpmnElementType typeOf(FlowElement element, List<String> problems) {
    if (element instanceof StartEvent start) {
      if (start.getEventDefinitions().isEmpty()
          || EventDefinitions.only(start, MessageEventDefinition.class)
          || EventDefinitions.only(start, TimerEventDefinition.class)
          || EventDefinitions.only(start, ErrorEventDefinition.class)
          || EventDefinitions.only(start, SignalEventDefinition.class)
          || EventDefinitions.only(start, EscalationEventDefinition.class)) {
        return BpmnElementType.START_EVENT; // timers, errors, signals: checked by the scope
      }
    } else if (element instanceof EndEvent end) {
      if (end.getEventDefinitions().isEmpty()
          || EventDefinitions.only(end, ErrorEventDefinition.class)
          || EventDefinitions.only(end, MessageEventDefinition.class)
          || EventDefinitions.only(end, TerminateEventDefinition.class)
          || EventDefinitions.only(end, SignalEventDefinition.class)
          || EventDefinitions.only(end, EscalationEventDefinition.class)
          || EventDefinitions.only(end, CompensateEventDefinition.class)) {
        return BpmnElementType.END_EVENT;
      }
    } else if (element instanceof IntermediateThrowEvent throwEvent) {
      if (throwEvent.getEventDefinitions().isEmpty()
          || EventDefinitions.only(throwEvent, MessageEventDefinition.class)
          || EventDefinitions.only(throwEvent, LinkEventDefinition.class)
          || EventDefinitions.only(throwEvent, SignalEventDefinition.class)
          || EventDefinitions.only(throwEvent, EscalationEventDefinition.class)
          || EventDefinitions.only(throwEvent, CompensateEventDefinition.class)) {
        return BpmnElementType.INTERMEDIATE_THROW_EVENT;
      }
    } else if (element instanceof ServiceTask) {
      return BpmnElementType.SERVICE_TASK;
    } else if (element instanceof UserTask) {
      return BpmnElementType.USER_TASK;
    } else if (element instanceof ScriptTask) {
      return BpmnElementType.SCRIPT_TASK;
    } else if (element instanceof SendTask) {
      return BpmnElementType.SEND_TASK;
    } else if (element instanceof BusinessRuleTask) {
      return BpmnElementType.BUSINESS_RULE_TASK;
    } else if (element instanceof ManualTask) {
      return BpmnElementType.MANUAL_TASK;
    } else if (element instanceof CallActivity) {
      return BpmnElementType.CALL_ACTIVITY;
    } else if (element instanceof ReceiveTask) {
      return BpmnElementType.RECEIVE_TASK;
    } else if (element instanceof ParallelGateway) {
      return BpmnElementType.PARALLEL_GATEWAY;
    } else if (element instanceof ExclusiveGateway) {
      return BpmnElementType.EXCLUSIVE_GATEWAY;
    } else if (element instanceof EventBasedGateway gateway) {
      return EventGatewayCheck.check(gateway, problems)
          ? BpmnElementType.EVENT_BASED_GATEWAY
          : null;
    } else if (element instanceof InclusiveGateway) {
      return BpmnElementType.INCLUSIVE_GATEWAY;
    } else if (element instanceof io.camunda.zeebe.model.bpmn.instance.AdHocSubProcess
        || element instanceof io.camunda.zeebe.model.bpmn.instance.Transaction) {
      // Subclasses of SubProcess with other semantics: reported as unsupported below.
    } else if (element instanceof SubProcess subprocess) {
      return subprocess.triggeredByEvent()
          ? BpmnElementType.EVENT_SUB_PROCESS
          : BpmnElementType.SUB_PROCESS;
    } else if (element instanceof Task task && isUndefinedTask(task)) {
      return BpmnElementType.TASK;
    } else if (element instanceof IntermediateCatchEvent catchEvent) {
      if (EventDefinitions.only(catchEvent, TimerEventDefinition.class)
          || EventDefinitions.only(catchEvent, MessageEventDefinition.class)
          || EventDefinitions.only(catchEvent, LinkEventDefinition.class)
          || EventDefinitions.only(catchEvent, SignalEventDefinition.class)) {
        return BpmnElementType.INTERMEDIATE_CATCH_EVENT;
      }
    } else if (element instanceof BoundaryEvent boundary) {
      if (EventDefinitions.only(boundary, TimerEventDefinition.class)
          || EventDefinitions.only(boundary, ErrorEventDefinition.class)
          || EventDefinitions.only(boundary, MessageEventDefinition.class)
          || EventDefinitions.only(boundary, SignalEventDefinition.class)
          || EventDefinitions.only(boundary, CompensateEventDefinition.class)) {
        return BpmnElementType.BOUNDARY_EVENT;
      }
      if (EventDefinitions.only(boundary, EscalationEventDefinition.class)) {
        if (boundary.getAttachedTo() instanceof SubProcess
            || boundary.getAttachedTo() instanceof CallActivity) {
          return BpmnElementType.BOUNDARY_EVENT;
        }
        problems.add(
            describe(element)
                + ": an escalation boundary event must be attached to a subprocess or a call"
                + " activity (nothing else throws escalations)");
        return null;
      }
    }
    problems.add(describe(element) + ": this element is not supported yet (" + SUPPORTED + ")");
    return null;
  }

  /** A plain {@code bpmn:task}, not one of the task kinds above that Tern does not run. */
  private static boolean isUndefinedTask(Task task) {
    return "task".equals(task.getElementType().getTypeName());
  }

  private static ExecutableElement.CallDefinition callOf(FlowNode node, List<String> problems) {
    ZeebeCalledElement called = node.getSingleExtensionElement(ZeebeCalledElement.class);
    String processId = called == null ? null : called.getProcessId();
    if (processId == null || processId.isBlank()) {
      problems.add(describe(node) + ": a call activity needs a zeebe:calledElement processId");
      return null;
    }
    MappingChecks.checkFeel(node, processId.strip(), problems);
    return new ExecutableElement.CallDefinition(
        processId.strip(),
        called.isPropagateAllChildVariablesEnabled(),
        called.isPropagateAllParentVariablesEnabled());
  }
}

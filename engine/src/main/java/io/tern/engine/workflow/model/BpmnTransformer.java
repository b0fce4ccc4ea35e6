package io.tern.engine.workflow.model;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.camunda.zeebe.model.bpmn.instance.BaseElement;
import io.camunda.zeebe.model.bpmn.instance.BoundaryEvent;
import io.camunda.zeebe.model.bpmn.instance.ExclusiveGateway;
import io.camunda.zeebe.model.bpmn.instance.FlowElement;
import io.camunda.zeebe.model.bpmn.instance.FlowNode;
import io.camunda.zeebe.model.bpmn.instance.InclusiveGateway;
import io.camunda.zeebe.model.bpmn.instance.Process;
import io.camunda.zeebe.model.bpmn.instance.SequenceFlow;
import io.camunda.zeebe.model.bpmn.instance.SubProcess;
import io.camunda.zeebe.model.bpmn.traversal.ModelWalker;
import io.camunda.zeebe.model.bpmn.validation.ValidationVisitor;
import io.camunda.zeebe.model.bpmn.validation.zeebe.ZeebeDesignTimeValidators;
import io.tern.engine.workflow.value.BpmnElementType;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.model.xml.instance.ModelElementInstance;
import org.camunda.bpm.model.xml.validation.ValidationResult;
import org.camunda.bpm.model.xml.validation.ValidationResultType;

/**
 * Reads a BPMN resource, validates it as Zeebe does at design time, checks that Tern runs every
 * element in it, and turns its executable processes into {@link ExecutableProcess}es. Pure: the
 * same bytes always give the same processes, so replay can transform again instead of storing the
 * result.
 */
public final class BpmnTransformer {
  /** What {@code transformScope} returns for a process with timer start events and no none one. */
  /** The longest id of a process or element: records keep ids in at most 64 KiB of text. */
  static final int MAX_ID_CHARS = 4096;

  private static final String EVENT_STARTS_ONLY = new String("<timer or signal starts only>");

  private BpmnTransformer() {}

  /**
   * @throws DeploymentRejection naming the resource and, for each problem, the element and what is
   *     wrong
   */
  public static List<ExecutableProcess> transform(String resourceName, byte[] resource) {
    BpmnModelInstance model;
    try {
      model = Bpmn.readModelFromStream(new ByteArrayInputStream(resource));
    } catch (RuntimeException e) {
      throw new DeploymentRejection(
          "'" + resourceName + "' is not a valid BPMN file: " + rootMessage(e));
    }
    List<String> problems = new ArrayList<>();
    ValidationVisitor validator = new ValidationVisitor(ZeebeDesignTimeValidators.VALIDATORS);
    new ModelWalker(model).walk(validator);
    validator
        .getValidationResult()
        .getResults()
        .forEach(
            (element, results) -> {
              for (ValidationResult result : results) {
                if (result.getType() == ValidationResultType.ERROR) {
                  problems.add(describeWithOwner(element) + ": " + result.getMessage());
                }
              }
            });
    for (BaseElement element : model.getModelElementsByType(BaseElement.class)) {
      String id = element.getId();
      if (id != null && id.length() > MAX_ID_CHARS) {
        problems.add(
            "an id of "
                + id.length()
                + " characters ('"
                + id.substring(0, 40)
                + "...'); ids are at most "
                + MAX_ID_CHARS
                + " characters long");
      }
    }
    List<ExecutableProcess> processes = new ArrayList<>();
    for (Process process : model.getModelElementsByType(Process.class)) {
      if (process.isExecutable()) {
        ExecutableProcess executable = transform(process, problems);
        if (executable != null) {
          processes.add(executable);
        }
      }
    }
    if (problems.isEmpty() && processes.isEmpty()) {
      problems.add("it contains no executable process");
    }
    if (!problems.isEmpty()) {
      throw new DeploymentRejection(
          "'" + resourceName + "' cannot be deployed:\n- " + String.join("\n- ", problems));
    }
    return processes;
  }

  private static ExecutableProcess transform(Process process, List<String> problems) {
    Map<String, ExecutableElement> elements = new LinkedHashMap<>();
    Map<String, String> flowTargets = new LinkedHashMap<>();
    Map<String, String> messageStarts = new LinkedHashMap<>();
    Map<String, List<String>> eventStarts = new LinkedHashMap<>();
    Map<String, String> flowScopes = new LinkedHashMap<>();
    String start =
        transformScope(
            process,
            process.getFlowElements(),
            elements,
            flowTargets,
            messageStarts,
            eventStarts,
            flowScopes,
            problems);
    if (start == null && messageStarts.isEmpty()) {
      problems.add(
          describe(process)
              + ": it needs a none start event, or a message, timer or signal start event");
      return null;
    }
    if (start == EVENT_STARTS_ONLY) {
      start = null;
    }
    java.util.Set<String> signalNames = new java.util.HashSet<>();
    for (ExecutableElement element : elements.values()) {
      if (element.type() == BpmnElementType.START_EVENT
          && element.event() instanceof EventDefinition.Signal signal
          && !isEventSubprocessStart(element.id(), eventStarts)
          && !signalNames.add(signal.name())) {
        problems.add(
            describe(process)
                + ": two of its start events wait for signal '"
                + signal.name()
                + "'; one per signal name");
      }
    }
    Map<String, String> compensationHandlers =
        CompensationCheck.handlers(process, elements, flowScopes, problems);
    return new ExecutableProcess(
        process.getId(),
        Map.copyOf(elements),
        start,
        Map.copyOf(messageStarts),
        Map.copyOf(flowTargets),
        Map.copyOf(eventStarts),
        InclusiveJoin.of(elements),
        Map.copyOf(flowScopes),
        Map.copyOf(compensationHandlers));
  }

  private static boolean isEventSubprocessStart(String id, Map<String, List<String>> eventStarts) {
    for (List<String> starts : eventStarts.values()) {
      if (starts.contains(id)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Transforms the flow elements of a process or embedded subprocess into {@code elements}, and a
   * process's message start events into {@code messageStarts} (message name to event id); returns
   * the scope's none start event id, or null if it has none (reported for a subprocess).
   */
  private static String transformScope(
      BaseElement scope,
      Collection<FlowElement> flowElements,
      Map<String, ExecutableElement> elements,
      Map<String, String> flowTargets,
      Map<String, String> messageStarts,
      Map<String, List<String>> eventStarts,
      Map<String, String> flowScopes,
      List<String> problems) {
    boolean eventScope = scope instanceof SubProcess sub && sub.triggeredByEvent();
    String start = null;
    boolean eventStart = false; // a timer or signal start event
    List<String> scopeElements = new ArrayList<>();
    Map<String, List<String>> boundaries = new LinkedHashMap<>();
    for (FlowElement element : flowElements) {
      if (element instanceof BoundaryEvent boundary) {
        boundaries
            .computeIfAbsent(boundary.getAttachedTo().getId(), id -> new ArrayList<>())
            .add(boundary.getId());
      }
    }
    for (FlowElement element : flowElements) {
      if (element instanceof SequenceFlow flow) {
        flowTargets.put(flow.getId(), flow.getTarget().getId());
        checkCondition(flow, problems);
        continue;
      }
      ExecutableElement executable =
          ElementTransformer.transform(
              element, boundaries.getOrDefault(element.getId(), List.of()), problems);
      if (executable == null) {
        continue;
      }
      if (executable.type() == BpmnElementType.START_EVENT) {
        if (eventScope) {
          if (executable.event() == null) {
            problems.add(
                describe(element)
                    + ": the start event of an event subprocess needs a timer, message, signal,"
                    + " error or escalation");
          }
          start = executable.id();
        } else if (executable.event() instanceof EventDefinition.Timer
            || executable.event() instanceof EventDefinition.Signal) {
          String kind = executable.event() instanceof EventDefinition.Timer ? "timer" : "signal";
          if (!(scope instanceof Process)) {
            problems.add(
                describe(element)
                    + ": "
                    + kind
                    + " start events are supported on processes and in event subprocesses"
                    + " only, not in subprocesses");
          } else {
            eventStart = true;
          }
        } else if (executable.event() != null
            && !(executable.event() instanceof EventDefinition.Message)) {
          String kind =
              executable.event() instanceof EventDefinition.Escalation ? "escalation" : "error";
          problems.add(
              describe(element)
                  + ": "
                  + kind
                  + " start events are supported in event subprocesses only");
        } else if (executable.event() instanceof EventDefinition.Message message) {
          if (!(scope instanceof Process)) {
            problems.add(
                describe(element)
                    + ": message start events are supported on processes only, not in"
                    + " subprocesses");
          } else if (messageStarts.putIfAbsent(message.name(), executable.id()) != null) {
            problems.add(
                describe(element)
                    + ": another start event of the process waits for message '"
                    + message.name()
                    + "' already");
          }
        } else {
          start = executable.id();
        }
      }
      if (executable.type() == BpmnElementType.SUB_PROCESS
          || executable.type() == BpmnElementType.EVENT_SUB_PROCESS) {
        SubProcess subprocess = (SubProcess) element;
        String subStart =
            transformScope(
                subprocess,
                subprocess.getFlowElements(),
                elements,
                flowTargets,
                messageStarts,
                eventStarts,
                flowScopes,
                problems);
        if (executable.type() == BpmnElementType.EVENT_SUB_PROCESS && subStart != null) {
          String scopeId = ((BaseElement) scope).getId();
          eventStarts.computeIfAbsent(scopeId, id -> new ArrayList<>()).add(subStart);
        }
        executable = ElementTransformer.withStartEvent(executable, subStart);
      }
      elements.put(executable.id(), executable);
      flowScopes.put(executable.id(), scope.getId());
      scopeElements.add(executable.id());
    }
    LinkResolver.resolve(scope, scopeElements, elements, problems);
    if (start == null && !(scope instanceof Process)) {
      problems.add(describe(scope) + ": it needs a none start event");
    }
    if (start == null && eventStart) {
      return EVENT_STARTS_ONLY;
    }
    return start;
  }

  private static void checkCondition(SequenceFlow flow, List<String> problems) {
    String condition = conditionOf(flow);
    if (condition == null
        && flow.getSource() instanceof ExclusiveGateway gateway
        && gateway.getOutgoing().size() > 1
        && gateway.getDefault() != flow) {
      // With one outgoing flow the gateway just passes the token on (a join).
      problems.add(
          describe(flow)
              + ": one of several flows leaving exclusive gateway '"
              + gateway.getId()
              + "', so it needs a condition or must be the gateway's default flow");
    } else if (condition != null
        && !(flow.getSource() instanceof ExclusiveGateway)
        && !(flow.getSource() instanceof InclusiveGateway)) {
      problems.add(
          describe(flow)
              + ": conditions are supported on the outgoing flows of exclusive and inclusive"
              + " gateways only (so far)");
    } else if (condition != null && !condition.strip().startsWith("=")) {
      problems.add(
          describe(flow)
              + ": a condition must be a FEEL expression starting with '=', got '"
              + condition
              + "'");
    } else if (condition != null) {
      MappingChecks.checkFeel(flow, condition.strip(), problems); // evaluated as a token passes
    }
  }

  static String conditionOf(SequenceFlow flow) {
    if (flow.getConditionExpression() == null) {
      return null;
    }
    String text = flow.getConditionExpression().getTextContent();
    return text == null || text.isBlank() ? null : text.strip();
  }

  static String describe(ModelElementInstance element) {
    String type = element.getElementType().getTypeName();
    String id = element instanceof BaseElement base ? base.getId() : null;
    return id == null ? "<" + type + ">" : "'" + id + "' (" + type + ")";
  }

  /**
   * An element as {@link #describe} says it; one without an id (an extension element such as
   * zeebe:taskDefinition) named with the element it belongs to: {@code 'charge' (serviceTask)
   * zeebe:taskDefinition}, not a bare {@code <taskDefinition>} the user cannot find.
   */
  static String describeWithOwner(ModelElementInstance element) {
    if (element instanceof BaseElement base && base.getId() != null) {
      return describe(element);
    }
    ModelElementInstance owner = element.getParentElement();
    while (owner != null && !(owner instanceof BaseElement base && base.getId() != null)) {
      owner = owner.getParentElement();
    }
    if (owner == null) {
      return describe(element);
    }
    String prefix = element.getElementType().getTypeNamespace();
    String namespace =
        prefix != null && prefix.startsWith("http://camunda.org/schema/zeebe") ? "zeebe:" : "";
    return describe(owner) + " " + namespace + element.getElementType().getTypeName();
  }

  /**
   * Whether {@code problems} already names {@code node} with a problem that mentions {@code
   * subject}: Zeebe's validator (run first) and Tern's own checks must not report one mistake
   * twice.
   */
  static boolean alreadyReported(List<String> problems, FlowNode node, String subject) {
    String about = describe(node);
    for (String problem : problems) {
      if (problem.startsWith(about) && problem.contains(subject)) {
        return true;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause.getMessage() == null ? cause.toString() : cause.getMessage();
  }
}

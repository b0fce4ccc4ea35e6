package io.tern.engine.workflow.model;

import io.camunda.zeebe.model.bpmn.Bpmn;
import io.camunda.zeebe.model.bpmn.BpmnModelInstance;
import io.camunda.zeebe.model.bpmn.instance.BaseElement;
import io.camunda.zeebe.model.bpmn.instance.EndEvent;
import io.camunda.zeebe.model.bpmn.instance.ExclusiveGateway;
import io.camunda.zeebe.model.bpmn.instance.FlowElement;
import io.camunda.zeebe.model.bpmn.instance.FlowNode;
import io.camunda.zeebe.model.bpmn.instance.ParallelGateway;
import io.camunda.zeebe.model.bpmn.instance.Process;
import io.camunda.zeebe.model.bpmn.instance.SequenceFlow;
import io.camunda.zeebe.model.bpmn.instance.ServiceTask;
import io.camunda.zeebe.model.bpmn.instance.StartEvent;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeHeader;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeTaskDefinition;
import io.camunda.zeebe.model.bpmn.instance.zeebe.ZeebeTaskHeaders;
import io.camunda.zeebe.model.bpmn.traversal.ModelWalker;
import io.camunda.zeebe.model.bpmn.validation.ValidationVisitor;
import io.camunda.zeebe.model.bpmn.validation.zeebe.ZeebeDesignTimeValidators;
import io.tern.engine.workflow.value.BpmnElementType;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
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
                  problems.add(describe(element) + ": " + result.getMessage());
                }
              }
            });
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
    String start = null;
    for (FlowElement element : process.getFlowElements()) {
      if (element instanceof SequenceFlow flow) {
        flowTargets.put(flow.getId(), flow.getTarget().getId());
        String condition = conditionOf(flow);
        if (condition != null && !(flow.getSource() instanceof ExclusiveGateway)) {
          problems.add(
              describe(flow)
                  + ": conditions are supported on the outgoing flows of exclusive gateways only"
                  + " (so far)");
        } else if (condition != null && !condition.strip().startsWith("=")) {
          problems.add(
              describe(flow)
                  + ": a condition must be a FEEL expression starting with '=', got '"
                  + condition
                  + "'");
        }
        continue;
      }
      BpmnElementType type = typeOf(element, problems);
      if (type == null) {
        continue;
      }
      FlowNode node = (FlowNode) element;
      List<String> incoming = new ArrayList<>();
      for (SequenceFlow flow : node.getIncoming()) {
        incoming.add(flow.getId());
      }
      List<ExecutableElement.Flow> outgoing = new ArrayList<>();
      for (SequenceFlow flow : node.getOutgoing()) {
        outgoing.add(
            new ExecutableElement.Flow(flow.getId(), flow.getTarget().getId(), conditionOf(flow)));
      }
      String defaultFlow =
          node instanceof ExclusiveGateway gateway && gateway.getDefault() != null
              ? gateway.getDefault().getId()
              : null;
      String jobType = null;
      int retries = 0;
      String headers = "{}";
      if (type == BpmnElementType.SERVICE_TASK) {
        ZeebeTaskDefinition definition = node.getSingleExtensionElement(ZeebeTaskDefinition.class);
        jobType = definition == null ? null : definition.getType();
        if (jobType == null || jobType.isBlank()) {
          problems.add(describe(node) + ": a service task needs a zeebe:taskDefinition type");
          continue;
        }
        if (jobType.startsWith("=")) {
          problems.add(describe(node) + ": job types given as expressions are not supported yet");
          continue;
        }
        retries = parseRetries(node, definition.getRetries(), problems);
        headers = headersJson(node.getSingleExtensionElement(ZeebeTaskHeaders.class));
      }
      if (type == BpmnElementType.START_EVENT) {
        start = node.getId();
      }
      elements.put(
          node.getId(),
          new ExecutableElement(
              node.getId(),
              type,
              List.copyOf(incoming),
              List.copyOf(outgoing),
              jobType,
              retries,
              headers,
              defaultFlow));
    }
    if (start == null) {
      problems.add(describe(process) + ": the process needs a none start event");
      return null;
    }
    return new ExecutableProcess(
        process.getId(), Map.copyOf(elements), start, Map.copyOf(flowTargets));
  }

  private static BpmnElementType typeOf(FlowElement element, List<String> problems) {
    if (element instanceof StartEvent start) {
      if (start.getEventDefinitions().isEmpty()) {
        return BpmnElementType.START_EVENT;
      }
    } else if (element instanceof EndEvent end) {
      if (end.getEventDefinitions().isEmpty()) {
        return BpmnElementType.END_EVENT;
      }
    } else if (element instanceof ServiceTask) {
      return BpmnElementType.SERVICE_TASK;
    } else if (element instanceof ParallelGateway) {
      return BpmnElementType.PARALLEL_GATEWAY;
    } else if (element instanceof ExclusiveGateway) {
      return BpmnElementType.EXCLUSIVE_GATEWAY;
    }
    problems.add(
        describe(element)
            + ": this element is not supported yet (Tern runs none start events, none end"
            + " events, service tasks, parallel and exclusive gateways, and sequence flows)");
    return null;
  }

  private static String conditionOf(SequenceFlow flow) {
    if (flow.getConditionExpression() == null) {
      return null;
    }
    String text = flow.getConditionExpression().getTextContent();
    return text == null || text.isBlank() ? null : text.strip();
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
            + ": retries must be a whole number >= 0 (expressions are not supported"
            + " yet), got '"
            + text
            + "'");
    return 0;
  }

  private static String headersJson(ZeebeTaskHeaders headers) {
    if (headers == null || headers.getHeaders().isEmpty()) {
      return "{}";
    }
    StringBuilder json = new StringBuilder("{");
    for (ZeebeHeader header : headers.getHeaders()) {
      if (json.length() > 1) {
        json.append(',');
      }
      appendJsonString(json, header.getKey()).append(':');
      appendJsonString(json, header.getValue());
    }
    return json.append('}').toString();
  }

  private static StringBuilder appendJsonString(StringBuilder json, String text) {
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

  private static String describe(ModelElementInstance element) {
    String type = element.getElementType().getTypeName();
    String id = element instanceof BaseElement base ? base.getId() : null;
    return id == null ? "<" + type + ">" : "'" + id + "' (" + type + ")";
  }

  private static String rootMessage(Throwable e) {
    Throwable cause = e;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause.getMessage() == null ? cause.toString() : cause.getMessage();
  }
}

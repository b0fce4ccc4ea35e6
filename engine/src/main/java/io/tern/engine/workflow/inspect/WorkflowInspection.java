package io.tern.engine.workflow.inspect;

import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.state.PartitionState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.state.IncidentState;
import io.tern.engine.workflow.state.UserTaskState;
import io.tern.engine.workflow.state.VariableState;
import io.tern.engine.workflow.value.IncidentValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Read-only views of a partition's workflow state for operators: the open incidents, and where a
 * process instance is (its active elements, their jobs, user tasks, variables and incidents). Reads
 * the state it is given and changes nothing; the caller runs it on the partition's processor
 * thread.
 */
public final class WorkflowInspection {
  /** One open incident. */
  public record Incident(
      long key,
      String errorType,
      String errorMessage,
      String bpmnProcessId,
      String elementId,
      long processInstanceKey,
      long elementInstanceKey,
      long jobKey) {}

  /**
   * An active element instance, with its variables (name to JSON) and active children; its job or
   * Camunda user task, -1 for none.
   */
  public record Element(
      long key,
      String elementId,
      String elementType,
      String state,
      long jobKey,
      long userTaskKey,
      Incident incident,
      Map<String, String> variables,
      List<Element> children) {}

  /** A process instance that is still active, as a tree from its process element. */
  public record Instance(long key, String bpmnProcessId, int version, Element root) {}

  /** Active elements deeper than this are cut off: a runaway tree must not sink the answer. */
  private static final int MAX_DEPTH = 64;

  private final IncidentState incidents;
  private final ElementInstanceState elements;
  private final VariableState variables;
  private final UserTaskState userTasks;

  public WorkflowInspection(PartitionState state) {
    this.userTasks = UserTaskState.readOnly(state);
    this.incidents = IncidentState.readOnly(state);
    this.elements = ElementInstanceState.readOnly(state);
    this.variables = VariableState.readOnly(state);
  }

  /** Up to {@code max} open incidents, oldest (lowest key) first. */
  public List<Incident> incidents(int max) {
    List<Incident> found = new ArrayList<>();
    incidents.forEach(
        (key, incident) -> {
          found.add(incident(key, incident));
          return found.size() < max;
        });
    return found;
  }

  /** The active process instance {@code key}, or null if there is none on this partition. */
  public Instance instance(long key) {
    ElementInstance process = new ElementInstance();
    if (!elements.get(key, process) || process.value.processInstanceKey != key) {
      return null;
    }
    return new Instance(
        key, process.value.bpmnProcessId, process.value.version, element(key, process, 0));
  }

  private Element element(long key, ElementInstance instance, int depth) {
    List<Element> children = new ArrayList<>();
    if (depth < MAX_DEPTH) {
      for (long childKey : elements.children(key)) {
        ElementInstance child = new ElementInstance();
        if (elements.get(childKey, child)) {
          children.add(element(childKey, child, depth + 1));
        }
      }
    }
    Map<String, String> scopeVariables = new LinkedHashMap<>();
    variables
        .ofScope(key)
        .forEach(
            (name, json) -> scopeVariables.put(name, new String(json, StandardCharsets.UTF_8)));
    long incidentKey =
        instance.jobKey >= 0 ? incidents.ofJob(instance.jobKey) : incidents.ofElement(key);
    Incident incident = null;
    IncidentValue value = new IncidentValue();
    if (incidentKey >= 0 && incidents.get(incidentKey, value)) {
      incident = incident(incidentKey, value);
    }
    return new Element(
        key,
        instance.value.elementId,
        instance.value.elementType.name(),
        stateName(instance.state),
        instance.jobKey,
        userTasks.ofElement(key),
        incident,
        scopeVariables,
        children);
  }

  /** An element instance's lifecycle state by name, as the intent of its last event. */
  static String stateName(ProcessInstanceIntent intent) {
    return switch (intent) {
      case ELEMENT_ACTIVATING -> "ACTIVATING";
      case ELEMENT_ACTIVATED -> "ACTIVATED";
      case ELEMENT_COMPLETING -> "COMPLETING";
      case ELEMENT_COMPLETED -> "COMPLETED";
      case ELEMENT_TERMINATING -> "TERMINATING";
      case ELEMENT_TERMINATED -> "TERMINATED";
      default -> "UNKNOWN(" + intent.code() + ")";
    };
  }

  private static Incident incident(long key, IncidentValue incident) {
    return new Incident(
        key,
        incident.errorType.name(),
        incident.errorMessage,
        incident.bpmnProcessId,
        incident.elementId,
        incident.processInstanceKey,
        incident.elementInstanceKey,
        incident.jobKey);
  }
}

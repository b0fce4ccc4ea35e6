package io.tern.engine.workflow.processing.modification;

import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.model.InclusiveJoin;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue.Activation;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The checks of a ModifyProcessInstance command that need no placing: the elements to activate
 * exist and may be activated, the instances to terminate belong to the process instance and are
 * active, the variables name the process, the element or one of its scopes, and each ancestor key
 * is an active instance of one of the element's scopes. Each check names every element or key at
 * fault; the first that fails is the answer.
 */
final class ModificationChecks {
  private final ElementInstanceState instances;
  private final ExecutableProcess process;
  private final ProcessInstanceModificationValue modification;
  private final ElementInstance instance = new ElementInstance();

  ModificationChecks(
      ElementInstanceState instances,
      ExecutableProcess process,
      ProcessInstanceModificationValue modification) {
    this.instances = instances;
    this.process = process;
    this.modification = modification;
  }

  /** Null if every instruction passes, else why not. */
  String check() {
    String problem = checkElements();
    if (problem == null) {
      problem = checkTerminations();
    }
    if (problem == null) {
      problem = checkVariables();
    }
    if (problem == null) {
      problem = checkAncestors();
    }
    return problem;
  }

  private String checkElements() {
    Set<String> unknown = new LinkedHashSet<>();
    Set<String> unsupported = new LinkedHashSet<>();
    for (Activation activation : modification.activations) {
      String id = activation.elementId();
      ExecutableElement element = process.elements().get(id);
      if (element == null) {
        unknown.add(id);
      } else if (element.type() == BpmnElementType.START_EVENT
          || element.type() == BpmnElementType.BOUNDARY_EVENT
          || process.followsEventBasedGateway(element)
          || InclusiveJoin.joins(element)
          || process.inCompensationHandler(id)) {
        unsupported.add(id + " (" + kindOf(element) + ")");
      }
    }
    if (!unknown.isEmpty()) {
      return "process '"
          + process.bpmnProcessId()
          + "' has no element "
          + quoted(unknown)
          + " to activate (sequence flows cannot be activated)";
    }
    if (!unsupported.isEmpty()) {
      return "these elements cannot be activated by a modification: "
          + String.join(", ", unsupported)
          + "; activate the element before or after them instead";
    }
    return null;
  }

  private String kindOf(ExecutableElement element) {
    if (element.type() == BpmnElementType.START_EVENT) {
      return "a start event";
    }
    if (element.type() == BpmnElementType.BOUNDARY_EVENT) {
      return "a boundary event";
    }
    if (InclusiveJoin.joins(element)) {
      return "a joining inclusive gateway";
    }
    if (process.inCompensationHandler(element.id())) {
      return "a compensation handler or in one, which runs when compensation is thrown";
    }
    return "an event after an event-based gateway";
  }

  private String checkTerminations() {
    Set<String> unknown = new LinkedHashSet<>();
    Set<String> inactive = new LinkedHashSet<>();
    for (long key : modification.terminations) {
      if (!instances.get(key, instance) || instance.value.processInstanceKey != rootKey()) {
        unknown.add(Long.toString(key));
      } else if (instance.state != ProcessInstanceIntent.ELEMENT_ACTIVATED
          && instance.state != ProcessInstanceIntent.ELEMENT_ACTIVATING) {
        inactive.add(Long.toString(key));
      }
    }
    if (!unknown.isEmpty()) {
      return "process instance "
          + rootKey()
          + " has no element instance "
          + quoted(unknown)
          + " to terminate";
    }
    if (!inactive.isEmpty()) {
      return "element instance "
          + quoted(inactive)
          + " of process instance "
          + rootKey()
          + " is completing or terminating already, so it cannot be terminated";
    }
    return null;
  }

  private String checkVariables() {
    Set<String> unknown = new LinkedHashSet<>();
    Set<String> outside = new LinkedHashSet<>();
    for (ProcessInstanceModificationValue.Variables instruction : modification.variables) {
      String scopeId = instruction.scopeId();
      if (scopeId.isEmpty() || scopeId.equals(process.bpmnProcessId())) {
        continue;
      }
      String elementId = modification.activations.get(instruction.activation()).elementId();
      if (!process.elements().containsKey(scopeId)) {
        unknown.add(scopeId);
      } else if (!scopeId.equals(elementId) && !process.flowScopesOf(elementId).contains(scopeId)) {
        outside.add(scopeId + " (activating " + elementId + ")");
      }
    }
    if (!unknown.isEmpty()) {
      return "the variables name scope " + quoted(unknown) + ", which the process does not have";
    }
    if (!outside.isEmpty()) {
      return "the variables name scope "
          + String.join(", ", outside)
          + ", which is neither the element activated nor one of its scopes: set them before or"
          + " after the modification";
    }
    return null;
  }

  private String checkAncestors() {
    Set<String> unknown = new LinkedHashSet<>();
    Set<String> notAncestors = new LinkedHashSet<>();
    for (Activation activation : modification.activations) {
      long ancestor = activation.ancestorScopeKey();
      if (ancestor <= 0) {
        continue;
      }
      if (!instances.get(ancestor, instance)
          || instance.value.processInstanceKey != rootKey()
          || instance.state != ProcessInstanceIntent.ELEMENT_ACTIVATED) {
        unknown.add(Long.toString(ancestor));
        continue;
      }
      boolean isScope =
          ancestor == rootKey()
              || instance.value.elementType != BpmnElementType.MULTI_INSTANCE_BODY
                  && process
                      .flowScopesOf(activation.elementId())
                      .contains(instance.value.elementId);
      if (!isScope) {
        notAncestors.add(
            "instance "
                + ancestor
                + " of "
                + instance.value.elementId
                + " is not one of the scopes of "
                + activation.elementId());
      }
    }
    if (!unknown.isEmpty()) {
      return "ancestor element instance "
          + quoted(unknown)
          + " is not an active element instance of process instance "
          + rootKey();
    }
    if (!notAncestors.isEmpty()) {
      return String.join("; ", notAncestors);
    }
    return null;
  }

  private long rootKey() {
    return modification.processInstanceKey;
  }

  private static String quoted(Set<String> items) {
    return "'" + String.join("', '", items) + "'";
  }
}

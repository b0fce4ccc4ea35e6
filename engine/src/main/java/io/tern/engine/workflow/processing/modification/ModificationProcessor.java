package io.tern.engine.workflow.processing.modification;

import io.tern.engine.processor.CommandProcessor;
import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ModificationIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.events.CatchEventBehavior;
import io.tern.engine.workflow.processing.behavior.termination.TerminationBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.EventSubprocessBehavior;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.processing.instances.InstanceAppliers;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue.Activation;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * ModifyProcessInstance (MODIFY), as an operator repairs an instance that is stuck or took a wrong
 * path: elements are activated and element instances terminated. Everything is checked first
 * ({@link ModificationPlan}); an instruction that cannot be carried out rejects the whole command,
 * naming every element or key at fault, and nothing is written.
 *
 * <p>Activations come first, in order. A scope of the element that has no instance to use gets a
 * new one, activated in place: ELEMENT_ACTIVATING, its variables, ELEMENT_ACTIVATED, then its
 * boundary events and its event subprocesses' start events; not its start event, nor its input
 * mappings. The element itself is activated by an ACTIVATE_ELEMENT command, as if a flow had
 * brought it (input mappings, job, boundary events as usual). Variables are set as local variables
 * of the process instance, of the element's new instance, or of the instance of the scope they
 * name.
 *
 * <p>The MODIFIED event comes next: its applier puts in each scope that receives an element the
 * token the element takes on activating ({@link InstanceAppliers}). Terminations come last, each as
 * a cancellation terminates an element instance with its children, the scopes the plan found left
 * with nothing active included.
 */
public final class ModificationProcessor implements CommandProcessor {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final ElementInstanceState instances;
  private final VariableBehavior variables;
  private final CatchEventBehavior catchEvents;
  private final TerminationBehavior termination;
  private final ProcessInstanceModificationValue modification =
      new ProcessInstanceModificationValue();
  private final ElementInstance root = new ElementInstance();

  public ModificationProcessor(
      ProcessingContext context, WorkflowState state, Behaviors behaviors) {
    this.context = context;
    this.state = state;
    this.instances = state.instances();
    this.variables = behaviors.variables();
    this.catchEvents = behaviors.catchEvents();
    this.termination = behaviors.termination();
  }

  @Override
  public void process(LoggedRecord command, ProcessingResult result) {
    modification.readFrom(command.value());
    long processInstanceKey = command.key();
    modification.processInstanceKey = processInstanceKey;
    if (!instances.get(processInstanceKey, root) || root.value.flowScopeKey >= 0) {
      result.reject(
          RejectionType.NOT_FOUND,
          "no active process instance with key " + processInstanceKey + " to modify");
      return;
    }
    if (root.state != ProcessInstanceIntent.ELEMENT_ACTIVATED) {
      result.reject(
          RejectionType.INVALID_STATE,
          "process instance " + processInstanceKey + " is not active, so it cannot be modified");
      return;
    }
    ExecutableProcess process = state.process(root.value.processDefinitionKey);
    ModificationPlan plan =
        new ModificationPlan(state, process, root, modification, context::nextKey, catchEvents);
    String problem = plan.check();
    if (problem != null) {
      result.reject(RejectionType.INVALID_ARGUMENT, problem);
      return;
    }
    List<Map<String, byte[]>> documents = new ArrayList<>();
    for (ProcessInstanceModificationValue.Variables instruction : modification.variables) {
      try {
        documents.add(JsonDocuments.variables(instruction.document()));
      } catch (InvalidVariablesException e) {
        result.reject(
            RejectionType.INVALID_ARGUMENT,
            "the variables for '"
                + (instruction.scopeId().isEmpty() ? "the process instance" : instruction.scopeId())
                + "' are not a JSON object: "
                + e.getMessage());
        return;
      }
    }

    List<Activation> activations = new ArrayList<>();
    for (int i = 0; i < modification.activations.size(); i++) {
      ModificationPlan.Placed placed = plan.placed(i);
      long elementKey = activate(result, process, i, placed, documents);
      Activation asked = modification.activations.get(i);
      activations.add(
          new Activation(
              asked.elementId(), asked.ancestorScopeKey(), placed.flowScopeKey(), elementKey));
    }
    modification.activations.clear();
    modification.activations.addAll(activations);
    modification.createdScopes.clear();
    modification.createdScopes.addAll(plan.createdScopes());
    modification.variables.clear(); // set as VARIABLE events above
    // Before the terminations: a scope that receives an element holds its token when the last of
    // its other elements is terminated, so it does not complete in between.
    result.appendEvent(processInstanceKey, ModificationIntent.MODIFIED, modification);
    result.respondWithLastEvent();
    for (long key : plan.terminations()) {
      termination.terminate(key, result);
    }
  }

  /**
   * Writes activation {@code index}: the scopes it creates, its variables, the element; returns the
   * element's new key.
   */
  private long activate(
      ProcessingResult result,
      ExecutableProcess process,
      int index,
      ModificationPlan.Placed placed,
      List<Map<String, byte[]>> documents) {
    List<String> scopeIds = placed.scopeIds();
    List<Long> scopeKeys = placed.scopeKeys();
    for (int level = 0; level < scopeIds.size(); level++) {
      long key = scopeKeys.get(level);
      String scopeId = scopeIds.get(level);
      if (placed.created().contains(key)) {
        ExecutableElement scope = process.element(scopeId);
        ProcessInstanceValue value = instanceValue(scope, scopeKeys.get(level - 1));
        result.appendEvent(key, ProcessInstanceIntent.ELEMENT_ACTIVATING, value);
        setVariables(result, index, scopeId, level == 0, key, documents);
        result.appendEvent(key, ProcessInstanceIntent.ELEMENT_ACTIVATED, value);
        CatchEventBehavior.Part part = CatchEventBehavior.partOf(scope, value.elementType);
        List<ExecutableElement> starts = EventSubprocessBehavior.waitingStarts(process, value);
        if (!starts.isEmpty() || CatchEventBehavior.hasCatchEvents(process, scope, part)) {
          // An expression that fails raises an incident on the new scope, as at any activation.
          catchEvents.subscribe(result, key, value, process, scope, part, starts);
        }
      } else {
        setVariables(result, index, scopeId, level == 0, key, documents);
      }
    }
    ExecutableElement element = process.element(placed.elementId());
    long elementKey = context.nextKey();
    setVariables(result, index, element.id(), false, elementKey, documents);
    ProcessInstanceValue value = instanceValue(element, placed.flowScopeKey());
    if (element.loop() != null) {
      value.elementType = BpmnElementType.MULTI_INSTANCE_BODY;
    }
    result.appendCommand(elementKey, ProcessInstanceIntent.ACTIVATE_ELEMENT, value);
    return elementKey;
  }

  /** The variables of activation {@code index} for the instance of {@code scopeId}. */
  private void setVariables(
      ProcessingResult result,
      int index,
      String scopeId,
      boolean processScope,
      long scopeKey,
      List<Map<String, byte[]>> documents) {
    for (int i = 0; i < modification.variables.size(); i++) {
      ProcessInstanceModificationValue.Variables instruction = modification.variables.get(i);
      if (instruction.activation() != index) {
        continue;
      }
      boolean forProcess =
          instruction.scopeId().isEmpty() || instruction.scopeId().equals(root.value.bpmnProcessId);
      if (processScope ? forProcess : !forProcess && instruction.scopeId().equals(scopeId)) {
        variables.setLocal(
            result,
            scopeKey,
            modification.processInstanceKey,
            root.value.processDefinitionKey,
            documents.get(i));
      }
    }
  }

  private ProcessInstanceValue instanceValue(ExecutableElement element, long flowScopeKey) {
    ProcessInstanceValue value = new ProcessInstanceValue();
    value.processInstanceKey = modification.processInstanceKey;
    value.processDefinitionKey = root.value.processDefinitionKey;
    value.version = root.value.version;
    value.bpmnProcessId = root.value.bpmnProcessId;
    value.flowScopeKey = flowScopeKey;
    value.parentElementInstanceKey = -1;
    value.elementId = element.id();
    value.elementType = element.type();
    return value;
  }
}

package io.tern.engine.workflow.processing.instances;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.MigrationIntent;
import io.tern.engine.protocol.ModificationIntent;
import io.tern.engine.protocol.ProcessEventIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ResultIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.model.InclusiveJoin;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessEventValue;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;

/**
 * The appliers of process instance events: element instances, their scopes' tokens and the
 * triggered events that bring them.
 */
public final class InstanceAppliers {
  private final WorkflowState state;
  private final ElementInstance instance = new ElementInstance();
  private final ElementInstance scope = new ElementInstance();
  private final ProcessInstanceValue flowValue = new ProcessInstanceValue();
  private final ProcessEventValue processEvent = new ProcessEventValue();
  private final ProcessEventValue pendingTrigger = new ProcessEventValue();
  private final ProcessInstanceModificationValue modification =
      new ProcessInstanceModificationValue();

  private InstanceAppliers(WorkflowState state) {
    this.state = state;
  }

  public static void register(RecordProcessors on, WorkflowState state) {
    new InstanceAppliers(state).registerAll(on);
  }

  private void registerAll(RecordProcessors on) {
    on.onEvent(CreationIntent.CREATED, event -> {})
        .onEvent(ProcessInstanceIntent.ELEMENT_ACTIVATING, this::activating)
        .onEvent(
            ProcessInstanceIntent.ELEMENT_ACTIVATED,
            event -> setState(event.key(), ProcessInstanceIntent.ELEMENT_ACTIVATED))
        .onEvent(
            ProcessInstanceIntent.ELEMENT_COMPLETING,
            event -> setState(event.key(), ProcessInstanceIntent.ELEMENT_COMPLETING))
        .onEvent(
            ProcessInstanceIntent.ELEMENT_COMPLETED,
            event -> {
              removeInstance(event.key());
              state.pendingBoundaries().remove(event.key()); // a terminate end event's
            })
        .onEvent(
            ProcessInstanceIntent.ELEMENT_TERMINATING,
            event -> setState(event.key(), ProcessInstanceIntent.ELEMENT_TERMINATING))
        .onEvent(
            ProcessInstanceIntent.ELEMENT_TERMINATED,
            event -> {
              removeInstance(event.key());
              state.pendingBoundaries().remove(event.key());
            })
        .onEvent(ProcessInstanceIntent.SEQUENCE_FLOW_TAKEN, this::sequenceFlowTaken)
        .onEvent(ProcessEventIntent.TRIGGERED, this::boundaryTriggered)
        .onEvent(ModificationIntent.MODIFIED, this::modified)
        .onEvent(ProcessInstanceIntent.ELEMENT_MIGRATED, this::migrated)
        // Its element instances' own events moved them.
        .onEvent(MigrationIntent.MIGRATED, event -> {})
        // Answers to clients only; the instance's own events change the state.
        .onEvent(ResultIntent.COMPLETED, event -> {})
        .onEvent(ResultIntent.TERMINATED, event -> {});
  }

  /** The instance runs on as an element of the target definition: lifecycle and tokens stay. */
  private void migrated(LoggedRecord event) {
    if (!state.instances().get(event.key(), instance)) {
      throw new IllegalStateException("no element instance " + event.key() + " to migrate");
    }
    instance.value.readFrom(event.value());
    state.instances().put(event.key(), instance);
  }

  private void activating(LoggedRecord event) {
    instance.value.readFrom(event.value());
    instance.state = ProcessInstanceIntent.ELEMENT_ACTIVATING;
    instance.activeChildren = 0;
    instance.jobKey = -1;
    instance.calledInstanceKey = -1;
    instance.loopCounter = 0;
    state.instances().put(event.key(), instance);
    long callerKey = instance.value.parentElementInstanceKey;
    if (instance.value.flowScopeKey < 0
        && callerKey >= 0
        && state.instances().get(callerKey, scope)) {
      scope.calledInstanceKey = event.key();
      state.instances().put(callerKey, scope);
    }
    long flowScopeKey = instance.value.flowScopeKey;
    if (flowScopeKey >= 0 && state.instances().get(flowScopeKey, scope)) {
      // The scope counts active children and tokens on sequence flows (and triggered boundary
      // events); an element reached by them turns their tokens into itself.
      if (scope.value.elementType == BpmnElementType.MULTI_INSTANCE_BODY) {
        // An inner instance is made by its body, not brought by a token.
        scope.activeChildren++;
        scope.loopCounter++;
      } else if (interruptingEventSubprocessStarts(flowScopeKey, instance.value)) {
        // Everything else in the scope was terminated: tokens left on its flows are void.
        scope.activeChildren = 1;
        state.takenFlows().removeScope(flowScopeKey);
        state.pendingBoundaries().remove(flowScopeKey);
      } else {
        scope.activeChildren += 1 - consumedTokens(event.key(), instance.value);
      }
      state.instances().put(flowScopeKey, scope);
      state.instances().addChild(flowScopeKey, event.key());
    }
  }

  /** Whether {@code element} is the interrupting event subprocess remembered for its scope. */
  private boolean interruptingEventSubprocessStarts(long scopeKey, ProcessInstanceValue element) {
    return element.elementType == BpmnElementType.EVENT_SUB_PROCESS
        && state.pendingBoundaries().get(scopeKey, pendingTrigger)
        && state
            .process(element.processDefinitionKey)
            .element(element.elementId)
            .startEventId()
            .equals(pendingTrigger.targetElementId);
  }

  /**
   * How many tokens an activating element consumes: none for the process, start events and
   * compensation boundary events, one per incoming flow for a joining parallel gateway, one per
   * incoming flow that brought one for a joining inclusive gateway, else the one that brought it (a
   * sequence flow's, or a boundary event's trigger).
   */
  private int consumedTokens(long key, ProcessInstanceValue element) {
    switch (element.elementType) {
      case PROCESS, START_EVENT:
        return 0;
      case BOUNDARY_EVENT:
        // A compensation boundary event is brought by no trigger: the throw event that compensates
        // its activity activates and completes it in passing, in its own scope.
        return state.process(element.processDefinitionKey).element(element.elementId).event()
                instanceof EventDefinition.Compensation
            ? 0
            : 1;
      case PARALLEL_GATEWAY:
        if (state.instances().takeActivatedByModification(key)) {
          return 1; // the token MODIFIED put in the scope for it, on none of its flows
        }
        ExecutableElement gateway =
            state.process(element.processDefinitionKey).element(element.elementId);
        for (String incoming : gateway.incoming()) {
          state.takenFlows().add(element.flowScopeKey, gateway.id(), incoming, -1);
        }
        return gateway.incoming().size();
      case INCLUSIVE_GATEWAY:
        ExecutableElement inclusive =
            state.process(element.processDefinitionKey).element(element.elementId);
        if (!InclusiveJoin.joins(inclusive)) {
          return 1;
        }
        int consumed = 0;
        for (String incoming : inclusive.incoming()) {
          if (state.takenFlows().count(element.flowScopeKey, inclusive.id(), incoming) > 0) {
            state.takenFlows().add(element.flowScopeKey, inclusive.id(), incoming, -1);
            consumed++;
          }
        }
        return consumed;
      default:
        return 1;
    }
  }

  private void sequenceFlowTaken(LoggedRecord event) {
    flowValue.readFrom(event.value());
    long flowScopeKey = flowValue.flowScopeKey;
    addToken(flowScopeKey);
    ExecutableElement target =
        state.process(flowValue.processDefinitionKey).target(flowValue.elementId);
    if (target.type() == BpmnElementType.PARALLEL_GATEWAY || InclusiveJoin.joins(target)) {
      state.takenFlows().add(flowScopeKey, target.id(), flowValue.elementId, 1);
    }
  }

  private void boundaryTriggered(LoggedRecord event) {
    processEvent.readFrom(event.value());
    ExecutableElement target =
        state.process(processEvent.processDefinitionKey).element(processEvent.targetElementId);
    if (target.type() == BpmnElementType.START_EVENT) {
      addToken(processEvent.scopeKey); // an event subprocess runs inside the scope
    } else if (target.event() instanceof EventDefinition.Link) {
      addToken(processEvent.scopeKey); // a link catch event, coming in the throw event's scope
    } else if (target.type() == BpmnElementType.INTERMEDIATE_CATCH_EVENT) {
      // After an event-based gateway: the gateway (still active) takes the flow to it.
    } else if (target.type() == BpmnElementType.END_EVENT) {
      // A terminate end event ends the scope: nothing comes, the scope completes once it is empty.
    } else if (state.instances().get(processEvent.scopeKey, instance)) {
      addToken(instance.value.flowScopeKey); // a boundary event runs next to its activity
    }
    if (processEvent.interrupting) {
      state.pendingBoundaries().put(processEvent.scopeKey, processEvent);
    }
  }

  /**
   * MODIFIED: each scope the modification created, and each scope it activates an element in, gets
   * the token that element takes on activating. A parallel gateway takes the tokens waiting on its
   * incoming flows at once and is marked so that it takes only that one token on activating: a
   * token arriving in between waits for a later join.
   */
  private void modified(LoggedRecord event) {
    modification.readFrom(event.value());
    for (ProcessInstanceModificationValue.CreatedScope created : modification.createdScopes) {
      addToken(created.flowScopeKey());
    }
    if (modification.activations.isEmpty()
        || !state.instances().get(modification.processInstanceKey, instance)) {
      return; // nothing activated, or the process instance was terminated by it
    }
    ExecutableProcess process = state.process(instance.value.processDefinitionKey);
    for (ProcessInstanceModificationValue.Activation activation : modification.activations) {
      long scopeKey = activation.flowScopeKey();
      ExecutableElement element = process.element(activation.elementId());
      if (element.type() == BpmnElementType.PARALLEL_GATEWAY) {
        // The gateway takes the tokens waiting on its incoming flows now, as if each had brought
        // one; a token arriving before it activates waits for the next join.
        for (String incoming : element.incoming()) {
          if (state.takenFlows().count(scopeKey, element.id(), incoming) > 0) {
            state.takenFlows().add(scopeKey, element.id(), incoming, -1);
            addToken(scopeKey, -1);
          }
        }
        state.instances().markActivatedByModification(activation.elementInstanceKey());
      }
      addToken(scopeKey, 1);
    }
  }

  private void addToken(long flowScopeKey) {
    addToken(flowScopeKey, 1);
  }

  private void addToken(long flowScopeKey, int tokens) {
    if (state.instances().get(flowScopeKey, scope)) {
      scope.activeChildren += tokens;
      state.instances().put(flowScopeKey, scope);
    }
  }

  /** COMPLETED and TERMINATED: the instance and what lives in it go. */
  private void removeInstance(long key) {
    if (!state.instances().get(key, instance)) {
      throw new IllegalStateException("no element instance " + key);
    }
    state.instances().remove(key);
    state.variables().removeScope(key);
    state.takenFlows().removeScope(key);
    if (instance.value.flowScopeKey < 0) {
      state.messageStarts().ended(key);
      state.startEvents().remove(key);
    }
    long callerKey = instance.value.parentElementInstanceKey;
    if (instance.value.flowScopeKey < 0
        && callerKey >= 0
        && state.instances().get(callerKey, scope)) {
      scope.calledInstanceKey = -1;
      state.instances().put(callerKey, scope);
    }
    long flowScopeKey = instance.value.flowScopeKey;
    if (flowScopeKey >= 0 && state.instances().get(flowScopeKey, scope)) {
      scope.activeChildren--;
      state.instances().put(flowScopeKey, scope);
      state.instances().removeChild(flowScopeKey, key);
    }
  }

  private void setState(long key, ProcessInstanceIntent intent) {
    if (!state.instances().get(key, instance)) {
      throw new IllegalStateException("no element instance " + key);
    }
    instance.state = intent;
    state.instances().put(key, instance);
  }
}

package io.tern.engine.workflow.processing.elements;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.model.InclusiveJoin;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.triggers.EventSubprocessBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.TerminateEndBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.processing.elements.container.CallActivityBehavior;
import io.tern.engine.workflow.processing.elements.container.ContainerKind;
import io.tern.engine.workflow.processing.elements.event.CatchEventKind;
import io.tern.engine.workflow.processing.elements.event.ThrowEventKind;
import io.tern.engine.workflow.processing.elements.gateway.GatewayKind;
import io.tern.engine.workflow.processing.elements.gateway.InclusiveJoinBehavior;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementKind;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementLifecycle;
import io.tern.engine.workflow.processing.elements.lifecycle.ElementStep;
import io.tern.engine.workflow.processing.elements.lifecycle.JobBehavior;
import io.tern.engine.workflow.processing.elements.lifecycle.MultiInstanceBehavior;
import io.tern.engine.workflow.processing.elements.multiinstance.MultiInstanceKind;
import io.tern.engine.workflow.processing.elements.task.DecisionBehavior;
import io.tern.engine.workflow.processing.elements.task.TaskKind;
import io.tern.engine.workflow.processing.elements.task.UserTaskCreation;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The lifecycle of element instances: ACTIVATE_ELEMENT and COMPLETE_ELEMENT commands become
 * ACTIVATING/ACTIVATED and COMPLETING/COMPLETED events. This class checks that the instance may
 * take the step and hands it to its element's kind, which does the rest. This is the one place that
 * dispatches by element type: the table built here maps each type to the kind of its family, one
 * package each, as Zeebe's {@code processing/bpmn/{container,event,gateway,task}}: {@link
 * ContainerKind} (process, sub-process, event sub-process, call activity), {@link TaskKind}, {@link
 * GatewayKind}, {@link CatchEventKind}, {@link ThrowEventKind} and {@link MultiInstanceKind}. What
 * the kinds share (the lifecycle steps, jobs, multi-instance bodies) is below them, in {@code
 * lifecycle}, which knows no kind. Termination is the behaviour layer's ({@code
 * TerminationBehavior}).
 */
public final class ElementProcessor {
  private final ElementInstanceState instances;
  private final EventSubprocessBehavior eventSubprocesses;
  private final TerminateEndBehavior terminateEnds;
  private final ElementLifecycle lifecycle;
  private final InclusiveJoinBehavior inclusiveJoins;
  private final Map<BpmnElementType, ElementKind> kinds = new EnumMap<>(BpmnElementType.class);
  private final ProcessInstanceValue value = new ProcessInstanceValue();
  private final ElementInstance instance = new ElementInstance();
  private final ElementInstance scope = new ElementInstance();

  public ElementProcessor(ProcessingContext context, WorkflowState state, Behaviors behaviors) {
    this.instances = state.instances();
    this.eventSubprocesses = behaviors.eventSubprocesses();
    this.terminateEnds =
        new TerminateEndBehavior(
            context, state, behaviors.termination(), behaviors.triggeredEvents());
    MultiInstanceBehavior multiInstance =
        new MultiInstanceBehavior(context, state, behaviors.variables(), behaviors.incidents());
    CallActivityBehavior callActivities =
        new CallActivityBehavior(context, state, behaviors.variables(), behaviors.incidents());
    this.lifecycle = new ElementLifecycle(context, state, behaviors, multiInstance);
    this.inclusiveJoins = new InclusiveJoinBehavior(state);
    register(new ContainerKind(context, lifecycle, behaviors, callActivities));
    JobBehavior jobs = new JobBehavior(context, lifecycle, behaviors);
    register(
        new TaskKind(
            lifecycle,
            behaviors,
            jobs,
            new UserTaskCreation(context, lifecycle, behaviors),
            new DecisionBehavior(lifecycle, state, behaviors)));
    register(new GatewayKind(lifecycle, behaviors));
    register(new CatchEventKind(lifecycle, behaviors, jobs));
    register(new ThrowEventKind(lifecycle, behaviors, jobs, terminateEnds, state.variables()));
    register(new MultiInstanceKind(lifecycle, multiInstance));
    Set<BpmnElementType> missing = EnumSet.allOf(BpmnElementType.class);
    missing.removeAll(kinds.keySet());
    missing.remove(BpmnElementType.SEQUENCE_FLOW); // taken, never activated
    if (!missing.isEmpty()) {
      throw new IllegalStateException("no element kind runs " + missing);
    }
  }

  private void register(ElementKind kind) {
    for (BpmnElementType type : kind.types()) {
      if (kinds.putIfAbsent(type, kind) != null) {
        throw new IllegalStateException("two element kinds run " + type);
      }
    }
  }

  public void activate(LoggedRecord command, ProcessingResult result) {
    value.readFrom(command.value());
    long key = command.key();
    if (value.flowScopeKey >= 0
        && (!instances.get(value.flowScopeKey, scope)
            || scope.state == ProcessInstanceIntent.ELEMENT_TERMINATING)) {
      return; // its scope is being terminated, or is gone: nothing starts in it any more
    }
    if (value.flowScopeKey >= 0
        && scope.value.elementType == BpmnElementType.MULTI_INSTANCE_BODY
        && (scope.value.processDefinitionKey != value.processDefinitionKey
            || !scope.value.elementId.equals(value.elementId))) {
      // The body was migrated after it asked for this inner instance: the instance is one of the
      // body's target element (MigrationPlan lets no other activation be on its way).
      value.processDefinitionKey = scope.value.processDefinitionKey;
      value.bpmnProcessId = scope.value.bpmnProcessId;
      value.version = scope.value.version;
      value.elementId = scope.value.elementId;
    }
    if (value.flowScopeKey >= 0 && eventSubprocesses.blocks(value.flowScopeKey, value)) {
      return; // an interrupting event subprocess is taking over the scope: nothing else starts
    }
    if (value.flowScopeKey >= 0 && terminateEnds.blocks(value.flowScopeKey)) {
      return; // a terminate end event is ending the scope: nothing starts in it any more
    }
    ElementKind kind = kinds.get(value.elementType);
    if (kind == null) {
      throw new IllegalStateException("cannot activate a " + value.elementType + " element");
    }
    boolean known = instances.get(key, instance);
    // An element whose activation raised an incident is still ACTIVATING, and is activated again
    // once the incident is resolved: as it is stored (a migration may have moved it since).
    boolean again = known && instance.state == ProcessInstanceIntent.ELEMENT_ACTIVATING;
    if (again) {
      value.copyFrom(instance.value);
    }
    ElementStep step = lifecycle.step(result, key, value);
    if (!known
        && step.element() != null
        && InclusiveJoin.joins(step.element())
        && !inclusiveJoins.mayJoin(
            value.flowScopeKey, step.process().inclusiveJoin(step.element().id()))) {
      return; // an activation before this one joined the tokens, or another may still come
    }
    if (again) {
      lifecycle.unsubscribeAll(step); // what the failed attempt subscribed to, before it failed
    } else {
      lifecycle.append(step, ProcessInstanceIntent.ELEMENT_ACTIVATING);
    }
    kind.activate(step);
    activateReadyJoins(step);
  }

  /**
   * After any step of an element, its scope's joining inclusive gateways that no other token may
   * reach any more activate: the step may have placed, moved or ended the last such token.
   */
  private void activateReadyJoins(ElementStep step) {
    long scopeKey = step.value().flowScopeKey;
    for (String gatewayId : inclusiveJoins.readyToJoin(scopeKey, step.process())) {
      lifecycle.activateChild(step, gatewayId, scopeKey);
    }
  }

  public void complete(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (!instances.get(key, instance)
        || instance.state != ProcessInstanceIntent.ELEMENT_ACTIVATED) {
      result.reject(
          RejectionType.INVALID_STATE,
          "element instance " + key + " is not active, so it cannot complete");
      return;
    }
    value.copyFrom(instance.value);
    ElementKind kind = kinds.get(value.elementType);
    if (kind == null) {
      throw new IllegalStateException("cannot complete a " + value.elementType + " element");
    }
    ElementStep step = lifecycle.step(result, key, value);
    kind.complete(step, instance);
    activateReadyJoins(step);
  }
}

package io.tern.engine.workflow.processing.elements.lifecycle;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.feel.FeelStrings;
import io.tern.engine.workflow.feel.IoMappings;
import io.tern.engine.workflow.feel.Mapping;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.model.InclusiveJoin;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.compensation.CompensationBehavior;
import io.tern.engine.workflow.processing.behavior.events.CatchEventBehavior;
import io.tern.engine.workflow.processing.behavior.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.EventSubprocessBehavior;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.state.TakenFlowState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import java.util.List;
import java.util.Map;

/**
 * The steps that the element kinds ({@link ElementKind}) put together: lifecycle events, input and
 * output mappings, catch event subscriptions, and leaving a completed element by its outgoing
 * sequence flows or, with none, completing its flow scope once that has no active child. A step
 * that raises an incident returns false (or null); the kind then stops, and the element waits.
 */
public final class ElementLifecycle {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final ElementInstanceState instances;
  private final TakenFlowState takenFlows;
  private final VariableBehavior variables;
  private final IncidentBehavior incidents;
  private final CatchEventBehavior catchEvents;
  private final MultiInstanceBehavior multiInstance;
  private final CompensationBehavior compensations;
  private final IoMappings ioMappings = new IoMappings();
  private final FeelStrings strings = new FeelStrings();
  private final ProcessInstanceValue next = new ProcessInstanceValue();
  private final ElementInstance scope = new ElementInstance();

  public ElementLifecycle(
      ProcessingContext context,
      WorkflowState state,
      Behaviors behaviors,
      MultiInstanceBehavior multiInstance) {
    this.context = context;
    this.state = state;
    this.instances = state.instances();
    this.takenFlows = state.takenFlows();
    this.variables = behaviors.variables();
    this.incidents = behaviors.incidents();
    this.catchEvents = behaviors.catchEvents();
    this.multiInstance = multiInstance;
    this.compensations = behaviors.compensations();
  }

  /** The step of element instance {@code key}, whose value is {@code value}. */
  public ElementStep step(ProcessingResult result, long key, ProcessInstanceValue value) {
    ExecutableProcess process = state.process(value.processDefinitionKey);
    ExecutableElement element =
        value.elementType == BpmnElementType.PROCESS ? null : process.element(value.elementId);
    CatchEventBehavior.Part part =
        element == null
            ? CatchEventBehavior.Part.ALL
            : CatchEventBehavior.partOf(element, value.elementType);
    // A multi-instance body's inner instances subscribe to the event subprocesses inside them.
    List<ExecutableElement> eventSubprocessStarts =
        MultiInstanceBehavior.isBody(value)
            ? List.of()
            : EventSubprocessBehavior.waitingStarts(process, value);
    return new ElementStep(result, key, value, process, element, part, eventSubprocessStarts);
  }

  /**
   * Whether the instance subscribes to catch events while it is active: its own timer or message,
   * its boundary events', its event subprocesses' start events'.
   */
  private boolean subscribes(ElementStep step) {
    return !step.eventSubprocessStarts().isEmpty()
        || step.element() != null
            && CatchEventBehavior.hasCatchEvents(step.process(), step.element(), step.part());
  }

  /** Appends the lifecycle event {@code intent} of the instance. */
  public void append(ElementStep step, ProcessInstanceIntent intent) {
    step.result().appendEvent(step.key(), intent, step.value());
  }

  /** Sets the element's input mappings as its local variables; false after raising an incident. */
  public boolean applyInputs(ElementStep step) {
    ExecutableElement element = step.element();
    if (element.inputs().isEmpty()) {
      return true;
    }
    Map<String, byte[]> inputs = evaluateMappings(step, element.inputs(), "input");
    if (inputs == null) {
      return false;
    }
    ProcessInstanceValue value = step.value();
    variables.setLocal(
        step.result(), step.key(), value.processInstanceKey, value.processDefinitionKey, inputs);
    return true;
  }

  /**
   * Subscribes the instance to its catch events. False, having raised an incident and created
   * nothing, if one cannot be evaluated.
   */
  public boolean subscribe(ElementStep step) {
    return !subscribes(step)
        || catchEvents.subscribe(
            step.result(),
            step.key(),
            step.value(),
            step.process(),
            step.element(),
            step.part(),
            step.eventSubprocessStarts());
  }

  /** Whatever the instance waits for is canceled, whatever its element (it may have changed). */
  public void unsubscribeAll(ElementStep step) {
    catchEvents.unsubscribe(step.result(), step.key());
  }

  /** The instance is left: what it waited for is canceled. */
  public void unsubscribe(ElementStep step) {
    if (subscribes(step)) {
      catchEvents.unsubscribe(step.result(), step.key());
    }
  }

  /** The instance completes (COMPLETED comes next): compensation records it if it must. */
  public void completing(ElementStep step) {
    compensations.completing(step.result(), step.key(), step.value(), step.process());
  }

  /** The instance is COMPLETED: a compensation handler's throw event may go on. */
  public void completed(ElementStep step) {
    compensations.completed(step.result(), step.key(), step.value(), step.process());
  }

  /** The process instance completes: nothing in it is compensated any more. */
  public void instanceEnds(ElementStep step) {
    compensations.instanceEnds(step.result(), step.key(), step.process());
  }

  public void activated(ElementStep step) {
    append(step, ProcessInstanceIntent.ELEMENT_ACTIVATED);
  }

  /**
   * Completes an activity, event or gateway (its kind has decided which outgoing flows it takes:
   * {@code taken}, or all if null). Its output mappings are evaluated first (an incident holds it
   * if they fail); it is left, and its outputs set, between COMPLETING and COMPLETED; then it takes
   * its outgoing flows, or, as an inner instance of a multi-instance activity, puts its output into
   * the body's collection and lets the body go on.
   */
  public void complete(ElementStep step, List<ExecutableElement.Flow> taken) {
    if (completeInPlace(step)) {
      leave(step, taken);
    }
  }

  /**
   * Completes the element as {@link #complete} does, without leaving it: true once it is COMPLETED
   * and its caller is to go on (it is left, or its scope completed), false if an incident holds it
   * or a multi-instance body took over.
   */
  public boolean completeInPlace(ElementStep step) {
    ProcessingResult result = step.result();
    long key = step.key();
    ProcessInstanceValue value = step.value();
    ExecutableElement element = step.element();
    boolean inner = element.loop() != null;
    Map<String, byte[]> outputs = null;
    if (!element.outputs().isEmpty()) {
      outputs = evaluateMappings(step, element.outputs(), "output");
      if (outputs == null) {
        return false; // an incident holds the element until it is resolved
      }
    }
    if (inner && !multiInstance.collectOutput(result, key, value, element)) {
      return false; // an incident holds the element until it is resolved
    }
    unsubscribe(step);
    append(step, ProcessInstanceIntent.ELEMENT_COMPLETING);
    if (outputs != null) {
      variables.setPropagating(
          result,
          value.flowScopeKey,
          value.processInstanceKey,
          value.processDefinitionKey,
          outputs);
    }
    compensations.completing(result, key, value, step.process());
    append(step, ProcessInstanceIntent.ELEMENT_COMPLETED);
    completed(step);
    if (inner) {
      multiInstance.innerCompleted(result, value.flowScopeKey);
      return false; // the body takes the outgoing flows once all inner instances are done
    }
    return true;
  }

  /**
   * The element completed: it takes its outgoing flows ({@code taken}, or all), or, with none,
   * completes its flow scope once that has no active child. A flow's target is activated in the
   * same flow scope; a parallel gateway only once each of its incoming flows brought a token; a
   * joining inclusive gateway once no other token may still reach it ({@code
   * InclusiveJoinBehavior}).
   */
  public void leave(ElementStep step, List<ExecutableElement.Flow> taken) {
    ProcessingResult result = step.result();
    ExecutableElement element = step.element();
    long flowScopeKey = step.value().flowScopeKey;
    if (element.outgoing().isEmpty()) {
      // The COMPLETED applier already took this element from its scope's active children.
      if (instances.get(flowScopeKey, scope) && scope.activeChildren == 0) {
        completeInstance(result, flowScopeKey);
      }
      return;
    }
    for (ExecutableElement.Flow flow : taken != null ? taken : element.outgoing()) {
      next.copyFrom(step.value());
      next.parentElementInstanceKey = -1;
      next.elementType = BpmnElementType.SEQUENCE_FLOW;
      next.elementId = flow.id();
      result.appendEvent(context.nextKey(), ProcessInstanceIntent.SEQUENCE_FLOW_TAKEN, next);
      ExecutableElement target = step.process().element(flow.targetId());
      if (InclusiveJoin.joins(target)) {
        continue; // ElementProcessor activates it once no other token may still reach it
      }
      if (target.type() != BpmnElementType.PARALLEL_GATEWAY || joined(target, flowScopeKey)) {
        activateChild(step, flow.targetId(), flowScopeKey);
      }
    }
  }

  /** A parallel gateway activates once each of its incoming flows brought a token. */
  private boolean joined(ExecutableElement gateway, long flowScopeKey) {
    for (String incoming : gateway.incoming()) {
      if (takenFlows.count(flowScopeKey, gateway.id(), incoming) < 1) {
        return false;
      }
    }
    return true;
  }

  /**
   * Activates element {@code elementId} of the step's process in flow scope {@code flowScopeKey}: a
   * scope's start event, or a flow's target.
   */
  public void activateChild(ElementStep step, String elementId, long flowScopeKey) {
    ExecutableElement element = step.process().element(elementId);
    next.copyFrom(step.value());
    next.parentElementInstanceKey = -1; // only a called process has a caller
    next.flowScopeKey = flowScopeKey;
    next.elementId = element.id();
    next.elementType =
        element.loop() != null ? BpmnElementType.MULTI_INSTANCE_BODY : element.type();
    step.result().appendCommand(context.nextKey(), ProcessInstanceIntent.ACTIVATE_ELEMENT, next);
  }

  /**
   * Asks element instance {@code key}, as stored, to complete: an element that has nothing to wait
   * for, or a scope whose last child is gone.
   */
  public void completeInstance(ProcessingResult result, long key) {
    if (!instances.get(key, scope)) {
      throw new IllegalStateException("element instance " + key + " vanished");
    }
    result.appendCommand(key, ProcessInstanceIntent.COMPLETE_ELEMENT, scope.value);
  }

  /** The mappings' variables, or null after raising an incident naming the failure. */
  private Map<String, byte[]> evaluateMappings(
      ElementStep step, List<Mapping> mappings, String kind) {
    try {
      return ioMappings.evaluate(mappings, variables.visible(step.key(), List.of()));
    } catch (FeelStrings.EvaluationException | InvalidVariablesException e) {
      incidents.raise(
          step.result(),
          ErrorType.EXTRACT_VALUE_ERROR,
          step.key(),
          step.value(),
          "an "
              + kind
              + " mapping of '"
              + step.element().id()
              + "' cannot be evaluated: "
              + e.getMessage());
      return null;
    }
  }

  /**
   * Evaluates {@code expression} as {@link FeelStrings#evaluate} does, with the variables visible
   * from element instance {@code key}.
   *
   * @throws FeelStrings.EvaluationException if it cannot be evaluated
   * @throws InvalidVariablesException if a visible variable cannot be read
   */
  public String evaluateText(String expression, long key) {
    return strings.evaluate(expression, () -> variables.visible(key, List.of()));
  }
}

package io.tern.engine.workflow.processing.behavior.compensation;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.CompensationIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.CompensationState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.CompensationSubscriptionValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compensation, as in Zeebe 8.6. An activity with a compensation handler that completes is recorded
 * (CREATED), once for a multi-instance activity (its body); so is a subprocess, or a multi-instance
 * body, in which such activities completed, so that they are found through it. A compensation throw
 * event compensates what was recorded in its scope (for one in an event subprocess, also in the
 * scope the event subprocess runs in), only {@code activityRef}'s if it names one, and through the
 * recorded subprocesses what completed inside them: each handler is activated (TRIGGERED) next to
 * the throw event, all at once, and the throw event waits until the last one completed (COMPLETED;
 * see {@link CompensationThrow} for the records). What is compensated once is not again. Local
 * variables of the compensated activity are gone; a handler sees its scope's. When the process
 * instance ends, what is left is DELETED.
 */
public final class CompensationBehavior {
  private final ProcessingContext context;
  private final WorkflowState state;
  private final ElementInstance instance = new ElementInstance();
  private final CompensationThrow throwing;

  public CompensationBehavior(ProcessingContext context, WorkflowState state) {
    this.context = context;
    this.state = state;
    this.throwing = new CompensationThrow(context, state);
  }

  /**
   * Element instance {@code key} ({@code value}) completes (COMPLETED comes next): it is recorded
   * if it can be compensated; what completed in a scope that is not recorded (an event subprocess,
   * a handler) can no longer be reached.
   */
  public void completing(
      ProcessingResult result, long key, ProcessInstanceValue value, ExecutableProcess process) {
    if (!process.hasCompensation()) {
      return;
    }
    ExecutableElement element = process.element(value.elementId);
    boolean inner = isInner(element, value);
    boolean scope =
        value.elementType == BpmnElementType.SUB_PROCESS
            || value.elementType == BpmnElementType.MULTI_INSTANCE_BODY;
    if (process.isCompensationHandler(value.elementId)) {
      deleteScoped(result, key, value.processInstanceKey);
      return;
    }
    String handler = process.compensationHandlerOf(value.elementId);
    if (handler != null && !inner) {
      record(result, key, value, handler);
    } else if (scope && state.compensations().holdsAny(key)) {
      record(result, key, value, "");
    } else if (value.elementType == BpmnElementType.EVENT_SUB_PROCESS) {
      deleteScoped(result, key, value.processInstanceKey);
    }
  }

  /**
   * Element instance {@code key} ({@code value}) is COMPLETED: a compensation handler's
   * subscription is done, which may let its throw event go on (after the handler's COMPLETED, as in
   * Zeebe).
   */
  public void completed(
      ProcessingResult result, long key, ProcessInstanceValue value, ExecutableProcess process) {
    if (process.hasCompensation()
        && process.isCompensationHandler(value.elementId)
        && !isInner(process.element(value.elementId), value)) {
      throwing.handlerDone(result, key, value.processInstanceKey, false);
    }
  }

  /** Whether the instance is an inner instance of a multi-instance activity (not its body). */
  private static boolean isInner(ExecutableElement element, ProcessInstanceValue value) {
    return element.loop() != null && value.elementType != BpmnElementType.MULTI_INSTANCE_BODY;
  }

  /**
   * Element instance {@code key} ({@code value}) is terminated: a handler no longer holds its throw
   * event back, and what completed inside a terminated scope can no longer be compensated.
   */
  public void terminated(
      ProcessingResult result, long key, ProcessInstanceValue value, ExecutableProcess process) {
    if (!process.hasCompensation() || value.elementType == BpmnElementType.PROCESS) {
      return;
    }
    if (process.isCompensationHandler(value.elementId)
        && !isInner(process.element(value.elementId), value)) {
      throwing.handlerDone(result, key, value.processInstanceKey, true);
    }
    if (state.compensations().holdsAny(key)) {
      deleteScoped(result, key, value.processInstanceKey);
    }
  }

  /**
   * Compensation throw event {@code throwKey} ({@code throwValue}) compensates; true if handlers
   * run (the event waits for them), false if there is nothing to compensate.
   */
  public boolean compensate(
      ProcessingResult result,
      long throwKey,
      ProcessInstanceValue throwValue,
      ExecutableProcess process,
      String activityRef) {
    if (!process.hasCompensation()) {
      return false;
    }
    Set<Long> scopes = new HashSet<>();
    scopes.add(throwValue.flowScopeKey);
    if (state.instances().get(throwValue.flowScopeKey, instance)
        && instance.value.elementType == BpmnElementType.EVENT_SUB_PROCESS) {
      scopes.add(instance.value.flowScopeKey);
    }
    Map<Long, List<CompensationState.Entry>> byScope =
        byScope(state.compensations().ofInstance(throwValue.processInstanceKey));
    boolean handlers = false;
    for (long scopeKey : scopes) {
      for (CompensationState.Entry entry : byScope.getOrDefault(scopeKey, List.of())) {
        if (activityRef == null || activityRef.equals(entry.value().activityId)) {
          handlers |= throwing.trigger(result, entry, byScope, throwKey, throwValue, process);
        }
      }
    }
    return handlers;
  }

  /** The untriggered subscriptions by the scope instance they completed in. */
  private static Map<Long, List<CompensationState.Entry>> byScope(
      List<CompensationState.Entry> recorded) {
    Map<Long, List<CompensationState.Entry>> byScope = new HashMap<>();
    for (CompensationState.Entry entry : recorded) {
      if (!entry.value().isTriggered()) {
        byScope.computeIfAbsent(entry.value().scopeKey, scope -> new ArrayList<>()).add(entry);
      }
    }
    return byScope;
  }

  /**
   * The process instance {@code processInstanceKey} ends: nothing in it is compensated any more.
   */
  public void instanceEnds(
      ProcessingResult result, long processInstanceKey, ExecutableProcess process) {
    if (!process.hasCompensation()) {
      return;
    }
    for (CompensationState.Entry entry : state.compensations().ofInstance(processInstanceKey)) {
      result.appendEvent(entry.key(), CompensationIntent.DELETED, entry.value());
    }
  }

  private void record(
      ProcessingResult result, long key, ProcessInstanceValue value, String handlerId) {
    CompensationSubscriptionValue subscription = new CompensationSubscriptionValue();
    subscription.processInstanceKey = value.processInstanceKey;
    subscription.processDefinitionKey = value.processDefinitionKey;
    subscription.activityInstanceKey = key;
    subscription.scopeKey = value.flowScopeKey;
    subscription.activityId = value.elementId;
    subscription.handlerId = handlerId;
    result.appendEvent(context.nextKey(), CompensationIntent.CREATED, subscription);
  }

  /**
   * Deletes what completed in scope instance {@code scopeKey} and, through the subprocesses
   * recorded there, inside them: nothing can reach it any more.
   */
  private void deleteScoped(ProcessingResult result, long scopeKey, long processInstanceKey) {
    if (!state.compensations().holdsAny(scopeKey)) {
      return;
    }
    Map<Long, List<CompensationState.Entry>> byScope = new HashMap<>();
    for (CompensationState.Entry entry : state.compensations().ofInstance(processInstanceKey)) {
      byScope.computeIfAbsent(entry.value().scopeKey, scope -> new ArrayList<>()).add(entry);
    }
    ArrayDeque<Long> scopes = new ArrayDeque<>();
    scopes.add(scopeKey);
    while (!scopes.isEmpty()) {
      for (CompensationState.Entry entry : byScope.getOrDefault(scopes.poll(), List.of())) {
        result.appendEvent(entry.key(), CompensationIntent.DELETED, entry.value());
        scopes.add(entry.value().activityInstanceKey);
      }
    }
  }
}

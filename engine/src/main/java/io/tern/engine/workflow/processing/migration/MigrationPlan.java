package io.tern.engine.workflow.processing.migration;

import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.behavior.events.CatchEventBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.EventSubprocessBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.CompensationState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessInstanceMigrationValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a MigrateProcessInstance command will do, worked out from the state before anything is
 * written, so that a command that cannot be carried out is rejected whole with the reason Zeebe 8.6
 * gives: the instance and the target definition exist, the mapping instructions name elements of
 * both once, and every active element instance, from the process instance down, has a mapping to an
 * element of the same type in the same flow scope, and is at rest (no token on a flow, nothing on
 * its way to it). The process instance itself needs no mapping.
 *
 * <p>What each element instance waits for follows it ({@link MigrationCatchEvents}), and so does
 * what compensation recorded of the activities that completed ({@link MigrationCompensations}),
 * unless compensation is under way.
 */
final class MigrationPlan {
  /** Why the command is refused. */
  record Refusal(RejectionType type, String reason) {}

  /**
   * Element instance {@code key} ({@code before}, copied) becomes {@code after}, an instance of
   * {@code target} (null for the process instance), with its catch events moved as {@code events}
   * says (null for an instance that was not entered yet).
   */
  record Move(
      long key,
      ElementInstance before,
      ProcessInstanceValue after,
      ExecutableElement target,
      MigrationCatchEvents.Moved events) {}

  private final WorkflowState state;
  private final ElementInstance root;
  private final ProcessInstanceMigrationValue migration;
  private final MigrationCatchEvents catchEvents;
  private final MigrationCompensations compensations;
  private InstanceAtRest atRest;
  private final Map<String, String> mappings = new LinkedHashMap<>();
  private final List<Move> moves = new ArrayList<>();
  private ExecutableProcess source;
  private ProcessState.Deployed target;

  MigrationPlan(
      WorkflowState state,
      ElementInstance root,
      ProcessInstanceMigrationValue migration,
      CatchEventBehavior catchEventBehavior) {
    this.state = state;
    this.root = root;
    this.migration = migration;
    this.catchEvents = new MigrationCatchEvents(state, catchEventBehavior, this::refusal);
    this.compensations = new MigrationCompensations(this::refusal);
  }

  /** Every element instance of the process instance, the process instance first. */
  List<Move> moves() {
    return moves;
  }

  ProcessState.Deployed target() {
    return target;
  }

  /** What compensation recorded in the instance becomes. */
  List<MigrationCompensations.Moved> compensations() {
    return compensations.moved();
  }

  /** Null if the migration can be carried out (then {@link #moves()} says how), else why not. */
  Refusal check() {
    source = state.process(root.value.processDefinitionKey);
    atRest = new InstanceAtRest(state, source);
    Set<String> duplicates = new LinkedHashSet<>();
    for (ProcessInstanceMigrationValue.Mapping mapping : migration.mappings) {
      if (mappings.put(mapping.sourceElementId(), mapping.targetElementId()) != null) {
        duplicates.add(mapping.sourceElementId());
      }
    }
    if (!duplicates.isEmpty()) {
      return new Refusal(
          RejectionType.INVALID_ARGUMENT,
          expected()
              + " but the mapping instructions contain duplicate source element ids '"
              + String.join("', '", duplicates)
              + "'");
    }
    target = state.processes().byKey(migration.targetProcessDefinitionKey);
    if (target == null || state.processes().isDeleted(migration.targetProcessDefinitionKey)) {
      return new Refusal(
          RejectionType.NOT_FOUND,
          "Expected to migrate process instance to process definition but no process definition"
              + " found with key '"
              + migration.targetProcessDefinitionKey
              + "'");
    }
    for (ProcessInstanceMigrationValue.Mapping mapping : migration.mappings) {
      Refusal unknown = unknownElement(mapping);
      if (unknown != null) {
        return unknown;
      }
    }
    List<CompensationState.Entry> recorded =
        state.compensations().ofInstance(migration.processInstanceKey);
    Refusal underWay = compensations.underWay(recorded);
    if (underWay != null) {
      return underWay;
    }
    // The process instance runs as the target process, whatever the instructions say of it.
    mappings.put(source.bpmnProcessId(), target.bpmnProcessId());
    Refusal refusal = walk();
    if (refusal != null) {
      return refusal;
    }
    return compensations.plan(recorded, target, mappings, moves);
  }

  private Refusal unknownElement(ProcessInstanceMigrationValue.Mapping mapping) {
    String sourceId = mapping.sourceElementId();
    if (!source.elements().containsKey(sourceId) && !sourceId.equals(source.bpmnProcessId())) {
      return new Refusal(
          RejectionType.INVALID_ARGUMENT,
          expected()
              + " but the mapping instructions contain a non-existing source element id '"
              + sourceId
              + "'. Elements provided in mapping instructions must exist in the source process"
              + " definition.");
    }
    String targetId = mapping.targetElementId();
    if (!target.process().elements().containsKey(targetId)
        && !targetId.equals(target.bpmnProcessId())) {
      return new Refusal(
          RejectionType.INVALID_ARGUMENT,
          expected()
              + " but the mapping instructions contain a non-existing target element id '"
              + targetId
              + "'. Elements provided in mapping instructions must exist in the target process"
              + " definition.");
    }
    return null;
  }

  /** Checks and plans each element instance, scopes before what is in them. */
  private Refusal walk() {
    Map<Long, String> targetIds = new HashMap<>();
    ArrayDeque<Long> next = new ArrayDeque<>();
    next.add(migration.processInstanceKey);
    while (!next.isEmpty()) {
      long key = next.poll();
      ElementInstance instance = new ElementInstance();
      if (!state.instances().get(key, instance)) {
        throw new IllegalStateException("element instance " + key + " vanished");
      }
      List<Long> children = state.instances().children(key);
      Refusal refusal = plan(key, instance, children, targetIds);
      if (refusal != null) {
        return refusal;
      }
      next.addAll(children);
    }
    return null;
  }

  private Refusal plan(
      long key, ElementInstance instance, List<Long> children, Map<Long, String> targetIds) {
    ProcessInstanceValue value = instance.value;
    boolean isProcess = value.flowScopeKey < 0;
    ExecutableElement element = isProcess ? null : source.element(value.elementId);
    if (!isProcess) {
      Refusal unsupported = unsupported(value, element);
      if (unsupported != null) {
        return unsupported;
      }
    }
    String targetId = mappings.get(isProcess ? source.bpmnProcessId() : value.elementId);
    if (targetId == null) {
      return refusal(
          "no mapping instruction defined for active element with id '"
              + value.elementId
              + "'. Elements cannot be migrated without a mapping.");
    }
    if (!isProcess && targetId.equals(target.bpmnProcessId())) {
      return refusal(
          "active element with id '"
              + value.elementId
              + "' and type '"
              + kind(value.elementType)
              + "' is mapped to an element with id '"
              + targetId
              + "' and different type 'process'. Elements must be mapped to elements of the same"
              + " type.");
    }
    if (!isProcess && target.process().inCompensationHandler(targetId)) {
      return refusal(
          "active element with id '"
              + value.elementId
              + "' is mapped to '"
              + targetId
              + "', a compensation handler or an element in one, which runs only when"
              + " compensation is thrown.");
    }
    ExecutableElement targetElement = isProcess ? null : target.process().element(targetId);
    if (!isProcess) {
      Refusal changed = changed(instance, element, targetElement, targetIds);
      if (changed != null) {
        return changed;
      }
    }
    if (!atRest.check(key, instance, element, children)) {
      return refusal(
          "a concurrent command was executed on the process instance (element '"
              + value.elementId
              + "' has work on its way). Please retry the migration.");
    }
    targetIds.put(key, targetId);
    ProcessInstanceValue after = new ProcessInstanceValue();
    after.copyFrom(value);
    after.processDefinitionKey = target.key();
    after.bpmnProcessId = target.bpmnProcessId();
    after.version = target.version();
    after.elementId = targetId;
    MigrationCatchEvents.Moved events;
    if (instance.state == ProcessInstanceIntent.ELEMENT_ACTIVATED) {
      CatchEventBehavior.Part part =
          isProcess
              ? CatchEventBehavior.Part.ALL
              : CatchEventBehavior.partOf(targetElement, value.elementType);
      List<ExecutableElement> targets =
          CatchEventBehavior.targets(
              target.process(), targetElement, part, eventSubprocessStarts(after, children));
      events = catchEvents.plan(key, source, value.elementId, after, targets, mappings);
      if (events.refusal() != null) {
        return events.refusal();
      }
    } else {
      // Held by an incident: what it subscribed to before failing closes, and it subscribes to the
      // target's catch events when it is entered again.
      events = catchEvents.closeAll(key);
    }
    moves.add(new Move(key, instance, after, targetElement, events));
    return null;
  }

  /**
   * The event subprocess start events the instance waits for on the target: none for a
   * multi-instance body (its inner instances wait for those inside them), none while an
   * interrupting event subprocess runs in it (it closed them when it started).
   */
  private List<ExecutableElement> eventSubprocessStarts(
      ProcessInstanceValue after, List<Long> children) {
    if (after.elementType == BpmnElementType.MULTI_INSTANCE_BODY) {
      return List.of();
    }
    ElementInstance child = new ElementInstance();
    for (long childKey : children) {
      if (state.instances().get(childKey, child)
          && child.value.elementType == BpmnElementType.EVENT_SUB_PROCESS) {
        ExecutableElement eventSubprocess = source.element(child.value.elementId);
        if (source.element(eventSubprocess.startEventId()).interrupting()) {
          return List.of();
        }
      }
    }
    return EventSubprocessBehavior.waitingStarts(target.process(), after);
  }

  /** Whether an element of this kind may be active while its instance is migrated. */
  private Refusal unsupported(ProcessInstanceValue value, ExecutableElement element) {
    switch (value.elementType) {
      case START_EVENT,
      END_EVENT,
      BOUNDARY_EVENT,
      INTERMEDIATE_THROW_EVENT,
      PARALLEL_GATEWAY,
      INCLUSIVE_GATEWAY,
      MANUAL_TASK,
      TASK,
      SEQUENCE_FLOW:
        return refusal(
            "active element with id '"
                + value.elementId
                + "' has an unsupported type. The migration of a "
                + kind(value.elementType)
                + " is not supported.");
      case INTERMEDIATE_CATCH_EVENT:
        EventDefinition event = element.event();
        if (!(event instanceof EventDefinition.Message
            || event instanceof EventDefinition.Timer
            || event instanceof EventDefinition.Signal)) {
          return refusal(
              "active element with id '"
                  + value.elementId
                  + "' is an intermediate catch event of type '"
                  + (event == null ? "none" : event.getClass().getSimpleName().toLowerCase())
                  + "'. Migrating active intermediate catch events of this type is not possible"
                  + " yet.");
        }
        if (source.followsEventBasedGateway(element)) {
          return refusal(
              "active element with id '"
                  + value.elementId
                  + "' is an intermediate catch event attached to an event-based gateway."
                  + " Migrating active events attached to an event-based gateway is not possible"
                  + " yet.");
        }
        return null;
      default:
        return null;
    }
  }

  /** Whether the instance's element and target differ in type, loop or flow scope. */
  private Refusal changed(
      ElementInstance instance,
      ExecutableElement element,
      ExecutableElement targetElement,
      Map<Long, String> targetIds) {
    ProcessInstanceValue value = instance.value;
    ElementInstance flowScope = new ElementInstance();
    state.instances().get(value.flowScopeKey, flowScope);
    boolean inner = flowScope.value.elementType == BpmnElementType.MULTI_INSTANCE_BODY;
    BpmnElementType targetType =
        targetElement.loop() != null && !inner
            ? BpmnElementType.MULTI_INSTANCE_BODY
            : targetElement.type();
    boolean sameType =
        value.elementType == BpmnElementType.MULTI_INSTANCE_BODY
            ? targetType == BpmnElementType.MULTI_INSTANCE_BODY
                && targetElement.type() == element.type()
            : targetType == value.elementType;
    if (!sameType) {
      return refusal(
          "active element with id '"
              + value.elementId
              + "' and type '"
              + kind(value.elementType)
              + "' is mapped to an element with id '"
              + targetElement.id()
              + "' and different type '"
              + kind(targetType)
              + "'. Elements must be mapped to elements of the same type.");
    }
    if (element.type() == BpmnElementType.USER_TASK
        && (element.userTask() == null) != (targetElement.userTask() == null)) {
      return refusal(
          "active user task with id '"
              + value.elementId
              + "' and implementation '"
              + implementation(element)
              + "' is mapped to a user task with id '"
              + targetElement.id()
              + "' and different implementation '"
              + implementation(targetElement)
              + "'. Elements must be mapped to elements of the same implementation.");
    }
    String scopeTargetId = targetIds.get(value.flowScopeKey);
    String expectedScope =
        inner ? targetElement.id() : target.process().flowScopes().get(targetElement.id());
    if (!scopeTargetId.equals(expectedScope)) {
      return refusal(
          "the flow scope of active element with id '"
              + value.elementId
              + "' is changed. The flow scope of the active element is expected to be '"
              + scopeTargetId
              + "' but was '"
              + expectedScope
              + "'. The flow scope of an element cannot be changed during migration yet.");
    }
    if (value.elementType == BpmnElementType.MULTI_INSTANCE_BODY
        && element.loop().sequential() != targetElement.loop().sequential()) {
      return refusal(
          "active element with id '"
              + value.elementId
              + "' has a different loop characteristics than the target element with id '"
              + targetElement.id()
              + "'. Both elements must have either a sequential or a parallel loop"
              + " characteristics.");
    }
    return null;
  }

  /** An INVALID_STATE refusal: "Expected to migrate process instance 'key' but {@code why}". */
  private Refusal refusal(String why) {
    return new Refusal(RejectionType.INVALID_STATE, expected() + " but " + why);
  }

  private String expected() {
    return "Expected to migrate process instance '" + migration.processInstanceKey + "'";
  }

  /** A user task's kind, as Zeebe names it: a job or a Camunda user task. */
  private static String implementation(ExecutableElement userTask) {
    return userTask.userTask() == null ? "job worker" : "zeebe user task";
  }

  static String kind(BpmnElementType type) {
    return type.name().toLowerCase().replace('_', ' ');
  }
}

package io.tern.engine.workflow.processing.modification;

import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.model.InclusiveJoin;
import io.tern.engine.workflow.processing.behavior.events.CatchEventBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.EventSubprocessBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue.Activation;
import io.tern.engine.workflow.value.ProcessInstanceModificationValue.CreatedScope;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * What a ModifyProcessInstance command will do, worked out from the state before anything is
 * written, so that a command that cannot be carried out is rejected whole: after {@link
 * ModificationChecks}, where each element goes and what terminates.
 *
 * <p>Where each element goes: in the instances of its scopes, from the process down. With no
 * ancestor key, each scope's one active instance (an error if it has several: the caller picks one
 * with an ancestor key), or a new one if it has none. With an ancestor key, the ancestor's instance
 * and those above it, and new instances for every scope below it. A scope created by an earlier
 * activation of the same command counts as active. A multi-instance activity's inner instance can
 * be used (named as the ancestor, or the only one), never created.
 *
 * <p>What terminates: the instances named, and every scope left with nothing active by them (no
 * child that stays, no token on a flow, not used by an activation), up to the process instance,
 * unless a call activity called it.
 */
final class ModificationPlan {
  /** Where activation {@code i} puts its element. */
  record Placed(String elementId, List<String> scopeIds, List<Long> scopeKeys, Set<Long> created) {
    long flowScopeKey() {
      return scopeKeys.get(scopeKeys.size() - 1);
    }
  }

  private final WorkflowState state;
  private final ElementInstanceState instances;
  private final ExecutableProcess process;
  private final ElementInstance root;
  private final ProcessInstanceModificationValue modification;
  private final LongSupplier nextKey;
  private final CatchEventBehavior catchEvents;
  private final List<Placed> placed = new ArrayList<>();
  private final List<CreatedScope> createdScopes = new ArrayList<>();
  private final List<Long> terminations = new ArrayList<>();
  private final ElementInstance instance = new ElementInstance();

  ModificationPlan(
      WorkflowState state,
      ExecutableProcess process,
      ElementInstance root,
      ProcessInstanceModificationValue modification,
      LongSupplier nextKey,
      CatchEventBehavior catchEvents) {
    this.catchEvents = catchEvents;
    this.state = state;
    this.instances = state.instances();
    this.process = process;
    this.root = root;
    this.modification = modification;
    this.nextKey = nextKey;
  }

  Placed placed(int activation) {
    return placed.get(activation);
  }

  List<CreatedScope> createdScopes() {
    return createdScopes;
  }

  /** The instances to terminate, none inside another. */
  List<Long> terminations() {
    return terminations;
  }

  /** Null if the command can be carried out, else why not (every element or key at fault). */
  String check() {
    String problem = new ModificationChecks(instances, process, modification).check();
    if (problem == null) {
      problem = place();
    }
    if (problem == null) {
      problem = planTerminations();
    }
    return problem;
  }

  /** Places every activation, creating scopes where needed; null, or why one cannot be placed. */
  private String place() {
    List<Scope> createdSoFar = new ArrayList<>();
    for (int index = 0; index < modification.activations.size(); index++) {
      Activation activation = modification.activations.get(index);
      List<String> scopeIds = process.flowScopesOf(activation.elementId());
      List<Long> keys = new ArrayList<>();
      Set<Long> created = new HashSet<>();
      keys.add(rootKey());
      int from = 1;
      long ancestor = activation.ancestorScopeKey();
      if (ancestor > 0 && terminatedWith(ancestor)) {
        return "ancestor element instance "
            + ancestor
            + " is terminated by the same command, so '"
            + activation.elementId()
            + "' cannot be activated in it";
      }
      if (ancestor > 0 && ancestor != rootKey()) {
        instances.get(ancestor, instance);
        int level = scopeIds.indexOf(instance.value.elementId);
        List<Long> path = pathTo(ancestor);
        keys.clear();
        for (int i = 0; i <= level; i++) {
          keys.add(path.get(i));
        }
        from = level + 1;
      }
      for (int level = from; level < scopeIds.size(); level++) {
        String scopeId = scopeIds.get(level);
        long parent = keys.get(level - 1);
        ExecutableElement scope = process.element(scopeId);
        List<Long> candidates = ancestor > 0 ? List.of() : active(parent, scope, createdSoFar);
        if (candidates.size() > 1) {
          return "'"
              + scopeId
              + "' has more than one active instance "
              + candidates
              + ", so where to activate '"
              + activation.elementId()
              + "' is not clear: give one of them as the ancestor element instance key";
        }
        if (candidates.size() == 1) {
          keys.add(candidates.get(0));
          continue;
        }
        String failure = evaluateOnEntry(scope, index, scopeIds, keys, created);
        if (failure != null) {
          return "activating '"
              + activation.elementId()
              + "' would create an instance of '"
              + scopeId
              + "' whose catch events cannot be subscribed to with the variables it would see: "
              + failure;
        }
        if (scope.loop() != null) {
          return "activating '"
              + activation.elementId()
              + "' would create an instance of multi-instance activity '"
              + scopeId
              + "', which a modification cannot do: give an active inner instance of it as the"
              + " ancestor element instance key";
        }
        long key = nextKey.getAsLong();
        keys.add(key);
        created.add(key);
        createdSoFar.add(new Scope(key, scopeId, parent));
        createdScopes.add(new CreatedScope(key, parent));
      }
      for (long key : keys) {
        if (!created.contains(key) && state.pendingBoundaries().has(key)) {
          return "element instance "
              + key
              + " is being interrupted or ended (an interrupting event or a terminate end event is"
              + " under way), so '"
              + activation.elementId()
              + "' cannot be activated in it";
        }
      }
      placed.add(new Placed(activation.elementId(), scopeIds, List.copyOf(keys), created));
    }
    return null;
  }

  /** A scope created by an activation of this command. */
  private record Scope(long key, String elementId, long flowScopeKey) {}

  /** The active instances of {@code scope} directly in instance {@code parent}. */
  private List<Long> active(long parent, ExecutableElement scope, List<Scope> createdSoFar) {
    List<Long> found = new ArrayList<>();
    for (long child : instances.children(parent)) {
      if (!instances.get(child, instance) || !instance.value.elementId.equals(scope.id())) {
        continue;
      }
      if (instance.value.elementType == BpmnElementType.MULTI_INSTANCE_BODY) {
        for (long inner : instances.children(child)) {
          if (instances.get(inner, instance)
              && instance.state == ProcessInstanceIntent.ELEMENT_ACTIVATED
              && !terminatedWith(inner)) {
            found.add(inner);
          }
        }
      } else if (instance.state == ProcessInstanceIntent.ELEMENT_ACTIVATED
          && !terminatedWith(child)) {
        found.add(child);
      }
    }
    for (Scope created : createdSoFar) {
      if (created.flowScopeKey() == parent && created.elementId().equals(scope.id())) {
        found.add(created.key());
      }
    }
    return found;
  }

  /**
   * The keys from the process instance down to {@code key}, one per scope level: a multi-instance
   * body is skipped (its inner instance stands for the activity's level).
   */
  private List<Long> pathTo(long key) {
    List<Long> path = new ArrayList<>();
    long current = key;
    while (current >= 0 && instances.get(current, instance)) {
      if (instance.value.elementType != BpmnElementType.MULTI_INSTANCE_BODY) {
        path.add(0, current);
      }
      current = instance.value.flowScopeKey;
    }
    return path;
  }

  /**
   * The named instances, and the scopes they leave with nothing active, up to the process instance;
   * none inside another. Null, or why the process instance cannot end so.
   */
  private String planTerminations() {
    if (modification.terminations.isEmpty()) {
      return null;
    }
    Set<Long> used = new HashSet<>();
    for (Placed activation : placed) {
      used.addAll(activation.scopeKeys());
    }
    Set<Long> ending = new LinkedHashSet<>(modification.terminations);
    // A scope all of whose active children end, with no token on its flows, ends as well.
    Map<Long, Integer> endingChildren = new HashMap<>();
    List<Long> toVisit = new ArrayList<>(ending);
    while (!toVisit.isEmpty()) {
      long key = toVisit.remove(0);
      if (!instances.get(key, instance) || instance.value.flowScopeKey < 0) {
        continue;
      }
      long scopeKey = instance.value.flowScopeKey;
      if (used.contains(scopeKey) || ending.contains(scopeKey)) {
        continue;
      }
      int endingHere = endingChildren.merge(scopeKey, 1, Integer::sum);
      if (instances.get(scopeKey, instance) && instance.activeChildren - endingHere <= 0) {
        ending.add(scopeKey);
        toVisit.add(scopeKey);
      }
    }
    for (long key : modification.terminations) {
      String waiting = joinLeftWaiting(key, ending);
      if (waiting != null) {
        return waiting;
      }
    }
    if (ending.contains(rootKey()) && root.value.parentElementInstanceKey >= 0) {
      return "the modification would end process instance "
          + rootKey()
          + ", which call activity instance "
          + root.value.parentElementInstanceKey
          + " called: modify the calling process instance instead";
    }
    for (long key : ending) {
      if (!coveredBy(key, ending)) {
        terminations.add(key);
      }
    }
    return null;
  }

  /** Whether an ancestor of {@code key} is among {@code keys}. */
  private boolean coveredBy(long key, Set<Long> keys) {
    long scope = instances.get(key, instance) ? instance.value.flowScopeKey : -1;
    while (scope >= 0) {
      if (keys.contains(scope)) {
        return true;
      }
      scope = instances.get(scope, instance) ? instance.value.flowScopeKey : -1;
    }
    return false;
  }

  /** Whether {@code key} or one of its scopes is named by a terminate instruction. */
  private boolean terminatedWith(long key) {
    ElementInstance at = new ElementInstance();
    long current = key;
    while (current >= 0) {
      if (modification.terminations.contains(current)) {
        return true;
      }
      current = instances.get(current, at) ? at.value.flowScopeKey : -1;
    }
    return false;
  }

  /**
   * Evaluates what a new instance of {@code scope} subscribes to on entering (its boundary events,
   * its event subprocesses' start events) with the variables it would see: those activation {@code
   * index} gives it and the scopes created above it, then those of the instances above (the process
   * instance's after the activation's own for it). Null, or what fails.
   */
  private String evaluateOnEntry(
      ExecutableElement scope,
      int index,
      List<String> scopeIds,
      List<Long> keys,
      Set<Long> created) {
    ProcessInstanceValue value = new ProcessInstanceValue();
    value.elementId = scope.id();
    value.elementType = scope.type();
    List<ExecutableElement> targets =
        CatchEventBehavior.targets(
            process,
            scope,
            CatchEventBehavior.partOf(scope, scope.type()),
            EventSubprocessBehavior.waitingStarts(process, value));
    if (targets.isEmpty()) {
      return null;
    }
    Map<String, byte[]> visible = new LinkedHashMap<>();
    putAbsent(visible, given(index, scope.id()));
    for (int level = keys.size() - 1; level >= 1; level--) {
      long key = keys.get(level);
      putAbsent(
          visible,
          created.contains(key)
              ? given(index, scopeIds.get(level))
              : state.variables().ofScope(key));
    }
    putAbsent(visible, given(index, ""));
    putAbsent(visible, state.variables().ofScope(rootKey()));
    return catchEvents.evaluateAll(targets, () -> visible, new ArrayList<>());
  }

  /** The variables activation {@code index} gives scope {@code scopeId} ("" for the process). */
  private Map<String, byte[]> given(int index, String scopeId) {
    Map<String, byte[]> given = new LinkedHashMap<>();
    for (ProcessInstanceModificationValue.Variables instruction : modification.variables) {
      boolean forProcess =
          instruction.scopeId().isEmpty() || instruction.scopeId().equals(process.bpmnProcessId());
      boolean matches =
          scopeId.isEmpty() ? forProcess : !forProcess && instruction.scopeId().equals(scopeId);
      if (instruction.activation() == index && matches) {
        try {
          given.putAll(JsonDocuments.variables(instruction.document()));
        } catch (InvalidVariablesException e) {
          // The processor refuses the command for it, naming the scope.
        }
      }
    }
    return given;
  }

  private static void putAbsent(Map<String, byte[]> into, Map<String, byte[]> variables) {
    variables.forEach(into::putIfAbsent);
  }

  /**
   * Null, or why terminating {@code key} would leave a joining inclusive gateway of a scope that
   * goes on waiting for a token that no longer comes (it is checked again only when an element of
   * its scope moves).
   */
  private String joinLeftWaiting(long key, Set<Long> ending) {
    ElementInstance at = new ElementInstance();
    if (!instances.get(key, at) || at.value.flowScopeKey < 0) {
      return null;
    }
    long scopeKey = at.value.flowScopeKey;
    if (ending.contains(scopeKey) || !instances.get(scopeKey, at)) {
      return null;
    }
    String scopeId = at.value.flowScopeKey < 0 ? process.bpmnProcessId() : at.value.elementId;
    for (InclusiveJoin join : process.inclusiveJoins()) {
      List<String> scopes = process.flowScopesOf(join.gatewayId());
      if (scopes.isEmpty() || !scopes.get(scopes.size() - 1).equals(scopeId)) {
        continue;
      }
      for (String incoming : process.element(join.gatewayId()).incoming()) {
        if (state.takenFlows().count(scopeKey, join.gatewayId(), incoming) > 0) {
          return "terminating element instance "
              + key
              + " would leave joining inclusive gateway '"
              + join.gatewayId()
              + "' waiting for a token that no longer comes; terminate what waits there as well";
        }
      }
    }
    return null;
  }

  private long rootKey() {
    return modification.processInstanceKey;
  }
}

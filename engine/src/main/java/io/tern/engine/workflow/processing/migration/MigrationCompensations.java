package io.tern.engine.workflow.processing.migration;

import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.state.CompensationState;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.CompensationSubscriptionValue;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * What compensation recorded in a process instance becomes when the instance is migrated. Each
 * recorded subscription follows the mapping instruction of its activity, which completed and so is
 * named by no active element instance: the target must be able to compensate it (an activity with a
 * compensation handler, or a subprocess for one recorded without a handler because it holds
 * compensable activities) and lie in the flow scope the subscription's scope maps to, so that a
 * compensation throw event on the target finds it where it would have recorded it itself. Nothing
 * recorded is dropped: what cannot follow refuses the migration, naming the activity.
 *
 * <p>A Tern rule. Zeebe 8.6 neither checks nor moves compensation subscriptions (they keep the
 * source's activity ids); later Zeebe versions move them by the compensation boundary events'
 * mapping instructions and drop those without one.
 */
final class MigrationCompensations {
  /** Subscription {@code key} becomes {@code after}. */
  record Moved(long key, CompensationSubscriptionValue after) {}

  private final Function<String, MigrationPlan.Refusal> refusal;
  private final List<Moved> moved = new ArrayList<>();

  MigrationCompensations(Function<String, MigrationPlan.Refusal> refusal) {
    this.refusal = refusal;
  }

  List<Moved> moved() {
    return moved;
  }

  /**
   * A refusal if compensation is under way in the instance (a handler runs, or a subprocess waits
   * for the handlers inside it): work on its way, as a token on a flow is, to retry once done.
   */
  MigrationPlan.Refusal underWay(List<CompensationState.Entry> recorded) {
    for (CompensationState.Entry entry : recorded) {
      CompensationSubscriptionValue subscription = entry.value();
      if (subscription.isTriggered()) {
        return refusal.apply(
            "a concurrent command was executed on the process instance (compensation of"
                + " completed activity '"
                + subscription.activityId
                + "', thrown by '"
                + subscription.throwEventId
                + "', is under way). Please retry the migration once it completed.");
      }
    }
    return null;
  }

  /**
   * Plans the move of each recorded subscription (none triggered) to {@code target}; null if all
   * can follow, else why not. {@code mappings}: source to target element ids; {@code active}: how
   * each active element instance, a scope a subscription may have completed in, moves.
   */
  MigrationPlan.Refusal plan(
      List<CompensationState.Entry> recorded,
      ProcessState.Deployed target,
      Map<String, String> mappings,
      List<MigrationPlan.Move> active) {
    // Each scope instance a subscription may lie in: an active one, or a recorded subprocess.
    Map<Long, String> sourceIds = new HashMap<>();
    Map<Long, String> targetIds = new HashMap<>();
    for (MigrationPlan.Move move : active) {
      sourceIds.put(move.key(), move.before().value.elementId);
      targetIds.put(move.key(), move.after().elementId);
    }
    // The activities first, each on its own: a scope check reads the mapping of another one.
    for (CompensationState.Entry entry : recorded) {
      MigrationPlan.Refusal cannot = compensable(entry.value(), target.process(), mappings);
      if (cannot != null) {
        return cannot;
      }
      sourceIds.put(entry.value().activityInstanceKey, entry.value().activityId);
      targetIds.put(entry.value().activityInstanceKey, mappings.get(entry.value().activityId));
    }
    for (CompensationState.Entry entry : recorded) {
      CompensationSubscriptionValue subscription = entry.value();
      String targetId = mappings.get(subscription.activityId);
      // An inner instance of a multi-instance activity completed in its body, which has its id
      // and goes to the same target.
      boolean inner = subscription.activityId.equals(sourceIds.get(subscription.scopeKey));
      if (!inner) {
        MigrationPlan.Refusal changed =
            scopeChanged(subscription, targetId, targetIds.get(subscription.scopeKey), target);
        if (changed != null) {
          return changed;
        }
      }
      CompensationSubscriptionValue after =
          new CompensationSubscriptionValue().copyFrom(subscription);
      after.processDefinitionKey = target.key();
      after.activityId = targetId;
      // As the target would have recorded it: an inner instance of a multi-instance activity
      // without a handler (its body has it), anything else with its activity's handler, if any.
      String handler = target.process().compensationHandlerOf(targetId);
      after.handlerId = inner || handler == null ? "" : handler;
      moved.add(new Moved(entry.key(), after));
    }
    return null;
  }

  /** Why the activity of {@code subscription} cannot be compensated on the target, or null. */
  private MigrationPlan.Refusal compensable(
      CompensationSubscriptionValue subscription,
      ExecutableProcess target,
      Map<String, String> mappings) {
    String activityId = subscription.activityId;
    String what =
        subscription.hasHandler()
            ? "an activity with a compensation boundary event and handler"
            : "a subprocess (it holds compensable activities that completed in it)";
    String targetId = mappings.get(activityId);
    if (targetId == null) {
      return refusal.apply(
          "completed activity '"
              + activityId
              + "' can be compensated and no mapping instruction is defined for it. Add a mapping"
              + " instruction from '"
              + activityId
              + "' to "
              + what
              + " of the target: compensation recorded cannot be dropped.");
    }
    ExecutableElement element = target.elements().get(targetId);
    String why = null;
    if (element == null) {
      why = "is not an activity";
    } else if (target.inCompensationHandler(targetId)) {
      why = "is a compensation handler or lies in one";
    } else if (subscription.hasHandler() && target.compensationHandlerOf(targetId) == null) {
      why = "has no compensation boundary event with a handler";
    } else if (!subscription.hasHandler() && element.type() != BpmnElementType.SUB_PROCESS) {
      why = "is not a subprocess";
    }
    if (why == null) {
      return null;
    }
    return refusal.apply(
        "completed activity '"
            + activityId
            + "' can be compensated and is mapped to '"
            + targetId
            + "', which "
            + why
            + ". Map it to "
            + what
            + (subscription.hasHandler()
                ? ", or add a compensation boundary event with a handler to '" + targetId + "'."
                : "."));
  }

  /**
   * Whether the target of {@code subscription}'s activity lies elsewhere than {@code scopeTarget},
   * where the scope it completed in goes (null: a scope neither active nor recorded, which a
   * subscription never has; refused rather than guessed).
   */
  private MigrationPlan.Refusal scopeChanged(
      CompensationSubscriptionValue subscription,
      String targetId,
      String scopeTarget,
      ProcessState.Deployed target) {
    String actual = target.process().flowScopes().get(targetId);
    if (actual != null && actual.equals(scopeTarget)) {
      return null;
    }
    return refusal.apply(
        "the flow scope of completed activity '"
            + subscription.activityId
            + "' is changed: it can be compensated and is mapped to '"
            + targetId
            + "', in '"
            + actual
            + "', but the scope it completed in is mapped to '"
            + scopeTarget
            + "'. The flow scope of a compensable activity cannot be changed during migration.");
  }
}

package io.tern.engine.workflow.processing.migration;

import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.behavior.events.CatchEventBehavior;
import io.tern.engine.workflow.processing.behavior.messages.ProcessMessageSubscriptions;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ProcessMessageSubscriptionState;
import io.tern.engine.workflow.state.Subscription;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.SignalSubscriptionValue;
import io.tern.engine.workflow.value.TimerValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What an element instance waits for when it is migrated, as in Zeebe 8.6: a timer, message or
 * signal subscription whose catch event has a mapping instruction moves to the target catch event
 * (a timer keeps its due date, a message its name and correlation key); one without is closed; a
 * catch event of the target element that no subscription moves to is subscribed to anew, its
 * expressions evaluated now. A mapping may not move a catch event to another element, merge two, or
 * change a timer into a message.
 */
final class MigrationCatchEvents {
  record KeptTimer(long timerKey, TimerValue timer, String targetId) {}

  record KeptMessage(Subscription subscription, ExecutableElement target) {}

  record KeptSignal(SignalSubscriptionValue subscription, String targetId) {}

  /**
   * The subscriptions kept (with their new catch event), the source catch events whose
   * subscriptions close, and the target catch events subscribed to anew; or why not.
   */
  record Moved(
      List<KeptTimer> timers,
      List<KeptMessage> messages,
      List<KeptSignal> signals,
      Set<String> closed,
      List<CatchEventBehavior.Evaluated> opened,
      MigrationPlan.Refusal refusal) {}

  private final WorkflowState state;
  private final CatchEventBehavior behavior;
  private final Function<String, MigrationPlan.Refusal> refusal;

  MigrationCatchEvents(
      WorkflowState state,
      CatchEventBehavior behavior,
      Function<String, MigrationPlan.Refusal> refusal) {
    this.state = state;
    this.behavior = behavior;
    this.refusal = refusal;
  }

  /** Everything element instance {@code key} subscribed to closes; nothing opens. */
  Moved closeAll(long key) {
    Set<String> closed = new LinkedHashSet<>();
    for (long timerKey : state.timers().ofElement(key)) {
      TimerValue timer = new TimerValue();
      state.timers().get(timerKey, timer);
      closed.add(timer.targetElementId);
    }
    state.processMessageSubscriptions().ofElement(key).forEach(m -> closed.add(m.value.elementId));
    state.signals().ofElement(key).forEach(signal -> closed.add(signal.elementId));
    return new Moved(List.of(), List.of(), List.of(), closed, List.of(), null);
  }

  /**
   * Plans the subscriptions of element instance {@code key} (of {@code elementId} in {@code
   * source}), which becomes {@code after}, waiting for {@code targets} in the target process.
   */
  Moved plan(
      long key,
      ExecutableProcess source,
      String elementId,
      ProcessInstanceValue after,
      List<ExecutableElement> targets,
      Map<String, String> mappings) {
    Plan plan = new Plan(key, source, elementId, after, targets, mappings);
    MigrationPlan.Refusal refused = plan.run();
    return new Moved(plan.timers, plan.messages, plan.signals, plan.closed, plan.opened, refused);
  }

  /** One element instance's planning. */
  private final class Plan {
    final List<KeptTimer> timers = new ArrayList<>();
    final List<KeptMessage> messages = new ArrayList<>();
    final List<KeptSignal> signals = new ArrayList<>();
    final Set<String> closed = new LinkedHashSet<>();
    final List<CatchEventBehavior.Evaluated> opened = new ArrayList<>();
    private final long key;
    private final ExecutableProcess source;
    private final String elementId;
    private final ProcessInstanceValue after;
    private final Map<String, ExecutableElement> targets = new LinkedHashMap<>();
    private final Map<String, String> mappings;

    /** Target catch event id to the source catch event whose subscription moves there. */
    private final Map<String, String> movedTo = new LinkedHashMap<>();

    Plan(
        long key,
        ExecutableProcess source,
        String elementId,
        ProcessInstanceValue after,
        List<ExecutableElement> targets,
        Map<String, String> mappings) {
      this.key = key;
      this.source = source;
      this.elementId = elementId;
      this.after = after;
      targets.forEach(target -> this.targets.put(target.id(), target));
      this.mappings = mappings;
    }

    MigrationPlan.Refusal run() {
      for (long timerKey : state.timers().ofElement(key)) {
        TimerValue timer = new TimerValue();
        state.timers().get(timerKey, timer);
        String to = mappings.get(timer.targetElementId);
        if (to == null) {
          closed.add(timer.targetElementId);
          continue;
        }
        MigrationPlan.Refusal refused = move(timer.targetElementId, to);
        if (refused != null) {
          return refused;
        }
        timers.add(new KeptTimer(timerKey, timer, to));
      }
      List<Subscription> subscriptions = state.processMessageSubscriptions().ofElement(key);
      for (Subscription subscription : subscriptions) {
        if (subscription.state == ProcessMessageSubscriptionState.CLOSING) {
          continue; // on its way out: the message partition's acknowledgement removes it
        }
        if (subscription.state == ProcessMessageSubscriptionState.MIGRATING) {
          return refusal.apply(
              "active element with id '"
                  + elementId
                  + "' has a message subscription for catch event '"
                  + subscription.value.elementId
                  + "' that the message partition has not yet moved for an earlier migration."
                  + " Please retry the migration.");
        }
        String from = subscription.value.elementId;
        String to = mappings.get(from);
        if (to == null) {
          closed.add(from);
          continue;
        }
        MigrationPlan.Refusal refused = move(from, to);
        if (refused == null) {
          refused = messagePartitionFollows(subscription, targets.get(to));
        }
        if (refused != null) {
          return refused;
        }
        messages.add(new KeptMessage(subscription, targets.get(to)));
      }
      for (SignalSubscriptionValue signal : state.signals().ofElement(key)) {
        String to = mappings.get(signal.elementId);
        if (to == null) {
          closed.add(signal.elementId);
          continue;
        }
        MigrationPlan.Refusal refused = move(signal.elementId, to);
        if (refused != null) {
          return refused;
        }
        signals.add(new KeptSignal(signal, to));
      }
      return openNew(subscriptions);
    }

    /** Checks that the subscription of catch event {@code from} may move to {@code to}. */
    private MigrationPlan.Refusal move(String from, String to) {
      ExecutableElement target = targets.get(to);
      if (target == null) {
        return refusal.apply(
            "active element with id '"
                + elementId
                + "' has a catch event with id '"
                + from
                + "' that is mapped to a catch event with id '"
                + to
                + "'. These mappings detach the catch event from the element. Catch events must"
                + " stay attached to the same element instance.");
      }
      String other = movedTo.putIfAbsent(to, from);
      if (other != null) {
        return refusal.apply(
            "active element with id '"
                + elementId
                + "' has catch events with ids '"
                + other
                + "' and '"
                + from
                + "' that are mapped to the same catch event with id '"
                + to
                + "'. Catch events cannot be merged by process instance migration.");
      }
      EventDefinition before = source.element(from).event();
      if (before.getClass() != target.event().getClass()) {
        return refusal.apply(
            "active element with id '"
                + elementId
                + "' has a catch event with id '"
                + from
                + "' that is mapped to a catch event with id '"
                + to
                + "'. These catch events have different event types: '"
                + typeOf(before)
                + "' and '"
                + typeOf(target.event())
                + "'. The event type of a catch event cannot be changed by process instance"
                + " migration.");
      }
      return null;
    }

    /**
     * The message partition holds its own copy of a subscription: the process id (a message goes to
     * one instance of each process) and whether it ends at the first message. An open subscription
     * asks it to follow ({@link ProcessMessageSubscriptions#migrate}); one still being opened
     * cannot, as its CREATE, on its way, carries the old values.
     */
    private MigrationPlan.Refusal messagePartitionFollows(
        Subscription subscription, ExecutableElement target) {
      if (subscription.state != ProcessMessageSubscriptionState.OPENING
          || !ProcessMessageSubscriptions.changesMessageSide(
              subscription.value,
              after.bpmnProcessId,
              ProcessMessageSubscriptions.interrupting(target))) {
        return null;
      }
      return refusal.apply(
          "active element with id '"
              + elementId
              + "' has a message subscription for catch event '"
              + subscription.value.elementId
              + "' that is still being opened on the message partition, and its move to '"
              + target.id()
              + "' changes the process id or whether the event interrupts. Please retry the"
              + " migration.");
    }

    /** Evaluates the target catch events no subscription moves to; checks message names. */
    private MigrationPlan.Refusal openNew(List<Subscription> subscriptions) {
      for (ExecutableElement target : targets.values()) {
        if (movedTo.containsKey(target.id())) {
          continue;
        }
        List<CatchEventBehavior.Evaluated> evaluated = new ArrayList<>(1);
        String failure = behavior.evaluateAll(List.of(target), key, evaluated);
        if (failure != null) {
          return refusal.apply(
              "active element with id '"
                  + elementId
                  + "' is mapped to element with id '"
                  + after.elementId
                  + "' that must be subscribed to a catch event. "
                  + failure);
        }
        String name = evaluated.get(0).messageName();
        for (Subscription existing : subscriptions) {
          if (name != null
              && existing.value.messageName.equals(name)
              && existing.state == ProcessMessageSubscriptionState.CLOSING) {
            return refusal.apply(
                "active element with id '"
                    + elementId
                    + "' is still closing its subscription to message '"
                    + name
                    + "', which the target's catch event '"
                    + target.id()
                    + "' subscribes to. Please retry the migration.");
          }
          if (name != null && existing.value.messageName.equals(name)) {
            return refusal.apply(
                "active element with id '"
                    + elementId
                    + "' attempts to subscribe to a message it is already subscribed to with name '"
                    + name
                    + "'. Please provide a mapping instruction to message catch event with id '"
                    + target.id()
                    + "' to migrate the respective message subscription.");
          }
        }
        opened.addAll(evaluated);
      }
      return null;
    }
  }

  private static String typeOf(EventDefinition event) {
    return event.getClass().getSimpleName().toLowerCase();
  }
}

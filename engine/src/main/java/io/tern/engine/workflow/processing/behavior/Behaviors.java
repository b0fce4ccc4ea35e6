package io.tern.engine.workflow.processing.behavior;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.workflow.WorkflowConfig;
import io.tern.engine.workflow.processing.behavior.compensation.CompensationBehavior;
import io.tern.engine.workflow.processing.behavior.events.CatchEventBehavior;
import io.tern.engine.workflow.processing.behavior.events.TriggeredEvents;
import io.tern.engine.workflow.processing.behavior.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.behavior.instances.ResultAwaiters;
import io.tern.engine.workflow.processing.behavior.jobs.JobPushBehavior;
import io.tern.engine.workflow.processing.behavior.messages.MessageStartBehavior;
import io.tern.engine.workflow.processing.behavior.messages.ProcessMessageSubscriptions;
import io.tern.engine.workflow.processing.behavior.signals.SignalBehavior;
import io.tern.engine.workflow.processing.behavior.termination.TerminationBehavior;
import io.tern.engine.workflow.processing.behavior.timers.TimerBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.BoundaryBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.CaughtEvents;
import io.tern.engine.workflow.processing.behavior.triggers.EventBasedGatewayBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.EventSubprocessBehavior;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.DueDateChecker;
import io.tern.engine.workflow.processing.common.PartitionSender;
import io.tern.engine.workflow.processing.common.WorkflowMetrics;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.value.JobValue;

/**
 * What the command processors of one partition share: its sender and metrics, and the behaviours
 * that more than one feature uses. Built once, by {@link #create}, in the order of the components
 * here: each gets the ones before it that it needs through its constructor, so none is used before
 * it is complete. The command processors are built after it, and take what they need from it.
 *
 * <p>This is the behaviour layer: its classes, one subpackage per feature, use only each other (in
 * layers: variables and incidents at the bottom, then timers, subscriptions and signals, then an
 * element's catch events, then termination, then what a trigger does) and {@code common}, never a
 * processor, and none of them uses this record ({@code PackageCyclesTest}).
 *
 * @param sender commands to other partitions (and to this one), after commit
 * @param metrics latencies of process instances and jobs
 * @param variables Zeebe's variable scoping: setting and reading variables
 * @param incidents raising incidents
 * @param timers creating and canceling timers
 * @param subscriptions opening and closing message subscriptions, on the process instance's side
 * @param signals signal subscriptions of element instances, and signals thrown by events
 * @param catchEvents an element's timers, message and signal subscriptions, created and canceled
 *     together
 * @param messageStarts processes started by messages, and the correlation keys they hold
 * @param awaiters clients waiting for the result of an instance they created
 * @param triggeredEvents starting the boundary event or event subprocess that a trigger runs
 * @param termination terminating element instances, from the leaves up
 * @param eventSubprocesses triggering event subprocesses in their scope
 * @param boundaries triggering boundary events, and finding the catcher of a thrown error
 * @param eventGateways the first event after an event-based gateway winning
 * @param caughtEvents a timer, message or signal triggering the event of an element that waits for
 *     it: what a trigger does, by element type
 * @param jobDeadlines times activated jobs out
 * @param jobPush pushing jobs that become activatable to job streams
 */
public record Behaviors(
    PartitionSender sender,
    WorkflowMetrics metrics,
    VariableBehavior variables,
    IncidentBehavior incidents,
    TimerBehavior timers,
    ProcessMessageSubscriptions subscriptions,
    SignalBehavior signals,
    CatchEventBehavior catchEvents,
    MessageStartBehavior messageStarts,
    ResultAwaiters awaiters,
    TriggeredEvents triggeredEvents,
    TerminationBehavior termination,
    EventSubprocessBehavior eventSubprocesses,
    BoundaryBehavior boundaries,
    EventBasedGatewayBehavior eventGateways,
    CaughtEvents caughtEvents,
    DueDateChecker jobDeadlines,
    JobPushBehavior jobPush,
    CompensationBehavior compensations) {

  /** The behaviours of the partition of {@code context}, over its {@code state}. */
  public static Behaviors create(
      ProcessingContext context, WorkflowConfig config, WorkflowState state) {
    PartitionSender sender = new PartitionSender(context, config.partitions());
    WorkflowMetrics metrics = new WorkflowMetrics(config.meterRegistry(), context.partitionId());
    VariableBehavior variables =
        new VariableBehavior(context, state.instances(), state.variables());
    IncidentBehavior incidents = new IncidentBehavior(context);
    TimerBehavior timers = new TimerBehavior(context, state, variables);
    ProcessMessageSubscriptions subscriptions =
        new ProcessMessageSubscriptions(context, state, sender);
    SignalBehavior signals = new SignalBehavior(context, state);
    CatchEventBehavior catchEvents =
        new CatchEventBehavior(timers, subscriptions, signals, incidents, variables);
    MessageStartBehavior messageStarts = new MessageStartBehavior(context, state, variables);
    ResultAwaiters awaiters =
        new ResultAwaiters(variables, context, config.resultAwaitLimit().toMillis());
    TriggeredEvents triggeredEvents = new TriggeredEvents(context, state, variables);
    CompensationBehavior compensations = new CompensationBehavior(context, state);
    TerminationBehavior termination =
        new TerminationBehavior(
            state, catchEvents, awaiters, messageStarts, triggeredEvents, metrics, compensations);
    EventSubprocessBehavior eventSubprocesses =
        new EventSubprocessBehavior(
            context, state, termination, timers, subscriptions, signals, triggeredEvents);
    BoundaryBehavior boundaries =
        new BoundaryBehavior(context, state, termination, eventSubprocesses, triggeredEvents);
    EventBasedGatewayBehavior eventGateways = new EventBasedGatewayBehavior(context, state);
    CaughtEvents caughtEvents =
        new CaughtEvents(variables, boundaries, eventSubprocesses, eventGateways);
    DueDateChecker jobDeadlines =
        new DueDateChecker(
            context, state.jobs()::forEachDeadline, JobIntent.TIME_OUT, new JobValue());
    JobPushBehavior jobPush =
        new JobPushBehavior(context, config.jobStreams(), variables, sender, metrics, jobDeadlines);
    return new Behaviors(
        sender,
        metrics,
        variables,
        incidents,
        timers,
        subscriptions,
        signals,
        catchEvents,
        messageStarts,
        awaiters,
        triggeredEvents,
        termination,
        eventSubprocesses,
        boundaries,
        eventGateways,
        caughtEvents,
        jobDeadlines,
        jobPush,
        compensations);
  }
}

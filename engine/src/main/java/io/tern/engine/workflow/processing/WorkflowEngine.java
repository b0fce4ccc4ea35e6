package io.tern.engine.workflow.processing;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingScheduler;
import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.processor.RecordProcessorsFactory;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.CreationIntent;
import io.tern.engine.workflow.ValueTypes.DeploymentDistributionIntent;
import io.tern.engine.workflow.ValueTypes.DeploymentIntent;
import io.tern.engine.workflow.ValueTypes.IncidentIntent;
import io.tern.engine.workflow.ValueTypes.JobBatchIntent;
import io.tern.engine.workflow.ValueTypes.JobIntent;
import io.tern.engine.workflow.ValueTypes.MessageIntent;
import io.tern.engine.workflow.ValueTypes.MessageSubscriptionIntent;
import io.tern.engine.workflow.ValueTypes.ProcessInstanceIntent;
import io.tern.engine.workflow.ValueTypes.ProcessMessageSubscriptionIntent;
import io.tern.engine.workflow.ValueTypes.TimerIntent;
import io.tern.engine.workflow.ValueTypes.VariableDocumentIntent;
import io.tern.engine.workflow.WorkflowConfig;

/**
 * The BPMN workflow engine as command processors over a partition's state: deployments, process
 * instances, jobs, timers and messages. Every state change is an event, applied by {@link
 * EventAppliers}.
 */
public final class WorkflowEngine {
  private WorkflowEngine() {}

  /** One partition, default settings. */
  public static RecordProcessors create(ProcessingContext context) {
    return create(context, WorkflowConfig.defaults());
  }

  /** The engine of one partition of a cluster described by {@code config}. */
  public static RecordProcessorsFactory factory(WorkflowConfig config) {
    return context -> create(context, config);
  }

  private static RecordProcessors create(ProcessingContext context, WorkflowConfig config) {
    WorkflowState state = WorkflowState.open(context.state());
    PartitionSender sender = new PartitionSender(context, config.partitions());
    VariableBehavior variables =
        new VariableBehavior(context, state.instances(), state.variables());
    IncidentBehavior incidents = new IncidentBehavior(context);
    TimerBehavior timers = new TimerBehavior(context, state, variables);
    ProcessMessageSubscriptions subscriptions =
        new ProcessMessageSubscriptions(context, state, variables, sender);
    MessageStartBehavior messageStarts = new MessageStartBehavior(context, state, variables);
    WorkflowMetrics metrics = new WorkflowMetrics(config.meterRegistry(), context.partitionId());
    JobPushBehavior jobPush =
        new JobPushBehavior(context, config.jobStreams(), variables, sender, metrics);
    MessageProcessors messages = new MessageProcessors(context, state, sender, messageStarts);
    CatchEventBehavior catchEvents =
        new CatchEventBehavior(timers, subscriptions, incidents, variables);
    ResultAwaiters awaiters =
        new ResultAwaiters(variables, context, config.resultAwaitLimit().toMillis());
    TerminationProcessor termination =
        new TerminationProcessor(state, catchEvents, awaiters, messageStarts);
    BoundaryBehavior boundaries = new BoundaryBehavior(context, state, variables, termination);
    termination.setBoundaries(boundaries);
    termination.setMetrics(metrics);
    EventSubprocessBehavior eventSubprocesses =
        new EventSubprocessBehavior(context, state, variables, termination, timers, subscriptions);
    termination.setEventSubprocesses(eventSubprocesses);
    boundaries.setEventSubprocesses(eventSubprocesses);
    timers.setEventSubprocesses(eventSubprocesses);
    subscriptions.setEventSubprocesses(eventSubprocesses);
    timers.setBoundaries(boundaries);
    subscriptions.setBoundaries(boundaries);
    DeploymentDistribution distribution = new DeploymentDistribution(context, state, sender);
    long retryMs = config.subscriptionRetryInterval().toMillis();
    ElementProcessor elements =
        new ElementProcessor(
            context,
            state.processes(),
            state.instances(),
            state.takenFlows(),
            variables,
            incidents,
            catchEvents,
            awaiters,
            new CallActivityBehavior(context, state, variables, incidents),
            new MultiInstanceBehavior(context, state, variables, incidents),
            messageStarts,
            jobPush,
            metrics);
    elements.setBoundaries(boundaries);
    elements.setEventSubprocesses(eventSubprocesses);
    JobProcessors jobs =
        new JobProcessors(
            context,
            state.processes(),
            state.jobs(),
            state.instances(),
            variables,
            state.incidents(),
            incidents,
            jobPush,
            metrics);
    jobs.setBoundaries(boundaries);

    RecordProcessors processors =
        new RecordProcessors()
            .onProcessingStarted(
                scheduler -> {
                  jobs.deadlines.onProcessingStarted();
                  jobs.backoffs.onProcessingStarted();
                  timers.dueTimers.onProcessingStarted();
                  messages.expiry.onProcessingStarted();
                  awaiters.clear();
                  metrics.clear();
                  scheduleRetries(scheduler, retryMs, subscriptions, messages, distribution);
                })
            .onCommand(
                ValueTypes.DEPLOYMENT,
                DeploymentIntent.CREATE,
                new DeploymentProcessor(
                    context, state.processes(), distribution, config.partitions().count()))
            .onCommand(ValueTypes.DEPLOYMENT, DeploymentIntent.DISTRIBUTE, distribution::take)
            .onCommand(
                ValueTypes.DEPLOYMENT_DISTRIBUTION,
                DeploymentDistributionIntent.COMPLETE,
                distribution::completed)
            .onCommand(
                ValueTypes.PROCESS_INSTANCE_CREATION,
                CreationIntent.CREATE,
                new CreationProcessor(context, state.processes(), variables, awaiters))
            .onCommand(
                ValueTypes.PROCESS_INSTANCE_CREATION,
                CreationIntent.CREATE_WITH_AWAITING_RESULT,
                new CreationProcessor(context, state.processes(), variables, awaiters))
            .onCommand(
                ValueTypes.PROCESS_INSTANCE,
                ProcessInstanceIntent.ACTIVATE_ELEMENT,
                elements::activate)
            .onCommand(
                ValueTypes.PROCESS_INSTANCE,
                ProcessInstanceIntent.COMPLETE_ELEMENT,
                elements::complete)
            .onCommand(
                ValueTypes.PROCESS_INSTANCE, ProcessInstanceIntent.CANCEL, termination::cancel)
            .onCommand(
                ValueTypes.PROCESS_INSTANCE,
                ProcessInstanceIntent.TERMINATE_ELEMENT,
                termination::terminateElement)
            .onCommand(ValueTypes.JOB, JobIntent.COMPLETE, jobs::complete)
            .onCommand(ValueTypes.JOB, JobIntent.FAIL, jobs::fail)
            .onCommand(ValueTypes.JOB, JobIntent.THROW_ERROR, jobs::throwError)
            .onCommand(ValueTypes.JOB, JobIntent.UPDATE_RETRIES, jobs::updateRetries)
            .onCommand(ValueTypes.JOB, JobIntent.UPDATE_TIMEOUT, jobs::updateTimeout)
            .onCommand(ValueTypes.JOB, JobIntent.TIME_OUT, jobs::timeOut)
            .onCommand(ValueTypes.JOB, JobIntent.RECUR_AFTER_BACKOFF, jobs::recur)
            .onCommand(ValueTypes.JOB, JobIntent.YIELD, jobs::yieldJob)
            .onCommand(ValueTypes.JOB_BATCH, JobBatchIntent.ACTIVATE, jobs::activate)
            .onCommand(ValueTypes.INCIDENT, IncidentIntent.RESOLVE, jobs::resolveIncident)
            .onCommand(ValueTypes.TIMER, TimerIntent.TRIGGER, timers::trigger)
            .onCommand(
                ValueTypes.VARIABLE_DOCUMENT,
                VariableDocumentIntent.UPDATE,
                new VariableDocumentProcessor(context, state.instances(), variables))
            .onCommand(ValueTypes.MESSAGE, MessageIntent.PUBLISH, messages::publish)
            .onCommand(ValueTypes.MESSAGE, MessageIntent.EXPIRE, messages::expire)
            .onCommand(
                ValueTypes.MESSAGE_SUBSCRIPTION, MessageSubscriptionIntent.CREATE, messages::create)
            .onCommand(
                ValueTypes.MESSAGE_SUBSCRIPTION,
                MessageSubscriptionIntent.CORRELATE,
                messages::correlated)
            .onCommand(
                ValueTypes.MESSAGE_SUBSCRIPTION,
                MessageSubscriptionIntent.REJECT,
                messages::rejected)
            .onCommand(
                ValueTypes.MESSAGE_SUBSCRIPTION, MessageSubscriptionIntent.DELETE, messages::delete)
            .onCommand(
                ValueTypes.PROCESS_MESSAGE_SUBSCRIPTION,
                ProcessMessageSubscriptionIntent.CREATE,
                subscriptions::created)
            .onCommand(
                ValueTypes.PROCESS_MESSAGE_SUBSCRIPTION,
                ProcessMessageSubscriptionIntent.CORRELATE,
                subscriptions::correlate)
            .onCommand(
                ValueTypes.PROCESS_MESSAGE_SUBSCRIPTION,
                ProcessMessageSubscriptionIntent.DELETE,
                subscriptions::deleted);
    EventAppliers.register(processors, state, config.partitions().count());
    return processors;
  }

  /**
   * While leading, asks the other partitions again, every {@code intervalMs}, for each subscription
   * step they have not acknowledged (a command may be lost in a leader change).
   */
  private static void scheduleRetries(
      ProcessingScheduler scheduler,
      long intervalMs,
      ProcessMessageSubscriptions subscriptions,
      MessageProcessors messages,
      DeploymentDistribution distribution) {
    scheduler.runDelayed(
        intervalMs,
        commands -> {
          subscriptions.retryPending();
          messages.retryPending();
          distribution.retryPending();
          scheduleRetries(scheduler, intervalMs, subscriptions, messages, distribution);
        });
  }
}

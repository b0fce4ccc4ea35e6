package io.tern.engine.workflow.processing;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingScheduler;
import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.processor.RecordProcessorsFactory;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.CreationIntent;
import io.tern.engine.workflow.ValueTypes.DecisionEvaluationIntent;
import io.tern.engine.workflow.ValueTypes.DeploymentDistributionIntent;
import io.tern.engine.workflow.ValueTypes.DeploymentIntent;
import io.tern.engine.workflow.ValueTypes.IncidentIntent;
import io.tern.engine.workflow.ValueTypes.JobBatchIntent;
import io.tern.engine.workflow.ValueTypes.JobIntent;
import io.tern.engine.workflow.ValueTypes.MessageIntent;
import io.tern.engine.workflow.ValueTypes.MessageSubscriptionIntent;
import io.tern.engine.workflow.ValueTypes.MigrationIntent;
import io.tern.engine.workflow.ValueTypes.ModificationIntent;
import io.tern.engine.workflow.ValueTypes.ProcessInstanceIntent;
import io.tern.engine.workflow.ValueTypes.ProcessMessageSubscriptionIntent;
import io.tern.engine.workflow.ValueTypes.ResourceDeletionIntent;
import io.tern.engine.workflow.ValueTypes.SignalIntent;
import io.tern.engine.workflow.ValueTypes.TimerIntent;
import io.tern.engine.workflow.ValueTypes.VariableDocumentIntent;
import io.tern.engine.workflow.WorkflowConfig;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.messages.ProcessMessageSubscriptions;
import io.tern.engine.workflow.processing.behavior.timers.TimerStartBehavior;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.processing.decisions.DecisionEvaluationProcessor;
import io.tern.engine.workflow.processing.deployment.DeploymentDistribution;
import io.tern.engine.workflow.processing.deployment.DeploymentProcessor;
import io.tern.engine.workflow.processing.deployment.ResourceDeletionProcessor;
import io.tern.engine.workflow.processing.elements.ElementProcessor;
import io.tern.engine.workflow.processing.incidents.IncidentProcessor;
import io.tern.engine.workflow.processing.instances.CancelProcessor;
import io.tern.engine.workflow.processing.instances.CreationProcessor;
import io.tern.engine.workflow.processing.jobs.JobIncidents;
import io.tern.engine.workflow.processing.jobs.JobProcessors;
import io.tern.engine.workflow.processing.messages.MessageProcessors;
import io.tern.engine.workflow.processing.messages.ProcessMessageSubscriptionProcessors;
import io.tern.engine.workflow.processing.migration.MigrationProcessor;
import io.tern.engine.workflow.processing.modification.ModificationProcessor;
import io.tern.engine.workflow.processing.signals.SignalBroadcastProcessor;
import io.tern.engine.workflow.processing.timers.TimerProcessor;
import io.tern.engine.workflow.processing.variables.VariableDocumentProcessor;

/**
 * The BPMN workflow engine as command processors over a partition's state: deployments, process
 * instances, jobs, timers and messages. Every state change is an event, applied by {@link
 * EventAppliers}.
 *
 * <p>This class is the table of contents: which processor takes which command. The processors live
 * in one subpackage per feature ({@code deployment}, {@code instances}, {@code migration}, {@code
 * modification}, {@code elements}, {@code jobs}, {@code timers}, {@code messages}, {@code signals},
 * {@code variables}, {@code incidents}, {@code compensation}, {@code decisions}); what several of
 * them share is built once, before them, as {@link Behaviors}, the behaviour layer ({@code
 * behavior}), which uses no processor and only the partition's state, sender and metrics below it
 * ({@code common}). Nothing in the subpackages uses this package: it is the top.
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
    Behaviors behaviors = Behaviors.create(context, config, state);
    CancelProcessor cancellation = new CancelProcessor(state.instances(), behaviors.termination());
    DeploymentDistribution distribution = new DeploymentDistribution(context, state, behaviors);
    CreationProcessor creation = new CreationProcessor(context, state, behaviors);
    ElementProcessor elements = new ElementProcessor(context, state, behaviors);
    JobProcessors jobs = new JobProcessors(context, state, behaviors);
    TimerStartBehavior timerStarts = new TimerStartBehavior(context, state, behaviors.timers());
    TimerProcessor timers = new TimerProcessor(context, state, behaviors, timerStarts);
    MessageProcessors messages = new MessageProcessors(context, state, behaviors);
    ProcessMessageSubscriptionProcessors subscriptions =
        new ProcessMessageSubscriptionProcessors(context, state, behaviors);
    SignalBroadcastProcessor signals = new SignalBroadcastProcessor(context, state, behaviors);
    ResourceDeletionProcessor deletions =
        new ResourceDeletionProcessor(context, state, behaviors, timerStarts);
    long retryMs = config.subscriptionRetryInterval().toMillis();

    RecordProcessors processors =
        new RecordProcessors()
            .onProcessingStarted(
                scheduler -> {
                  jobs.onProcessingStarted();
                  behaviors.timers().onProcessingStarted();
                  messages.onProcessingStarted();
                  behaviors.awaiters().clear();
                  behaviors.metrics().clear();
                  scheduleRetries(
                      scheduler,
                      retryMs,
                      behaviors.subscriptions(),
                      messages,
                      distribution,
                      signals,
                      deletions);
                })
            .onCommand(
                ValueTypes.DEPLOYMENT,
                DeploymentIntent.CREATE,
                new DeploymentProcessor(
                    context,
                    state.processes(),
                    state.decisions(),
                    distribution,
                    config.partitions().count(),
                    timerStarts,
                    config.modelLimits()))
            .onCommand(ValueTypes.DEPLOYMENT, DeploymentIntent.DISTRIBUTE, distribution::take)
            .onCommand(
                ValueTypes.DEPLOYMENT_DISTRIBUTION,
                DeploymentDistributionIntent.COMPLETE,
                distribution::completed)
            .onCommand(
                ValueTypes.DECISION_EVALUATION,
                DecisionEvaluationIntent.EVALUATE,
                new DecisionEvaluationProcessor(context, state.decisions()))
            .onCommand(ValueTypes.PROCESS_INSTANCE_CREATION, CreationIntent.CREATE, creation)
            .onCommand(
                ValueTypes.PROCESS_INSTANCE_CREATION,
                CreationIntent.CREATE_WITH_AWAITING_RESULT,
                creation)
            .onCommand(
                ValueTypes.PROCESS_INSTANCE,
                ProcessInstanceIntent.ACTIVATE_ELEMENT,
                elements::activate)
            .onCommand(
                ValueTypes.PROCESS_INSTANCE,
                ProcessInstanceIntent.COMPLETE_ELEMENT,
                elements::complete)
            .onCommand(
                ValueTypes.PROCESS_INSTANCE, ProcessInstanceIntent.CANCEL, cancellation::cancel)
            .onCommand(
                ValueTypes.PROCESS_INSTANCE_MODIFICATION,
                ModificationIntent.MODIFY,
                new ModificationProcessor(context, state, behaviors))
            .onCommand(
                ValueTypes.PROCESS_INSTANCE_MIGRATION,
                MigrationIntent.MIGRATE,
                new MigrationProcessor(context, state, behaviors))
            .onCommand(
                ValueTypes.PROCESS_INSTANCE,
                ProcessInstanceIntent.TERMINATE_ELEMENT,
                cancellation::terminateElement)
            .onCommand(
                ValueTypes.RESOURCE_DELETION, ResourceDeletionIntent.DELETE, deletions::delete)
            .onCommand(
                ValueTypes.RESOURCE_DELETION,
                ResourceDeletionIntent.ACKNOWLEDGE,
                deletions::acknowledge)
            .onCommand(ValueTypes.SIGNAL, SignalIntent.BROADCAST, signals::broadcast)
            .onCommand(ValueTypes.SIGNAL, SignalIntent.ACKNOWLEDGE, signals::acknowledge)
            .onCommand(ValueTypes.JOB, JobIntent.COMPLETE, jobs::complete)
            .onCommand(ValueTypes.JOB, JobIntent.FAIL, jobs::fail)
            .onCommand(ValueTypes.JOB, JobIntent.THROW_ERROR, jobs::throwError)
            .onCommand(ValueTypes.JOB, JobIntent.UPDATE_RETRIES, jobs::updateRetries)
            .onCommand(ValueTypes.JOB, JobIntent.UPDATE_TIMEOUT, jobs::updateTimeout)
            .onCommand(ValueTypes.JOB, JobIntent.TIME_OUT, jobs::timeOut)
            .onCommand(ValueTypes.JOB, JobIntent.RECUR_AFTER_BACKOFF, jobs::recur)
            .onCommand(ValueTypes.JOB, JobIntent.YIELD, jobs::yieldJob)
            .onCommand(ValueTypes.JOB_BATCH, JobBatchIntent.ACTIVATE, jobs::activate)
            .onCommand(
                ValueTypes.INCIDENT,
                IncidentIntent.RESOLVE,
                new IncidentProcessor(state, new JobIncidents(state.jobs(), behaviors.jobPush())))
            .onCommand(ValueTypes.TIMER, TimerIntent.TRIGGER, timers)
            .onCommand(
                ValueTypes.VARIABLE_DOCUMENT,
                VariableDocumentIntent.UPDATE,
                new VariableDocumentProcessor(context, state, behaviors))
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
                ValueTypes.MESSAGE_SUBSCRIPTION,
                MessageSubscriptionIntent.MIGRATE,
                messages::migrate)
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
                subscriptions::deleted)
            .onCommand(
                ValueTypes.PROCESS_MESSAGE_SUBSCRIPTION,
                ProcessMessageSubscriptionIntent.MIGRATE,
                subscriptions::migrated);
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
      DeploymentDistribution distribution,
      SignalBroadcastProcessor signals,
      ResourceDeletionProcessor deletions) {
    scheduler.runDelayed(
        intervalMs,
        commands -> {
          subscriptions.retryPending();
          messages.retryPending();
          distribution.retryPending();
          signals.retryPending();
          deletions.retryPending();
          scheduleRetries(
              scheduler, intervalMs, subscriptions, messages, distribution, signals, deletions);
        });
  }
}

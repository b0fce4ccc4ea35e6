package io.tern.engine.workflow.processing;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingScheduler;
import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.processor.RecordProcessorsFactory;
import io.tern.engine.protocol.CreationIntent;
import io.tern.engine.protocol.DecisionEvaluationIntent;
import io.tern.engine.protocol.DeploymentDistributionIntent;
import io.tern.engine.protocol.DeploymentIntent;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.MessageCorrelationIntent;
import io.tern.engine.protocol.MessageIntent;
import io.tern.engine.protocol.MessageSubscriptionIntent;
import io.tern.engine.protocol.MigrationIntent;
import io.tern.engine.protocol.ModificationIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.protocol.ProcessMessageSubscriptionIntent;
import io.tern.engine.protocol.ResourceDeletionIntent;
import io.tern.engine.protocol.SignalIntent;
import io.tern.engine.protocol.TimerIntent;
import io.tern.engine.protocol.UserTaskIntent;
import io.tern.engine.protocol.VariableDocumentIntent;
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
import io.tern.engine.workflow.processing.usertasks.UserTaskProcessors;
import io.tern.engine.workflow.processing.variables.VariableDocumentProcessor;

/**
 * The BPMN workflow engine as command processors over a partition's state: deployments, process
 * instances, jobs, timers and messages. Every state change is an event, applied by {@link
 * EventAppliers}.
 *
 * <p>This class is the table of contents: which processor takes which command. The processors live
 * in one subpackage per feature ({@code deployment}, {@code instances}, {@code migration}, {@code
 * modification}, {@code elements}, {@code jobs}, {@code usertasks}, {@code timers}, {@code
 * messages}, {@code signals}, {@code variables}, {@code incidents}, {@code compensation}, {@code
 * decisions}); what several of them share is built once, before them, as {@link Behaviors}, the
 * behaviour layer ({@code behavior}), which uses no processor and only the partition's state,
 * sender and metrics below it ({@code common}). Nothing in the subpackages uses this package: it is
 * the top.
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
    MessageProcessors messages =
        new MessageProcessors(context, state, behaviors, config.resultAwaitLimit().toMillis());
    ProcessMessageSubscriptionProcessors subscriptions =
        new ProcessMessageSubscriptionProcessors(context, state, behaviors);
    SignalBroadcastProcessor signals = new SignalBroadcastProcessor(context, state, behaviors);
    UserTaskProcessors userTasks = new UserTaskProcessors(state, behaviors);
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
                DeploymentIntent.CREATE,
                new DeploymentProcessor(
                    context,
                    state.processes(),
                    state.decisions(),
                    distribution,
                    config.partitions().count(),
                    timerStarts,
                    config.modelLimits()))
            .onCommand(DeploymentIntent.DISTRIBUTE, distribution::take)
            .onCommand(DeploymentDistributionIntent.COMPLETE, distribution::completed)
            .onCommand(
                DecisionEvaluationIntent.EVALUATE,
                new DecisionEvaluationProcessor(context, state.decisions()))
            .onCommand(CreationIntent.CREATE, creation)
            .onCommand(CreationIntent.CREATE_WITH_AWAITING_RESULT, creation)
            .onCommand(ProcessInstanceIntent.ACTIVATE_ELEMENT, elements::activate)
            .onCommand(ProcessInstanceIntent.COMPLETE_ELEMENT, elements::complete)
            .onCommand(ProcessInstanceIntent.CANCEL, cancellation::cancel)
            .onCommand(
                ModificationIntent.MODIFY, new ModificationProcessor(context, state, behaviors))
            .onCommand(MigrationIntent.MIGRATE, new MigrationProcessor(context, state, behaviors))
            .onCommand(ProcessInstanceIntent.TERMINATE_ELEMENT, cancellation::terminateElement)
            .onCommand(ResourceDeletionIntent.DELETE, deletions::delete)
            .onCommand(ResourceDeletionIntent.ACKNOWLEDGE, deletions::acknowledge)
            .onCommand(SignalIntent.BROADCAST, signals::broadcast)
            .onCommand(SignalIntent.ACKNOWLEDGE, signals::acknowledge)
            .onCommand(JobIntent.COMPLETE, jobs::complete)
            .onCommand(JobIntent.FAIL, jobs::fail)
            .onCommand(JobIntent.THROW_ERROR, jobs::throwError)
            .onCommand(JobIntent.UPDATE_RETRIES, jobs::updateRetries)
            .onCommand(JobIntent.UPDATE_TIMEOUT, jobs::updateTimeout)
            .onCommand(JobIntent.TIME_OUT, jobs::timeOut)
            .onCommand(JobIntent.RECUR_AFTER_BACKOFF, jobs::recur)
            .onCommand(JobIntent.YIELD, jobs::yieldJob)
            .onCommand(JobBatchIntent.ACTIVATE, jobs::activate)
            .onCommand(UserTaskIntent.ASSIGN, userTasks::assign)
            .onCommand(UserTaskIntent.CLAIM, userTasks::claim)
            .onCommand(UserTaskIntent.UPDATE, userTasks::update)
            .onCommand(UserTaskIntent.COMPLETE, userTasks::complete)
            .onCommand(
                IncidentIntent.RESOLVE,
                new IncidentProcessor(state, new JobIncidents(state.jobs(), behaviors.jobPush())))
            .onCommand(TimerIntent.TRIGGER, timers)
            .onCommand(
                VariableDocumentIntent.UPDATE,
                new VariableDocumentProcessor(context, state, behaviors))
            .onCommand(MessageIntent.PUBLISH, messages::publish)
            .onCommand(MessageIntent.EXPIRE, messages::expire)
            .onCommand(MessageCorrelationIntent.CORRELATE, messages::correlate)
            .onCommand(MessageSubscriptionIntent.CREATE, messages::create)
            .onCommand(MessageSubscriptionIntent.CORRELATE, messages::correlated)
            .onCommand(MessageSubscriptionIntent.REJECT, messages::rejected)
            .onCommand(MessageSubscriptionIntent.DELETE, messages::delete)
            .onCommand(MessageSubscriptionIntent.MIGRATE, messages::migrate)
            .onCommand(ProcessMessageSubscriptionIntent.CREATE, subscriptions::created)
            .onCommand(ProcessMessageSubscriptionIntent.CORRELATE, subscriptions::correlate)
            .onCommand(ProcessMessageSubscriptionIntent.DELETE, subscriptions::deleted)
            .onCommand(ProcessMessageSubscriptionIntent.MIGRATE, subscriptions::migrated);
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

package io.tern.engine.workflow.processing;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.CreationIntent;
import io.tern.engine.workflow.ValueTypes.DeploymentIntent;
import io.tern.engine.workflow.ValueTypes.IncidentIntent;
import io.tern.engine.workflow.ValueTypes.JobBatchIntent;
import io.tern.engine.workflow.ValueTypes.JobIntent;
import io.tern.engine.workflow.ValueTypes.ProcessInstanceIntent;
import io.tern.engine.workflow.ValueTypes.TimerIntent;
import io.tern.engine.workflow.ValueTypes.VariableDocumentIntent;

/**
 * The BPMN workflow engine as command processors over a partition's state: deployments, process
 * instances, jobs and timers. Every state change is an event, applied by {@link EventAppliers}.
 */
public final class WorkflowEngine {
  private WorkflowEngine() {}

  public static RecordProcessors create(ProcessingContext context) {
    WorkflowState state = WorkflowState.open(context.state());
    VariableBehavior variables =
        new VariableBehavior(context, state.instances(), state.variables());
    IncidentBehavior incidents = new IncidentBehavior(context);
    TimerBehavior timers = new TimerBehavior(context, state, variables, incidents);
    TerminationProcessor termination = new TerminationProcessor(state, timers);
    BoundaryBehavior boundaries = new BoundaryBehavior(context, state, variables, termination);
    termination.setBoundaries(boundaries);
    timers.setBoundaries(boundaries);
    ElementProcessor elements =
        new ElementProcessor(
            context,
            state.processes(),
            state.instances(),
            state.takenFlows(),
            variables,
            incidents,
            timers);
    elements.setBoundaries(boundaries);
    JobProcessors jobs =
        new JobProcessors(
            context, state.jobs(), state.instances(), variables, state.incidents(), incidents);
    jobs.setBoundaries(boundaries);

    RecordProcessors processors =
        new RecordProcessors()
            .onProcessingStarted(
                scheduler -> {
                  jobs.deadlines.onProcessingStarted();
                  jobs.backoffs.onProcessingStarted();
                  timers.dueTimers.onProcessingStarted();
                })
            .onCommand(
                ValueTypes.DEPLOYMENT,
                DeploymentIntent.CREATE,
                new DeploymentProcessor(context, state.processes()))
            .onCommand(
                ValueTypes.PROCESS_INSTANCE_CREATION,
                CreationIntent.CREATE,
                new CreationProcessor(context, state.processes(), variables))
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
            .onCommand(ValueTypes.JOB, JobIntent.TIME_OUT, jobs::timeOut)
            .onCommand(ValueTypes.JOB, JobIntent.RECUR_AFTER_BACKOFF, jobs::recur)
            .onCommand(ValueTypes.JOB_BATCH, JobBatchIntent.ACTIVATE, jobs::activate)
            .onCommand(ValueTypes.INCIDENT, IncidentIntent.RESOLVE, jobs::resolveIncident)
            .onCommand(ValueTypes.TIMER, TimerIntent.TRIGGER, timers::trigger)
            .onCommand(
                ValueTypes.VARIABLE_DOCUMENT,
                VariableDocumentIntent.UPDATE,
                new VariableDocumentProcessor(context, state.instances(), variables));
    EventAppliers.register(processors, state);
    return processors;
  }
}

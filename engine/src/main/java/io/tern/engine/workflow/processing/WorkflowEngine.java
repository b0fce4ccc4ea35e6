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
import io.tern.engine.workflow.ValueTypes.VariableIntent;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.state.IncidentState;
import io.tern.engine.workflow.state.JobState;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.state.TakenFlowState;
import io.tern.engine.workflow.state.VariableState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.VariableValue;

/**
 * The BPMN workflow engine as processors and appliers over a partition's state: deployments,
 * process instances and jobs. Every state change is in an applier below, one per event intent.
 */
public final class WorkflowEngine {
  private WorkflowEngine() {}

  public static RecordProcessors create(ProcessingContext context) {
    ProcessState processes = new ProcessState(context.state());
    ElementInstanceState instances = new ElementInstanceState(context.state());
    JobState jobs = new JobState(context.state());
    VariableState variables = new VariableState(context.state());
    VariableBehavior variableBehavior = new VariableBehavior(context, instances, variables);
    IncidentState incidents = new IncidentState(context.state());
    TakenFlowState takenFlows = new TakenFlowState(context.state());
    ElementProcessor elements =
        new ElementProcessor(context, processes, instances, takenFlows, variableBehavior);
    ProcessInstanceValue flowValue = new ProcessInstanceValue();
    TerminationProcessor termination = new TerminationProcessor(instances, jobs, incidents);
    JobProcessors jobProcessors =
        new JobProcessors(context, jobs, instances, variableBehavior, incidents);
    JobState.Job previous = new JobState.Job();
    IncidentValue incident = new IncidentValue();
    VariableValue variable = new VariableValue();

    DeploymentValue deployment = new DeploymentValue();
    ElementInstance instance = new ElementInstance();
    ElementInstance scope = new ElementInstance();
    JobState.Job job = new JobState.Job();
    JobBatchValue batch = new JobBatchValue();

    return new RecordProcessors()
        .onProcessingStarted(
            scheduler -> {
              jobProcessors.deadlines.onProcessingStarted();
              jobProcessors.backoffs.onProcessingStarted();
            })
        .onCommand(
            ValueTypes.DEPLOYMENT,
            DeploymentIntent.CREATE,
            new DeploymentProcessor(context, processes))
        .onEvent(
            ValueTypes.DEPLOYMENT,
            DeploymentIntent.CREATED,
            event -> {
              deployment.readFrom(event.value());
              for (DeploymentValue.Process process : deployment.processes) {
                if (!process.duplicate()) {
                  DeploymentValue.Resource resource =
                      deployment.resources.stream()
                          .filter(r -> r.name().equals(process.resourceName()))
                          .findFirst()
                          .orElseThrow();
                  processes.put(process, resource);
                }
              }
            })
        .onCommand(
            ValueTypes.PROCESS_INSTANCE_CREATION,
            CreationIntent.CREATE,
            new CreationProcessor(context, processes, variableBehavior))
        .onEvent(ValueTypes.PROCESS_INSTANCE_CREATION, CreationIntent.CREATED, event -> {})
        .onCommand(
            ValueTypes.PROCESS_INSTANCE, ProcessInstanceIntent.ACTIVATE_ELEMENT, elements::activate)
        .onCommand(
            ValueTypes.PROCESS_INSTANCE, ProcessInstanceIntent.COMPLETE_ELEMENT, elements::complete)
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.ELEMENT_ACTIVATING,
            event -> {
              instance.value.readFrom(event.value());
              instance.state = ProcessInstanceIntent.ELEMENT_ACTIVATING;
              instance.activeChildren = 0;
              instances.put(event.key(), instance);
              long flowScopeKey = instance.value.flowScopeKey;
              if (flowScopeKey >= 0 && instances.get(flowScopeKey, scope)) {
                // The scope counts active children and tokens on sequence flows; an element
                // reached by flows turns their tokens into itself.
                scope.activeChildren += 1 - consumedTokens(processes, takenFlows, instance.value);
                instances.put(flowScopeKey, scope);
                instances.addChild(flowScopeKey, event.key());
              }
            })
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.ELEMENT_ACTIVATED,
            event ->
                setState(instances, instance, event.key(), ProcessInstanceIntent.ELEMENT_ACTIVATED))
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.ELEMENT_COMPLETING,
            event ->
                setState(
                    instances, instance, event.key(), ProcessInstanceIntent.ELEMENT_COMPLETING))
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.ELEMENT_COMPLETED,
            event -> removeInstance(instances, variables, takenFlows, instance, scope, event.key()))
        .onCommand(ValueTypes.PROCESS_INSTANCE, ProcessInstanceIntent.CANCEL, termination::cancel)
        .onCommand(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.TERMINATE_ELEMENT,
            termination::terminateElement)
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.ELEMENT_TERMINATING,
            event ->
                setState(
                    instances, instance, event.key(), ProcessInstanceIntent.ELEMENT_TERMINATING))
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.ELEMENT_TERMINATED,
            event -> removeInstance(instances, variables, takenFlows, instance, scope, event.key()))
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.SEQUENCE_FLOW_TAKEN,
            event -> {
              flowValue.readFrom(event.value());
              long flowScopeKey = flowValue.flowScopeKey;
              if (instances.get(flowScopeKey, scope)) {
                scope.activeChildren++;
                instances.put(flowScopeKey, scope);
              }
              ExecutableElement target =
                  processes
                      .byKey(flowValue.processDefinitionKey)
                      .process()
                      .target(flowValue.elementId);
              if (target.type() == BpmnElementType.PARALLEL_GATEWAY) {
                takenFlows.add(flowScopeKey, target.id(), flowValue.elementId, 1);
              }
            })
        .onEvent(
            ValueTypes.JOB,
            JobIntent.CREATED,
            event -> {
              job.value.readFrom(event.value());
              jobs.create(event.key(), job);
              if (instances.get(job.value.elementInstanceKey, instance)) {
                instance.jobKey = event.key();
                instances.put(job.value.elementInstanceKey, instance);
              }
            })
        .onEvent(
            ValueTypes.JOB,
            JobIntent.CANCELED,
            event -> {
              if (jobs.get(event.key(), job)) {
                jobs.remove(event.key(), job);
              }
            })
        .onCommand(ValueTypes.JOB, JobIntent.COMPLETE, jobProcessors::complete)
        .onEvent(
            ValueTypes.JOB,
            JobIntent.COMPLETED,
            event -> {
              if (jobs.get(event.key(), job)) {
                jobs.remove(event.key(), job);
              }
            })
        .onEvent(
            ValueTypes.VARIABLE,
            VariableIntent.CREATED,
            event -> {
              variable.readFrom(event.value());
              variables.put(variable.scopeKey, variable.name, variable.value);
            })
        .onEvent(
            ValueTypes.VARIABLE,
            VariableIntent.UPDATED,
            event -> {
              variable.readFrom(event.value());
              variables.put(variable.scopeKey, variable.name, variable.value);
            })
        .onCommand(ValueTypes.JOB, JobIntent.FAIL, jobProcessors::fail)
        .onEvent(
            ValueTypes.JOB,
            JobIntent.FAILED,
            event ->
                changeJob(
                    jobs,
                    previous,
                    job,
                    event,
                    value ->
                        value.retries > 0 && value.recurAt < 0
                            ? JobState.ACTIVATABLE
                            : JobState.FAILED))
        .onCommand(ValueTypes.JOB, JobIntent.UPDATE_RETRIES, jobProcessors::updateRetries)
        .onEvent(
            ValueTypes.JOB,
            JobIntent.RETRIES_UPDATED,
            event -> changeJob(jobs, previous, job, event, value -> previous.state))
        .onCommand(ValueTypes.JOB, JobIntent.TIME_OUT, jobProcessors::timeOut)
        .onEvent(
            ValueTypes.JOB,
            JobIntent.TIMED_OUT,
            event -> changeJob(jobs, previous, job, event, value -> JobState.ACTIVATABLE))
        .onCommand(ValueTypes.JOB, JobIntent.RECUR_AFTER_BACKOFF, jobProcessors::recur)
        .onEvent(
            ValueTypes.JOB,
            JobIntent.RECURRED_AFTER_BACKOFF,
            event -> changeJob(jobs, previous, job, event, value -> JobState.ACTIVATABLE))
        .onEvent(
            ValueTypes.INCIDENT,
            IncidentIntent.CREATED,
            event -> incidents.create(event.key(), incident.readFrom(event.value())))
        .onCommand(ValueTypes.INCIDENT, IncidentIntent.RESOLVE, jobProcessors::resolveIncident)
        .onEvent(
            ValueTypes.INCIDENT,
            IncidentIntent.RESOLVED,
            event -> {
              incident.readFrom(event.value());
              incidents.remove(event.key(), incident);
              if (incident.jobKey >= 0
                  && jobs.get(incident.jobKey, previous)
                  && previous.state == JobState.FAILED) {
                job.value.copyFrom(previous.value);
                job.state = JobState.ACTIVATABLE;
                jobs.update(incident.jobKey, previous, job);
              }
            })
        .onCommand(ValueTypes.JOB_BATCH, JobBatchIntent.ACTIVATE, jobProcessors::activate)
        .onEvent(
            ValueTypes.JOB_BATCH,
            JobBatchIntent.ACTIVATED,
            event -> {
              batch.readFrom(event.value());
              for (int i = 0; i < batch.jobKeys.size(); i++) {
                long jobKey = batch.jobKeys.get(i);
                JobValue activated = batch.jobs.get(i);
                job.value.copyFrom(activated);
                jobs.activate(jobKey, job);
              }
            });
  }

  /**
   * How many sequence-flow tokens an activating element consumes: none for the process and start
   * events, one per incoming flow for a joining parallel gateway, else the one that brought it.
   */
  private static int consumedTokens(
      ProcessState processes, TakenFlowState takenFlows, ProcessInstanceValue element) {
    switch (element.elementType) {
      case PROCESS, START_EVENT:
        return 0;
      case PARALLEL_GATEWAY:
        ExecutableElement gateway =
            processes.byKey(element.processDefinitionKey).process().element(element.elementId);
        for (String incoming : gateway.incoming()) {
          takenFlows.add(element.flowScopeKey, gateway.id(), incoming, -1);
        }
        return gateway.incoming().size();
      default:
        return 1;
    }
  }

  /** Applier of a job event: the event's value becomes the job's, in the state it leads to. */
  private static void changeJob(
      JobState jobs,
      JobState.Job previous,
      JobState.Job job,
      io.tern.engine.record.LoggedRecord event,
      java.util.function.ToIntFunction<JobValue> nextState) {
    if (!jobs.get(event.key(), previous)) {
      throw new IllegalStateException("no job " + event.key());
    }
    job.value.readFrom(event.value());
    job.state = nextState.applyAsInt(job.value);
    jobs.update(event.key(), previous, job);
  }

  /** Applier of COMPLETED and TERMINATED: the instance and what lives in it go. */
  private static void removeInstance(
      ElementInstanceState instances,
      VariableState variables,
      TakenFlowState takenFlows,
      ElementInstance instance,
      ElementInstance scope,
      long key) {
    if (!instances.get(key, instance)) {
      throw new IllegalStateException("no element instance " + key);
    }
    instances.remove(key);
    variables.removeScope(key);
    takenFlows.removeScope(key);
    long flowScopeKey = instance.value.flowScopeKey;
    if (flowScopeKey >= 0 && instances.get(flowScopeKey, scope)) {
      scope.activeChildren--;
      instances.put(flowScopeKey, scope);
      instances.removeChild(flowScopeKey, key);
    }
  }

  private static void setState(
      ElementInstanceState instances, ElementInstance instance, long key, int state) {
    if (!instances.get(key, instance)) {
      throw new IllegalStateException("no element instance " + key);
    }
    instance.state = state;
    instances.put(key, instance);
  }
}

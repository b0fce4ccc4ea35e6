package io.tern.engine.workflow.processing;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.CreationIntent;
import io.tern.engine.workflow.ValueTypes.DeploymentDistributionIntent;
import io.tern.engine.workflow.ValueTypes.DeploymentIntent;
import io.tern.engine.workflow.ValueTypes.IncidentIntent;
import io.tern.engine.workflow.ValueTypes.JobBatchIntent;
import io.tern.engine.workflow.ValueTypes.JobIntent;
import io.tern.engine.workflow.ValueTypes.ProcessEventIntent;
import io.tern.engine.workflow.ValueTypes.ProcessInstanceIntent;
import io.tern.engine.workflow.ValueTypes.ResultIntent;
import io.tern.engine.workflow.ValueTypes.TimerIntent;
import io.tern.engine.workflow.ValueTypes.VariableDocumentIntent;
import io.tern.engine.workflow.ValueTypes.VariableIntent;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.processing.deployment.DeploymentDistribution;
import io.tern.engine.workflow.processing.messages.MessageAppliers;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.JobState;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.DeploymentDistributionValue;
import io.tern.engine.workflow.value.DeploymentValue;
import io.tern.engine.workflow.value.IncidentValue;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.ProcessEventValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.value.TimerValue;
import io.tern.engine.workflow.value.VariableValue;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Every state change of the workflow engine, one applier per event intent: processing and replay
 * run the same code, so a follower's state is the leader's.
 */
final class EventAppliers {
  private final WorkflowState state;
  private final DeploymentValue deployment = new DeploymentValue();
  private final ElementInstance instance = new ElementInstance();
  private final ElementInstance scope = new ElementInstance();
  private final ProcessInstanceValue flowValue = new ProcessInstanceValue();
  private final JobState.Job job = new JobState.Job();
  private final JobState.Job previous = new JobState.Job();
  private final JobBatchValue batch = new JobBatchValue();
  private final IncidentValue incident = new IncidentValue();
  private final VariableValue variable = new VariableValue();
  private final TimerValue timer = new TimerValue();
  private final ProcessEventValue processEvent = new ProcessEventValue();
  private final ProcessEventValue pendingTrigger = new ProcessEventValue();
  private final DeploymentDistributionValue distribution = new DeploymentDistributionValue();

  private final int partitionCount;

  private EventAppliers(WorkflowState state, int partitionCount) {
    this.state = state;
    this.partitionCount = partitionCount;
  }

  /**
   * @param partitionCount the cluster's, fixed for its life: a deployment made here is remembered
   *     until every other partition has it
   */
  static void register(RecordProcessors processors, WorkflowState state, int partitionCount) {
    new EventAppliers(state, partitionCount).registerAll(processors);
  }

  private void registerAll(RecordProcessors on) {
    on.onEvent(
            ValueTypes.DEPLOYMENT,
            DeploymentIntent.CREATED,
            event -> {
              deployed(event);
              List<Integer> others = DeploymentDistribution.otherPartitions(partitionCount);
              if (!others.isEmpty()) {
                state.distribution().distribute(event.key(), deployment, others);
              }
            })
        .onEvent(ValueTypes.DEPLOYMENT, DeploymentIntent.DISTRIBUTED, this::deployed)
        .onEvent(ValueTypes.DEPLOYMENT, DeploymentIntent.FULLY_DISTRIBUTED, event -> {})
        .onEvent(
            ValueTypes.DEPLOYMENT_DISTRIBUTION,
            DeploymentDistributionIntent.COMPLETED,
            event ->
                state
                    .distribution()
                    .completed(
                        event.key(),
                        distribution.<DeploymentDistributionValue>readFrom(event.value())
                            .partitionId))
        .onEvent(ValueTypes.PROCESS_INSTANCE_CREATION, CreationIntent.CREATED, event -> {})
        .onEvent(
            ValueTypes.PROCESS_INSTANCE, ProcessInstanceIntent.ELEMENT_ACTIVATING, this::activating)
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.ELEMENT_ACTIVATED,
            event -> setState(event.key(), ProcessInstanceIntent.ELEMENT_ACTIVATED))
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.ELEMENT_COMPLETING,
            event -> setState(event.key(), ProcessInstanceIntent.ELEMENT_COMPLETING))
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.ELEMENT_COMPLETED,
            event -> {
              removeInstance(event.key());
              state.pendingBoundaries().remove(event.key()); // a terminate end event's
            })
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.ELEMENT_TERMINATING,
            event -> setState(event.key(), ProcessInstanceIntent.ELEMENT_TERMINATING))
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.ELEMENT_TERMINATED,
            event -> {
              removeInstance(event.key());
              state.pendingBoundaries().remove(event.key());
            })
        .onEvent(
            ValueTypes.PROCESS_INSTANCE,
            ProcessInstanceIntent.SEQUENCE_FLOW_TAKEN,
            this::sequenceFlowTaken)
        .onEvent(ValueTypes.PROCESS_EVENT, ProcessEventIntent.TRIGGERED, this::boundaryTriggered)
        .onEvent(ValueTypes.JOB, JobIntent.CREATED, this::jobCreated)
        .onEvent(ValueTypes.JOB, JobIntent.CANCELED, event -> removeJob(event.key()))
        .onEvent(ValueTypes.JOB, JobIntent.COMPLETED, event -> removeJob(event.key()))
        .onEvent(
            ValueTypes.JOB,
            JobIntent.FAILED,
            event ->
                changeJob(
                    event,
                    value ->
                        value.retries > 0 && value.recurAt < 0
                            ? JobState.ACTIVATABLE
                            : JobState.FAILED))
        .onEvent(
            ValueTypes.JOB,
            JobIntent.RETRIES_UPDATED,
            event -> changeJob(event, value -> previous.state))
        .onEvent(
            ValueTypes.JOB,
            JobIntent.TIMED_OUT,
            event -> changeJob(event, v -> JobState.ACTIVATABLE))
        .onEvent(
            ValueTypes.JOB,
            JobIntent.RECURRED_AFTER_BACKOFF,
            event -> changeJob(event, value -> JobState.ACTIVATABLE))
        // An uncaught error leaves the job waiting for its incident; a caught one's job is
        // canceled with its element right after.
        .onEvent(
            ValueTypes.JOB, JobIntent.ERROR_THROWN, event -> changeJob(event, v -> JobState.FAILED))
        .onEvent(
            ValueTypes.JOB, JobIntent.YIELDED, event -> changeJob(event, v -> JobState.ACTIVATABLE))
        .onEvent(
            ValueTypes.JOB,
            JobIntent.TIMEOUT_UPDATED,
            event -> changeJob(event, v -> JobState.ACTIVATED))
        .onEvent(ValueTypes.JOB_BATCH, JobBatchIntent.ACTIVATED, this::jobsActivated)
        // Answers to clients only; the instance's own events change the state.
        .onEvent(ValueTypes.PROCESS_INSTANCE_RESULT, ResultIntent.COMPLETED, event -> {})
        .onEvent(ValueTypes.PROCESS_INSTANCE_RESULT, ResultIntent.TERMINATED, event -> {})
        .onEvent(ValueTypes.VARIABLE, VariableIntent.CREATED, this::variableSet)
        .onEvent(ValueTypes.VARIABLE, VariableIntent.UPDATED, this::variableSet)
        // The variables' own events change the state; the document only says who asked.
        .onEvent(ValueTypes.VARIABLE_DOCUMENT, VariableDocumentIntent.UPDATED, event -> {})
        .onEvent(
            ValueTypes.INCIDENT,
            IncidentIntent.CREATED,
            event -> state.incidents().create(event.key(), incident.readFrom(event.value())))
        .onEvent(ValueTypes.INCIDENT, IncidentIntent.RESOLVED, this::incidentResolved)
        .onEvent(
            ValueTypes.TIMER,
            TimerIntent.CREATED,
            event -> state.timers().put(event.key(), timer.readFrom(event.value())))
        .onEvent(
            ValueTypes.TIMER,
            TimerIntent.TRIGGERED,
            event -> {
              removeTimer(event);
              timer.readFrom(event.value());
              if (timer.elementInstanceKey < 0 && timer.processInstanceKey >= 0) {
                // A timer start event starts this instance at it.
                state.startEvents().put(timer.processInstanceKey, timer.targetElementId);
              }
            })
        .onEvent(ValueTypes.TIMER, TimerIntent.CANCELED, this::removeTimer);
    MessageAppliers.register(on, state);
  }

  private void deployed(LoggedRecord event) {
    deployment.readFrom(event.value());
    for (DeploymentValue.Process process : deployment.processes) {
      if (!process.duplicate() && state.processes().byKey(process.processDefinitionKey()) == null) {
        DeploymentValue.Resource resource =
            deployment.resources.stream()
                .filter(r -> r.name().equals(process.resourceName()))
                .findFirst()
                .orElseThrow();
        ProcessState.Deployed previous =
            state.processes().byIdAndVersion(process.bpmnProcessId(), -1);
        state.processes().put(process, resource);
        if (previous == null || process.version() > previous.version()) {
          subscribeMessageStarts(previous, process);
        }
      }
    }
  }

  /**
   * The latest version of a process is the one that starts on its messages: the previous latest
   * version's message start events close, the new one's open.
   */
  private void subscribeMessageStarts(
      ProcessState.Deployed previous, DeploymentValue.Process latest) {
    String processId = latest.bpmnProcessId();
    if (previous != null) {
      for (String name : previous.process().messageStartEvents().keySet()) {
        state.messageStarts().unsubscribe(name, processId);
      }
    }
    ExecutableProcess process = state.process(latest.processDefinitionKey());
    for (String name : process.messageStartEvents().keySet()) {
      state.messageStarts().subscribe(name, processId, latest.processDefinitionKey());
    }
  }

  private void activating(LoggedRecord event) {
    instance.value.readFrom(event.value());
    instance.state = ProcessInstanceIntent.ELEMENT_ACTIVATING;
    instance.activeChildren = 0;
    instance.jobKey = -1;
    instance.calledInstanceKey = -1;
    instance.loopCounter = 0;
    state.instances().put(event.key(), instance);
    long callerKey = instance.value.parentElementInstanceKey;
    if (instance.value.flowScopeKey < 0
        && callerKey >= 0
        && state.instances().get(callerKey, scope)) {
      scope.calledInstanceKey = event.key();
      state.instances().put(callerKey, scope);
    }
    long flowScopeKey = instance.value.flowScopeKey;
    if (flowScopeKey >= 0 && state.instances().get(flowScopeKey, scope)) {
      // The scope counts active children and tokens on sequence flows (and triggered boundary
      // events); an element reached by them turns their tokens into itself.
      if (scope.value.elementType == BpmnElementType.MULTI_INSTANCE_BODY) {
        // An inner instance is made by its body, not brought by a token.
        scope.activeChildren++;
        scope.loopCounter++;
      } else if (interruptingEventSubprocessStarts(flowScopeKey, instance.value)) {
        // Everything else in the scope was terminated: tokens left on its flows are void.
        scope.activeChildren = 1;
        state.takenFlows().removeScope(flowScopeKey);
        state.pendingBoundaries().remove(flowScopeKey);
      } else {
        scope.activeChildren += 1 - consumedTokens(instance.value);
      }
      state.instances().put(flowScopeKey, scope);
      state.instances().addChild(flowScopeKey, event.key());
    }
  }

  /** Whether {@code element} is the interrupting event subprocess remembered for its scope. */
  private boolean interruptingEventSubprocessStarts(long scopeKey, ProcessInstanceValue element) {
    return element.elementType == BpmnElementType.EVENT_SUB_PROCESS
        && state.pendingBoundaries().get(scopeKey, pendingTrigger)
        && state
            .process(element.processDefinitionKey)
            .element(element.elementId)
            .startEventId()
            .equals(pendingTrigger.targetElementId);
  }

  /**
   * How many tokens an activating element consumes: none for the process and start events, one per
   * incoming flow for a joining parallel gateway, else the one that brought it (a sequence flow's,
   * or a boundary event's trigger).
   */
  private int consumedTokens(ProcessInstanceValue element) {
    switch (element.elementType) {
      case PROCESS, START_EVENT:
        return 0;
      case PARALLEL_GATEWAY:
        ExecutableElement gateway =
            state.process(element.processDefinitionKey).element(element.elementId);
        for (String incoming : gateway.incoming()) {
          state.takenFlows().add(element.flowScopeKey, gateway.id(), incoming, -1);
        }
        return gateway.incoming().size();
      default:
        return 1;
    }
  }

  private void sequenceFlowTaken(LoggedRecord event) {
    flowValue.readFrom(event.value());
    long flowScopeKey = flowValue.flowScopeKey;
    addToken(flowScopeKey);
    ExecutableElement target =
        state.process(flowValue.processDefinitionKey).target(flowValue.elementId);
    if (target.type() == BpmnElementType.PARALLEL_GATEWAY) {
      state.takenFlows().add(flowScopeKey, target.id(), flowValue.elementId, 1);
    }
  }

  private void boundaryTriggered(LoggedRecord event) {
    processEvent.readFrom(event.value());
    ExecutableElement target =
        state.process(processEvent.processDefinitionKey).element(processEvent.targetElementId);
    if (target.type() == BpmnElementType.START_EVENT) {
      addToken(processEvent.scopeKey); // an event subprocess runs inside the scope
    } else if (target.event() instanceof EventDefinition.Link) {
      addToken(processEvent.scopeKey); // a link catch event, coming in the throw event's scope
    } else if (target.type() == BpmnElementType.INTERMEDIATE_CATCH_EVENT) {
      // After an event-based gateway: the gateway (still active) takes the flow to it.
    } else if (target.type() == BpmnElementType.END_EVENT) {
      // A terminate end event ends the scope: nothing comes, the scope completes once it is empty.
    } else if (state.instances().get(processEvent.scopeKey, instance)) {
      addToken(instance.value.flowScopeKey); // a boundary event runs next to its activity
    }
    if (processEvent.interrupting) {
      state.pendingBoundaries().put(processEvent.scopeKey, processEvent);
    }
  }

  private void addToken(long flowScopeKey) {
    if (state.instances().get(flowScopeKey, scope)) {
      scope.activeChildren++;
      state.instances().put(flowScopeKey, scope);
    }
  }

  private void jobCreated(LoggedRecord event) {
    job.value.readFrom(event.value());
    state.jobs().create(event.key(), job);
    if (state.instances().get(job.value.elementInstanceKey, instance)) {
      instance.jobKey = event.key();
      state.instances().put(job.value.elementInstanceKey, instance);
    }
  }

  private void removeJob(long key) {
    if (state.jobs().get(key, job)) {
      state.jobs().remove(key, job);
    }
  }

  private void jobsActivated(LoggedRecord event) {
    batch.readFrom(event.value());
    for (int i = 0; i < batch.jobKeys.size(); i++) {
      long jobKey = batch.jobKeys.get(i);
      JobValue activated = batch.jobs.get(i);
      job.value.copyFrom(activated);
      state.jobs().activate(jobKey, job);
    }
  }

  private void variableSet(LoggedRecord event) {
    variable.readFrom(event.value());
    state.variables().put(variable.scopeKey, variable.name, variable.value);
  }

  private void incidentResolved(LoggedRecord event) {
    incident.readFrom(event.value());
    state.incidents().remove(event.key(), incident);
    if (incident.jobKey >= 0
        && state.jobs().get(incident.jobKey, previous)
        && previous.state == JobState.FAILED) {
      job.value.copyFrom(previous.value);
      job.state = JobState.ACTIVATABLE;
      state.jobs().update(incident.jobKey, previous, job);
    }
  }

  private void removeTimer(LoggedRecord event) {
    if (state.timers().get(event.key(), timer)) {
      state.timers().remove(event.key(), timer);
    }
  }

  /** A job event's value becomes the job's, in the state it leads to. */
  private void changeJob(LoggedRecord event, ToIntFunction<JobValue> nextState) {
    if (!state.jobs().get(event.key(), previous)) {
      throw new IllegalStateException("no job " + event.key());
    }
    job.value.readFrom(event.value());
    job.state = nextState.applyAsInt(job.value);
    state.jobs().update(event.key(), previous, job);
  }

  /** COMPLETED and TERMINATED: the instance and what lives in it go. */
  private void removeInstance(long key) {
    if (!state.instances().get(key, instance)) {
      throw new IllegalStateException("no element instance " + key);
    }
    state.instances().remove(key);
    state.variables().removeScope(key);
    state.takenFlows().removeScope(key);
    if (instance.value.flowScopeKey < 0) {
      state.messageStarts().ended(key);
      state.startEvents().remove(key);
    }
    long callerKey = instance.value.parentElementInstanceKey;
    if (instance.value.flowScopeKey < 0
        && callerKey >= 0
        && state.instances().get(callerKey, scope)) {
      scope.calledInstanceKey = -1;
      state.instances().put(callerKey, scope);
    }
    long flowScopeKey = instance.value.flowScopeKey;
    if (flowScopeKey >= 0 && state.instances().get(flowScopeKey, scope)) {
      scope.activeChildren--;
      state.instances().put(flowScopeKey, scope);
      state.instances().removeChild(flowScopeKey, key);
    }
  }

  private void setState(long key, int intent) {
    if (!state.instances().get(key, instance)) {
      throw new IllegalStateException("no element instance " + key);
    }
    instance.state = intent;
    state.instances().put(key, instance);
  }
}

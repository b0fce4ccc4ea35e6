package io.tern.engine.workflow.processing;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.JobIntent;
import io.tern.engine.workflow.ValueTypes.ProcessInstanceIntent;
import io.tern.engine.workflow.feel.FeelConditions;
import io.tern.engine.workflow.feel.FeelStrings;
import io.tern.engine.workflow.feel.IoMappings;
import io.tern.engine.workflow.model.EventDefinition;
import io.tern.engine.workflow.model.ExecutableElement;
import io.tern.engine.workflow.model.ExecutableProcess;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.state.TakenFlowState;
import io.tern.engine.workflow.value.BpmnElementType;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.value.MessageSubscriptionValue;
import io.tern.engine.workflow.value.ProcessInstanceValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The lifecycle of element instances: ACTIVATE_ELEMENT and COMPLETE_ELEMENT commands become
 * ACTIVATING/ACTIVATED and COMPLETING/COMPLETED events, and what each kind of element does next: a
 * process activates its start event, events complete at once, a service task creates a job (and
 * completes when the job does), and a completed element takes its outgoing sequence flows or, with
 * none left, completes its flow scope once that has no active child.
 */
final class ElementProcessor {
  private final ProcessingContext context;
  private final ProcessState processes;
  private final ElementInstanceState instances;
  private final TakenFlowState takenFlows;
  private final VariableBehavior variables;
  private final FeelConditions conditions = new FeelConditions();
  private final IoMappings ioMappings = new IoMappings();
  private final FeelStrings jobExpressions = new FeelStrings();
  private String jobType;
  private int jobRetries;
  private final IncidentBehavior incidents;
  private final CatchEventBehavior catchEvents;
  private BoundaryBehavior boundaries;
  private EventSubprocessBehavior eventSubprocesses;
  private final ResultAwaiters awaiters;
  private final CallActivityBehavior callActivities;
  private final MultiInstanceBehavior multiInstance;
  private final MessageStartBehavior messageStarts;
  private final JobPushBehavior jobPush;
  private final WorkflowMetrics metrics;
  private final ProcessInstanceValue value = new ProcessInstanceValue();
  private final ProcessInstanceValue next = new ProcessInstanceValue();
  private final ElementInstance instance = new ElementInstance();
  private final ElementInstance scope = new ElementInstance();
  private final JobValue job = new JobValue();

  ElementProcessor(
      ProcessingContext context,
      ProcessState processes,
      ElementInstanceState instances,
      TakenFlowState takenFlows,
      VariableBehavior variables,
      IncidentBehavior incidents,
      CatchEventBehavior catchEvents,
      ResultAwaiters awaiters,
      CallActivityBehavior callActivities,
      MultiInstanceBehavior multiInstance,
      MessageStartBehavior messageStarts,
      JobPushBehavior jobPush,
      WorkflowMetrics metrics) {
    this.jobPush = jobPush;
    this.metrics = metrics;
    this.multiInstance = multiInstance;
    this.messageStarts = messageStarts;
    this.awaiters = awaiters;
    this.callActivities = callActivities;
    this.context = context;
    this.processes = processes;
    this.instances = instances;
    this.takenFlows = takenFlows;
    this.variables = variables;
    this.incidents = incidents;
    this.catchEvents = catchEvents;
  }

  void setBoundaries(BoundaryBehavior boundaries) {
    this.boundaries = boundaries;
  }

  void setEventSubprocesses(EventSubprocessBehavior eventSubprocesses) {
    this.eventSubprocesses = eventSubprocesses;
  }

  void activate(LoggedRecord command, ProcessingResult result) {
    value.readFrom(command.value());
    long key = command.key();
    if (value.flowScopeKey >= 0
        && (!instances.get(value.flowScopeKey, scope)
            || scope.state == ProcessInstanceIntent.ELEMENT_TERMINATING)) {
      return; // its scope is being terminated, or is gone: nothing starts in it any more
    }
    if (value.flowScopeKey >= 0 && eventSubprocesses.blocks(value.flowScopeKey, value)) {
      return; // an interrupting event subprocess is taking over the scope: nothing else starts
    }
    ExecutableProcess process = process(value);
    ExecutableElement element =
        value.elementType == BpmnElementType.PROCESS ? null : process.element(value.elementId);
    boolean body = MultiInstanceBehavior.isBody(value);
    CatchEventBehavior.Part part =
        element == null
            ? CatchEventBehavior.Part.ALL
            : CatchEventBehavior.partOf(element, value.elementType);
    // A multi-instance body evaluates its input collection; its inner instances map their inputs.
    List<ExecutableElement> eventStarts =
        body ? List.of() : EventSubprocessBehavior.waitingStarts(process, value);
    boolean canFail =
        !eventStarts.isEmpty()
            || element != null
                && (body
                    || !element.inputs().isEmpty()
                    || value.elementType == BpmnElementType.CALL_ACTIVITY
                    || (value.elementType == BpmnElementType.SERVICE_TASK
                        && element.job().hasExpressions())
                    || CatchEventBehavior.hasCatchEvents(process, element, part));
    // An element whose activation raised an incident is still ACTIVATING, and is activated again
    // once the incident is resolved.
    boolean again =
        canFail
            && instances.get(key, instance)
            && instance.state == ProcessInstanceIntent.ELEMENT_ACTIVATING;
    if (!again) {
      appendLifecycle(result, key, ProcessInstanceIntent.ELEMENT_ACTIVATING);
    }
    if (!body
        && element != null
        && !element.inputs().isEmpty()
        && !applyInputs(result, key, element)) {
      return; // an incident holds the element until it is resolved
    }
    List<byte[]> items = null;
    if (body) {
      items = multiInstance.items(result, key, value, element);
      if (items == null) {
        return; // an incident holds the body until it is resolved
      }
    }
    ProcessState.Deployed called = null;
    if (value.elementType == BpmnElementType.CALL_ACTIVITY) {
      called = callActivities.resolve(result, key, value, element);
      if (called == null) {
        return; // an incident holds the element until it is resolved
      }
    }
    if (canFail
        && !catchEvents.subscribe(result, key, value, process, element, part, eventStarts)) {
      return; // an incident holds the element until it is resolved
    }
    if (value.elementType == BpmnElementType.SERVICE_TASK && !resolveJob(result, key, element)) {
      return; // an incident holds the task until it is resolved
    }
    appendLifecycle(result, key, ProcessInstanceIntent.ELEMENT_ACTIVATED);
    if (value.elementType == BpmnElementType.PROCESS) {
      metrics.processInstanceActivated(result, key, context.nowMs());
    }
    switch (value.elementType) {
      case PROCESS -> activateChild(result, process, messageStarts.startEventOf(key, process), key);
      case SUB_PROCESS, EVENT_SUB_PROCESS ->
          activateChild(result, process, element.startEventId(), key);
      case START_EVENT,
          END_EVENT,
          PARALLEL_GATEWAY,
          EXCLUSIVE_GATEWAY,
          INCLUSIVE_GATEWAY,
          BOUNDARY_EVENT ->
          complete(result, key);
      case SERVICE_TASK -> createJob(result, element, key);
      case CALL_ACTIVITY -> callActivities.call(result, key, value, element, called);
      case INTERMEDIATE_CATCH_EVENT, RECEIVE_TASK -> {} // waits for its timer or message
      case MULTI_INSTANCE_BODY -> multiInstance.start(result, key, value, element, items);
      default ->
          throw new IllegalStateException("cannot activate a " + value.elementType + " element");
    }
  }

  void complete(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (!instances.get(key, instance)
        || instance.state != ProcessInstanceIntent.ELEMENT_ACTIVATED) {
      result.reject(
          RejectionType.INVALID_STATE,
          "element instance " + key + " is not active, so it cannot complete");
      return;
    }
    value.copyFrom(instance.value);
    if (value.elementType == BpmnElementType.PROCESS) {
      if (!EventSubprocessBehavior.waitingStarts(process(value), value).isEmpty()) {
        catchEvents.unsubscribe(result, key);
      }
      appendLifecycle(result, key, ProcessInstanceIntent.ELEMENT_COMPLETING);
      awaiters.instanceEnds(result, key, value, true);
      if (value.parentElementInstanceKey >= 0) {
        callActivities.childCompleted(result, key, value);
      }
      MessageSubscriptionValue heldBy = messageStarts.heldBy(key);
      appendLifecycle(result, key, ProcessInstanceIntent.ELEMENT_COMPLETED);
      metrics.processInstanceCompleted(result, key, context.nowMs());
      if (heldBy != null) {
        messageStarts.keyReleased(result, heldBy);
      }
      return;
    }
    ExecutableProcess process = process(value);
    ExecutableElement element = process.element(value.elementId);
    if (MultiInstanceBehavior.isBody(value)) {
      completeBody(result, key, process, element);
      return;
    }
    boolean inner = element.loop() != null;
    List<ExecutableElement.Flow> taken = null;
    if (value.elementType == BpmnElementType.EXCLUSIVE_GATEWAY) {
      ExecutableElement.Flow chosen = choose(element, key, result);
      if (chosen == null) {
        return; // an incident holds the gateway until it is resolved
      }
      taken = List.of(chosen);
    } else if (value.elementType == BpmnElementType.INCLUSIVE_GATEWAY) {
      taken = chooseAll(element, key, result);
      if (taken == null) {
        return; // an incident holds the gateway until it is resolved
      }
    } else if (element.event() instanceof EventDefinition.Error error
        && element.type() == BpmnElementType.END_EVENT) {
      String code = errorCodeOf(result, key, element, error.errorCode());
      if (code != null) {
        throwError(result, key, code);
      }
      return; // caught: the catching activity is terminated, and this end event with it
    }
    Map<String, byte[]> outputs = null;
    if (!element.outputs().isEmpty()) {
      outputs = evaluateMappings(result, key, element, element.outputs(), "output");
      if (outputs == null) {
        return; // an incident holds the element until it is resolved
      }
    }
    if (inner && !multiInstance.collectOutput(result, key, value, element)) {
      return; // an incident holds the element until it is resolved
    }
    if (CatchEventBehavior.hasCatchEvents(
            process, element, CatchEventBehavior.partOf(element, value.elementType))
        || !EventSubprocessBehavior.waitingStarts(process, value).isEmpty()) {
      catchEvents.unsubscribe(result, key);
    }
    appendLifecycle(result, key, ProcessInstanceIntent.ELEMENT_COMPLETING);
    if (outputs != null) {
      variables.setPropagating(
          result,
          value.flowScopeKey,
          value.processInstanceKey,
          value.processDefinitionKey,
          outputs);
    }
    appendLifecycle(result, key, ProcessInstanceIntent.ELEMENT_COMPLETED);
    if (inner) {
      multiInstance.innerCompleted(result, value.flowScopeKey);
      return; // the body takes the outgoing flows once all inner instances are done
    }
    leave(result, process, element, taken);
  }

  /**
   * A multi-instance body is asked to complete once no inner instance runs: a sequential one starts
   * its next inner instance if items are left; else it completes with its output collection.
   */
  private void completeBody(
      ProcessingResult result, long key, ExecutableProcess process, ExecutableElement element) {
    if (instance.activeChildren > 0) {
      return; // inner instances still run; the last one to complete asks again
    }
    if (element.loop().sequential()) {
      List<byte[]> items = multiInstance.items(result, key, value, element);
      if (items == null) {
        return; // an incident holds the body until it is resolved
      }
      int done = instance.loopCounter;
      if (done < items.size()) {
        multiInstance.activateInner(result, key, value, element, done, items.get(done));
        return;
      }
    }
    if (CatchEventBehavior.hasCatchEvents(process, element, CatchEventBehavior.Part.BOUNDARIES)) {
      catchEvents.unsubscribe(result, key);
    }
    appendLifecycle(result, key, ProcessInstanceIntent.ELEMENT_COMPLETING);
    multiInstance.completeBody(result, key, value, element);
    appendLifecycle(result, key, ProcessInstanceIntent.ELEMENT_COMPLETED);
    leave(result, process, element, null);
  }

  /**
   * The element in {@link #value} completed: it takes its outgoing flows ({@code taken}, or all),
   * or, with none, completes its flow scope once that has no active child.
   */
  private void leave(
      ProcessingResult result,
      ExecutableProcess process,
      ExecutableElement element,
      List<ExecutableElement.Flow> taken) {
    long flowScopeKey = value.flowScopeKey;
    if (element.outgoing().isEmpty()) {
      // The COMPLETED applier already took this element from its scope's active children.
      if (instances.get(flowScopeKey, scope) && scope.activeChildren == 0) {
        complete(result, flowScopeKey);
      }
      return;
    }
    for (ExecutableElement.Flow flow : taken != null ? taken : element.outgoing()) {
      next.copyFrom(value);
      next.parentElementInstanceKey = -1;
      next.elementType = BpmnElementType.SEQUENCE_FLOW;
      next.elementId = flow.id();
      result.appendEvent(
          context.nextKey(),
          ValueTypes.PROCESS_INSTANCE,
          ProcessInstanceIntent.SEQUENCE_FLOW_TAKEN,
          next);
      ExecutableElement target = process.element(flow.targetId());
      if (target.type() != BpmnElementType.PARALLEL_GATEWAY || joined(target, flowScopeKey)) {
        activateChild(result, process, flow.targetId(), flowScopeKey);
      }
    }
  }

  /**
   * The only outgoing flow if it has no condition, else the first whose condition holds, else the
   * default flow; null (after raising a CONDITION_ERROR incident) if none, or if a condition cannot
   * be evaluated.
   */
  private ExecutableElement.Flow choose(
      ExecutableElement gateway, long key, ProcessingResult result) {
    if (gateway.outgoing().size() == 1 && gateway.outgoing().get(0).condition() == null) {
      return gateway.outgoing().get(0); // a join, or a gateway with nothing to decide
    }
    Map<String, byte[]> visible = variables.visible(key, List.of());
    ExecutableElement.Flow fallback = null;
    try {
      for (ExecutableElement.Flow flow : gateway.outgoing()) {
        if (flow.id().equals(gateway.defaultFlowId())) {
          fallback = flow;
        } else if (flow.condition() != null && conditions.evaluate(flow.condition(), visible)) {
          return flow;
        }
      }
    } catch (FeelConditions.ConditionException | InvalidVariablesException e) {
      raiseIncident(key, "gateway '" + gateway.id() + "': " + e.getMessage(), result);
      return null;
    }
    if (fallback == null) {
      raiseIncident(
          key,
          "no condition of an outgoing flow of gateway '"
              + gateway.id()
              + "' holds, and it has no default flow",
          result);
    }
    return fallback;
  }

  /**
   * Every outgoing flow whose condition holds (a flow without a condition always does), else the
   * default flow; null (after raising a CONDITION_ERROR incident) if none, or if a condition cannot
   * be evaluated.
   */
  private List<ExecutableElement.Flow> chooseAll(
      ExecutableElement gateway, long key, ProcessingResult result) {
    Map<String, byte[]> visible = variables.visible(key, List.of());
    List<ExecutableElement.Flow> chosen = new ArrayList<>();
    ExecutableElement.Flow fallback = null;
    try {
      for (ExecutableElement.Flow flow : gateway.outgoing()) {
        if (flow.id().equals(gateway.defaultFlowId())) {
          fallback = flow;
        } else if (flow.condition() == null || conditions.evaluate(flow.condition(), visible)) {
          chosen.add(flow);
        }
      }
    } catch (FeelConditions.ConditionException | InvalidVariablesException e) {
      raiseIncident(key, "gateway '" + gateway.id() + "': " + e.getMessage(), result);
      return null;
    }
    if (!chosen.isEmpty()) {
      return chosen;
    }
    if (fallback == null) {
      raiseIncident(
          key,
          "no condition of an outgoing flow of gateway '"
              + gateway.id()
              + "' holds, and it has no default flow",
          result);
      return null;
    }
    return List.of(fallback);
  }

  /** Sets the element's input mappings as its local variables; false after raising an incident. */
  private boolean applyInputs(ProcessingResult result, long key, ExecutableElement element) {
    Map<String, byte[]> inputs = evaluateMappings(result, key, element, element.inputs(), "input");
    if (inputs == null) {
      return false;
    }
    variables.setLocal(result, key, value.processInstanceKey, value.processDefinitionKey, inputs);
    return true;
  }

  /** The mappings' variables, or null after raising an incident naming the failure. */
  private Map<String, byte[]> evaluateMappings(
      ProcessingResult result,
      long key,
      ExecutableElement element,
      List<ExecutableElement.Mapping> mappings,
      String kind) {
    try {
      return ioMappings.evaluate(mappings, variables.visible(key, List.of()));
    } catch (FeelStrings.EvaluationException | InvalidVariablesException e) {
      incidents.raise(
          result,
          ErrorType.EXTRACT_VALUE_ERROR,
          key,
          value,
          "an "
              + kind
              + " mapping of '"
              + element.id()
              + "' cannot be evaluated: "
              + e.getMessage());
      return null;
    }
  }

  private void raiseIncident(long key, String message, ProcessingResult result) {
    incidents.raise(result, ErrorType.CONDITION_ERROR, key, value, message);
  }

  /** The error code: static, or FEEL evaluated now; null after raising an incident. */
  private String errorCodeOf(
      ProcessingResult result, long key, ExecutableElement element, String code) {
    if (!code.startsWith("=")) {
      return code;
    }
    try {
      return jobExpressions.evaluate(code, () -> variables.visible(key, List.of()));
    } catch (FeelStrings.EvaluationException | InvalidVariablesException e) {
      incidents.raise(
          result,
          ErrorType.EXTRACT_VALUE_ERROR,
          key,
          value,
          "the error code '"
              + code
              + "' of '"
              + element.id()
              + "' cannot be evaluated: "
              + e.getMessage());
      return null;
    }
  }

  /** An error end event throws its error; an incident holds it if nothing catches the error. */
  private void throwError(ProcessingResult result, long key, String errorCode) {
    if (!boundaries.throwError(result, key, errorCode, new byte[0])) {
      incidents.raise(
          result,
          ErrorType.UNHANDLED_ERROR_EVENT,
          key,
          value,
          "error '"
              + errorCode
              + "' was thrown by '"
              + value.elementId
              + "', but no boundary event catches it");
    }
  }

  /** A parallel gateway activates once each of its incoming flows brought a token. */
  private boolean joined(ExecutableElement gateway, long flowScopeKey) {
    for (String incoming : gateway.incoming()) {
      if (takenFlows.count(flowScopeKey, gateway.id(), incoming) < 1) {
        return false;
      }
    }
    return true;
  }

  private void activateChild(
      ProcessingResult result, ExecutableProcess process, String elementId, long flowScopeKey) {
    ExecutableElement element = process.element(elementId);
    next.copyFrom(value);
    next.parentElementInstanceKey = -1; // only a called process has a caller
    next.flowScopeKey = flowScopeKey;
    next.elementId = element.id();
    next.elementType =
        element.loop() != null ? BpmnElementType.MULTI_INSTANCE_BODY : element.type();
    result.appendCommand(
        context.nextKey(),
        ValueTypes.PROCESS_INSTANCE,
        ProcessInstanceIntent.ACTIVATE_ELEMENT,
        next);
  }

  private void complete(ProcessingResult result, long key) {
    if (!instances.get(key, scope)) {
      throw new IllegalStateException("element instance " + key + " vanished");
    }
    result.appendCommand(
        key, ValueTypes.PROCESS_INSTANCE, ProcessInstanceIntent.COMPLETE_ELEMENT, scope.value);
  }

  /**
   * Resolves the task's job type and retries into {@link #jobType} and {@link #jobRetries}: static,
   * or FEEL evaluated now from the task's variables. False after raising an incident.
   */
  private boolean resolveJob(ProcessingResult result, long key, ExecutableElement element) {
    ExecutableElement.JobDefinition definition = element.job();
    jobType = definition.type();
    jobRetries = definition.retries();
    if (!definition.hasExpressions()) {
      return true;
    }
    String expression = definition.type();
    String what = "job type";
    String problem;
    try {
      if (definition.typeIsExpression()) {
        jobType = jobExpressions.evaluate(expression, () -> variables.visible(key, List.of()));
        if (jobType.isBlank()) {
          throw new FeelStrings.EvaluationException("it gave an empty job type");
        }
      }
      if (definition.retriesExpression() != null) {
        expression = definition.retriesExpression();
        what = "job retries";
        String retries =
            jobExpressions.evaluate(expression, () -> variables.visible(key, List.of()));
        jobRetries = parseRetries(retries);
      }
      return true;
    } catch (FeelStrings.EvaluationException | InvalidVariablesException e) {
      problem = e.getMessage();
    }
    incidents.raise(
        result,
        ErrorType.EXTRACT_VALUE_ERROR,
        key,
        value,
        "the "
            + what
            + " '"
            + expression
            + "' of '"
            + element.id()
            + "' cannot be evaluated: "
            + problem);
    return false;
  }

  private static int parseRetries(String text) {
    try {
      int retries = Integer.parseInt(text.strip());
      if (retries >= 0) {
        return retries;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new FeelStrings.EvaluationException(
        "retries must be a whole number >= 0, the expression gave '" + text + "'");
  }

  private void createJob(ProcessingResult result, ExecutableElement element, long key) {
    job.deadline = -1;
    job.retries = jobRetries;
    job.processInstanceKey = value.processInstanceKey;
    job.elementInstanceKey = key;
    job.processDefinitionKey = value.processDefinitionKey;
    job.processDefinitionVersion = value.version;
    job.type = jobType;
    job.worker = "";
    job.bpmnProcessId = value.bpmnProcessId;
    job.elementId = element.id();
    job.customHeaders = element.job().customHeadersJson().getBytes(StandardCharsets.UTF_8);
    job.variables = new byte[0];
    job.errorMessage = "";
    job.errorCode = "";
    long jobKey = context.nextKey();
    result.appendEvent(jobKey, ValueTypes.JOB, JobIntent.CREATED, job);
    metrics.jobCreated(result, jobKey, context.nowMs());
    jobPush.activatable(result, jobKey, job);
  }

  private void appendLifecycle(ProcessingResult result, long key, int intent) {
    result.appendEvent(key, ValueTypes.PROCESS_INSTANCE, intent, value);
  }

  private ExecutableProcess process(ProcessInstanceValue of) {
    ProcessState.Deployed deployed = processes.byKey(of.processDefinitionKey);
    if (deployed == null) {
      throw new IllegalStateException("process " + of.processDefinitionKey + " is not deployed");
    }
    return deployed.process();
  }
}

package io.tern.engine.workflow.processing.jobs;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.processing.behavior.Behaviors;
import io.tern.engine.workflow.processing.behavior.incidents.IncidentBehavior;
import io.tern.engine.workflow.processing.behavior.jobs.JobPushBehavior;
import io.tern.engine.workflow.processing.behavior.triggers.BoundaryBehavior;
import io.tern.engine.workflow.processing.behavior.variables.VariableBehavior;
import io.tern.engine.workflow.processing.common.DueDateChecker;
import io.tern.engine.workflow.processing.common.WorkflowMetrics;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.state.JobState;
import io.tern.engine.workflow.state.ProcessState;
import io.tern.engine.workflow.value.ErrorType;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.Map;

/**
 * Job commands: activation of a batch of jobs by type, completion, failure, thrown errors, retries,
 * time-outs and back-offs. Resolving a job's incident is {@link
 * io.tern.engine.workflow.processing.incidents.IncidentProcessor}'s.
 */
public final class JobProcessors {
  private final ProcessingContext context;
  private final ProcessState processes;
  private final JobState jobs;
  private final ElementInstanceState instances;
  private final VariableBehavior variables;
  private final IncidentBehavior incidents;
  private final BoundaryBehavior boundaries;
  private final JobPushBehavior push;
  private final WorkflowMetrics metrics;
  private final DueDateChecker deadlines;
  private final DueDateChecker backoffs;
  private final JobState.Job job = new JobState.Job();
  private final JobValue request = new JobValue();
  private final JobValue completion = new JobValue();
  private final ElementInstance instance = new ElementInstance();
  private final JobBatchValue batch = new JobBatchValue();

  public JobProcessors(ProcessingContext context, WorkflowState state, Behaviors behaviors) {
    this.context = context;
    this.processes = state.processes();
    this.jobs = state.jobs();
    this.instances = state.instances();
    this.variables = behaviors.variables();
    this.incidents = behaviors.incidents();
    this.boundaries = behaviors.boundaries();
    this.push = behaviors.jobPush();
    this.metrics = behaviors.metrics();
    this.deadlines = behaviors.jobDeadlines();
    this.backoffs =
        new DueDateChecker(
            context, jobs::forEachBackoff, JobIntent.RECUR_AFTER_BACKOFF, new JobValue());
  }

  /** This member starts processing: deadlines and back-offs are looked at afresh. */
  public void onProcessingStarted() {
    deadlines.onProcessingStarted();
    backoffs.onProcessingStarted();
  }

  /**
   * A worker gives the job back: with retries left it can be activated again (after the back-off,
   * if any); with none, an incident holds it until its retries are raised and the incident is
   * resolved.
   */
  public void fail(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (!activatedJob(key, "failed", result)) {
      return;
    }
    request.readFrom(command.value());
    if (request.retries < 0 || request.retryBackoffMs < 0) {
      result.reject(
          RejectionType.INVALID_ARGUMENT,
          "retries and retry back-off must be >= 0, got "
              + request.retries
              + " and "
              + request.retryBackoffMs
              + " ms");
      return;
    }
    JobValue failed = new JobValue().copyFrom(job.value);
    failed.retries = request.retries;
    failed.errorMessage = request.errorMessage;
    failed.retryBackoffMs = request.retryBackoffMs;
    failed.deadline = -1;
    failed.worker = "";
    failed.recurAt =
        request.retries > 0 && request.retryBackoffMs > 0
            ? context.nowMs() + request.retryBackoffMs
            : -1;
    result.appendEvent(key, JobIntent.FAILED, failed);
    result.respondWithLastEvent();
    if (failed.recurAt >= 0) {
      long recurAt = failed.recurAt;
      result.localSideEffect(() -> backoffs.scheduleAt(recurAt));
    } else if (failed.retries > 0) {
      push.activatable(result, key, failed);
    }
    if (request.retries == 0) {
      incidents.raise(
          result,
          ErrorType.JOB_NO_RETRIES,
          job.value.processInstanceKey,
          job.value.elementInstanceKey,
          job.value.processDefinitionKey,
          key,
          job.value.bpmnProcessId,
          job.value.elementId,
          request.errorMessage.isEmpty()
              ? "the job failed and has no retries left"
              : request.errorMessage);
    }
  }

  /**
   * A worker reports a business error: the innermost error boundary event for its code catches it
   * (terminating the task), else an incident holds the job until it is resolved.
   */
  public void throwError(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (!jobs.get(key, job)) {
      result.reject(RejectionType.NOT_FOUND, "no job with key " + key + " exists");
      return;
    }
    if (job.state == JobState.FAILED) {
      result.reject(
          RejectionType.INVALID_STATE,
          "job " + key + " failed and is not activatable, so it cannot throw an error");
      return;
    }
    request.readFrom(command.value());
    if (request.errorCode.isBlank()) {
      result.reject(RejectionType.INVALID_ARGUMENT, "throwing an error needs an error code");
      return;
    }
    try {
      JsonDocuments.variables(request.variables);
    } catch (InvalidVariablesException e) {
      result.reject(RejectionType.INVALID_ARGUMENT, e.getMessage());
      return;
    }
    JobValue thrown = new JobValue().copyFrom(job.value);
    thrown.errorCode = request.errorCode;
    thrown.errorMessage = request.errorMessage;
    thrown.variables = request.variables;
    thrown.deadline = -1;
    thrown.recurAt = -1;
    result.appendEvent(key, JobIntent.ERROR_THROWN, thrown);
    result.respondWithLastEvent();
    if (!boundaries.throwError(
        result, job.value.elementInstanceKey, request.errorCode, request.variables)) {
      incidents.raise(
          result,
          ErrorType.UNHANDLED_ERROR_EVENT,
          job.value.processInstanceKey,
          job.value.elementInstanceKey,
          job.value.processDefinitionKey,
          key,
          job.value.bpmnProcessId,
          job.value.elementId,
          "error '"
              + request.errorCode
              + "' was thrown by the job, but no boundary event catches it"
              + (request.errorMessage.isEmpty() ? "" : ": " + request.errorMessage));
    }
  }

  public void updateRetries(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (!jobs.get(key, job)) {
      result.reject(RejectionType.NOT_FOUND, "no job with key " + key + " exists");
      return;
    }
    request.readFrom(command.value());
    if (request.retries < 1) {
      result.reject(
          RejectionType.INVALID_ARGUMENT, "retries must be at least 1, got " + request.retries);
      return;
    }
    JobValue updated = new JobValue().copyFrom(job.value);
    updated.retries = request.retries;
    result.appendEvent(key, JobIntent.RETRIES_UPDATED, updated);
    result.respondWithLastEvent();
  }

  /** A worker needs more (or less) time: the deadline becomes now plus the new timeout. */
  public void updateTimeout(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (!activatedJob(key, "given a new timeout", result)) {
      return;
    }
    request.readFrom(command.value());
    if (request.timeoutMs < 1) {
      result.reject(
          RejectionType.INVALID_ARGUMENT, "a timeout must be >= 1 ms, got " + request.timeoutMs);
      return;
    }
    JobValue updated = new JobValue().copyFrom(job.value);
    updated.deadline = context.nowMs() + request.timeoutMs;
    updated.timeoutMs = 0;
    result.appendEvent(key, JobIntent.TIMEOUT_UPDATED, updated);
    result.respondWithLastEvent();
    long deadline = updated.deadline;
    result.localSideEffect(() -> deadlines.scheduleAt(deadline));
  }

  /** Written by the deadline checker; a job completed or failed meanwhile is left alone. */
  public void timeOut(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (jobs.get(key, job)
        && job.state == JobState.ACTIVATED
        && job.value.deadline <= context.nowMs()) {
      JobValue timedOut = new JobValue().copyFrom(job.value);
      timedOut.deadline = -1;
      timedOut.worker = "";
      result.appendEvent(key, JobIntent.TIMED_OUT, timedOut);
      push.activatable(result, key, timedOut);
    }
  }

  /**
   * Written after a push to a stream that was gone: the job becomes activatable again, unless it
   * was completed, failed or activated anew meanwhile (its deadline tells which activation it is).
   */
  public void yieldJob(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    request.readFrom(command.value());
    if (jobs.get(key, job)
        && job.state == JobState.ACTIVATED
        && job.value.deadline == request.deadline) {
      JobValue yielded = new JobValue().copyFrom(job.value);
      yielded.deadline = -1;
      yielded.worker = "";
      result.appendEvent(key, JobIntent.YIELDED, yielded);
      // Not pushed again at once: the stream that failed may still be listed for a moment.
      push.notifyAvailable(result, yielded.type);
    }
  }

  /** Written by the back-off checker. */
  public void recur(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (jobs.get(key, job)
        && job.state == JobState.FAILED
        && job.value.recurAt >= 0
        && job.value.recurAt <= context.nowMs()) {
      JobValue recurred = new JobValue().copyFrom(job.value);
      recurred.recurAt = -1;
      result.appendEvent(key, JobIntent.RECURRED_AFTER_BACKOFF, recurred);
      push.activatable(result, key, recurred);
    }
  }

  private boolean activatedJob(long key, String what, ProcessingResult result) {
    if (!jobs.get(key, job)) {
      result.reject(RejectionType.NOT_FOUND, "no job with key " + key + " exists");
      return false;
    }
    if (job.state != JobState.ACTIVATED) {
      result.reject(
          RejectionType.INVALID_STATE,
          "job " + key + " is not activated by a worker, so it cannot be " + what);
      return false;
    }
    return true;
  }

  public void complete(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (!jobs.get(key, job)) {
      result.reject(RejectionType.NOT_FOUND, "no job with key " + key + " exists");
      return;
    }
    if (job.state != JobState.ACTIVATED) {
      result.reject(
          RejectionType.INVALID_STATE,
          "job " + key + " is not activated by a worker, so it cannot be completed");
      return;
    }
    completion.readFrom(command.value());
    Map<String, byte[]> values;
    try {
      values = JsonDocuments.variables(completion.variables);
    } catch (InvalidVariablesException e) {
      result.reject(RejectionType.INVALID_ARGUMENT, e.getMessage());
      return;
    }
    // The event leaves the variables out: the VARIABLE events below carry each of them, and
    // repeated here they would halve the largest document a completion can carry.
    JobValue completed = new JobValue().copyFrom(job.value);
    completed.variables = new byte[0];
    result.appendEvent(key, JobIntent.COMPLETED, completed);
    metrics.jobCompleted(result, key, context.nowMs());
    result.respondWithLastEvent();
    long elementInstanceKey = job.value.elementInstanceKey;
    if (instances.get(elementInstanceKey, instance)) {
      // With output mappings, the job's variables are the task's own, for the mappings to read.
      boolean local =
          !processes
              .byKey(job.value.processDefinitionKey)
              .process()
              .element(job.value.elementId)
              .outputs()
              .isEmpty();
      if (local) {
        variables.setLocal(
            result,
            elementInstanceKey,
            job.value.processInstanceKey,
            job.value.processDefinitionKey,
            values);
      } else {
        variables.setPropagating(
            result,
            elementInstanceKey,
            job.value.processInstanceKey,
            job.value.processDefinitionKey,
            values);
      }
      result.appendCommand(
          elementInstanceKey, ProcessInstanceIntent.COMPLETE_ELEMENT, instance.value);
    }
  }

  public void activate(LoggedRecord command, ProcessingResult result) {
    batch.readFrom(command.value());
    if (batch.type.isBlank() || batch.maxJobsToActivate < 1 || batch.timeoutMs < 1) {
      result.reject(
          RejectionType.INVALID_ARGUMENT,
          "activating jobs needs a type, maxJobsToActivate >= 1 and a timeout >= 1 ms; got type '"
              + batch.type
              + "', "
              + batch.maxJobsToActivate
              + ", "
              + batch.timeoutMs
              + " ms");
      return;
    }
    long deadline = context.nowMs() + batch.timeoutMs;
    batch.jobKeys.clear();
    batch.jobs.clear();
    jobs.forEachActivatable(
        batch.type,
        jobKey -> {
          JobState.Job found = new JobState.Job();
          if (jobs.get(jobKey, found)) {
            found.value.deadline = deadline;
            found.value.worker = batch.worker;
            found.value.variables =
                JsonDocuments.document(
                    variables.visible(found.value.elementInstanceKey, batch.fetchVariables));
            batch.jobKeys.add(jobKey);
            batch.jobs.add(found.value);
            metrics.jobActivated(result, jobKey, context.nowMs());
          }
          return batch.jobs.size() < batch.maxJobsToActivate;
        });
    result.appendEvent(context.nextKey(), JobBatchIntent.ACTIVATED, batch);
    result.respondWithLastEvent();
    if (!batch.jobs.isEmpty()) {
      result.localSideEffect(() -> deadlines.scheduleAt(deadline));
    }
  }
}

package io.tern.engine.workflow.processing;

import io.tern.engine.processor.ProcessingContext;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.ValueTypes;
import io.tern.engine.workflow.ValueTypes.JobBatchIntent;
import io.tern.engine.workflow.ValueTypes.JobIntent;
import io.tern.engine.workflow.ValueTypes.ProcessInstanceIntent;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.state.JobState;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.JobValue;
import io.tern.engine.workflow.variables.InvalidVariablesException;
import io.tern.engine.workflow.variables.JsonDocuments;
import java.util.Map;

/** Job commands: activation of a batch of jobs by type, and completion. */
final class JobProcessors {
  private final ProcessingContext context;
  private final JobState jobs;
  private final ElementInstanceState instances;
  private final JobState.Job job = new JobState.Job();
  private final JobValue completion = new JobValue();
  private final ElementInstance instance = new ElementInstance();
  private final JobBatchValue batch = new JobBatchValue();

  private final VariableBehavior variables;

  JobProcessors(
      ProcessingContext context,
      JobState jobs,
      ElementInstanceState instances,
      VariableBehavior variables) {
    this.context = context;
    this.jobs = jobs;
    this.instances = instances;
    this.variables = variables;
  }

  void complete(LoggedRecord command, ProcessingResult result) {
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
    JobValue completed = new JobValue().copyFrom(job.value);
    completed.variables = completion.variables;
    result.appendEvent(key, ValueTypes.JOB, JobIntent.COMPLETED, completed);
    result.respondWithLastEvent();
    long elementInstanceKey = job.value.elementInstanceKey;
    if (instances.get(elementInstanceKey, instance)) {
      variables.setPropagating(
          result,
          elementInstanceKey,
          job.value.processInstanceKey,
          job.value.processDefinitionKey,
          values);
      result.appendCommand(
          elementInstanceKey,
          ValueTypes.PROCESS_INSTANCE,
          ProcessInstanceIntent.COMPLETE_ELEMENT,
          instance.value);
    }
  }

  void activate(LoggedRecord command, ProcessingResult result) {
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
          }
          return batch.jobs.size() < batch.maxJobsToActivate;
        });
    result.appendEvent(context.nextKey(), ValueTypes.JOB_BATCH, JobBatchIntent.ACTIVATED, batch);
    result.respondWithLastEvent();
  }
}

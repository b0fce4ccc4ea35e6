package io.tern.engine.workflow.processing.jobs;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.JobBatchIntent;
import io.tern.engine.protocol.JobIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.JobState;
import io.tern.engine.workflow.value.JobBatchValue;
import io.tern.engine.workflow.value.JobValue;
import java.util.function.ToIntFunction;

/** The appliers of job events and job batches. */
public final class JobAppliers {
  private final WorkflowState state;
  private final ElementInstance instance = new ElementInstance();
  private final JobState.Job job = new JobState.Job();
  private final JobState.Job previous = new JobState.Job();
  private final JobBatchValue batch = new JobBatchValue();

  private JobAppliers(WorkflowState state) {
    this.state = state;
  }

  public static void register(RecordProcessors on, WorkflowState state) {
    new JobAppliers(state).registerAll(on);
  }

  private void registerAll(RecordProcessors on) {
    on.onEvent(JobIntent.CREATED, this::jobCreated)
        .onEvent(JobIntent.CANCELED, event -> removeJob(event.key()))
        .onEvent(JobIntent.COMPLETED, event -> removeJob(event.key()))
        .onEvent(
            JobIntent.FAILED,
            event ->
                changeJob(
                    event,
                    value ->
                        value.retries > 0 && value.recurAt < 0
                            ? JobState.ACTIVATABLE
                            : JobState.FAILED))
        .onEvent(JobIntent.RETRIES_UPDATED, event -> changeJob(event, value -> previous.state))
        .onEvent(JobIntent.TIMED_OUT, event -> changeJob(event, v -> JobState.ACTIVATABLE))
        .onEvent(
            JobIntent.RECURRED_AFTER_BACKOFF,
            event -> changeJob(event, value -> JobState.ACTIVATABLE))
        // An uncaught error leaves the job waiting for its incident; a caught one's job is
        // canceled with its element right after.
        .onEvent(JobIntent.ERROR_THROWN, event -> changeJob(event, v -> JobState.FAILED))
        .onEvent(JobIntent.YIELDED, event -> changeJob(event, v -> JobState.ACTIVATABLE))
        .onEvent(JobIntent.TIMEOUT_UPDATED, event -> changeJob(event, v -> JobState.ACTIVATED))
        .onEvent(JobIntent.MIGRATED, event -> changeJob(event, v -> previous.state))
        .onEvent(JobBatchIntent.ACTIVATED, this::jobsActivated);
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

  /** A job event's value becomes the job's, in the state it leads to. */
  private void changeJob(LoggedRecord event, ToIntFunction<JobValue> nextState) {
    if (!state.jobs().get(event.key(), previous)) {
      throw new IllegalStateException("no job " + event.key());
    }
    job.value.readFrom(event.value());
    job.state = nextState.applyAsInt(job.value);
    state.jobs().update(event.key(), previous, job);
  }
}

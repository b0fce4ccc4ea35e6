package io.tern.engine.workflow.processing.jobs;

import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.workflow.processing.behavior.jobs.JobPushBehavior;
import io.tern.engine.workflow.processing.incidents.JobIncidentListener;
import io.tern.engine.workflow.state.JobState;

/**
 * A job's incident is resolved only once the job has retries again, and then the job, activatable
 * again, is pushed to the job streams of its type.
 */
public final class JobIncidents implements JobIncidentListener {
  private final JobState jobs;
  private final JobPushBehavior push;
  private final JobState.Job job = new JobState.Job();

  public JobIncidents(JobState jobs, JobPushBehavior push) {
    this.jobs = jobs;
    this.push = push;
  }

  @Override
  public String refusal(long incidentKey, long jobKey) {
    if (jobs.get(jobKey, job) && job.value.retries < 1) {
      return "incident "
          + incidentKey
          + " is about job "
          + jobKey
          + ", which has no retries left: update the job's retries first";
    }
    return null;
  }

  @Override
  public void resolved(ProcessingResult result, long jobKey) {
    if (jobs.get(jobKey, job) && job.state == JobState.ACTIVATABLE) {
      push.activatable(result, jobKey, job.value);
    }
  }
}

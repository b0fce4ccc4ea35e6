package io.tern.engine.workflow.processing.incidents;

import io.tern.engine.processor.ProcessingResult;

/**
 * What resolving the incident of a job means to the job. The jobs feature raises incidents, so
 * incidents must not know jobs back (the two packages once imported each other): the jobs feature
 * implements this, and the wiring hands it to {@link IncidentProcessor}.
 */
public interface JobIncidentListener {
  /**
   * Why incident {@code incidentKey} of job {@code jobKey} cannot be resolved yet (the job has no
   * retries left), or null if it can.
   */
  String refusal(long incidentKey, long jobKey);

  /** Incident of job {@code jobKey} is RESOLVED (the event is appended): the job may go on. */
  void resolved(ProcessingResult result, long jobKey);
}

package io.tern.engine.workflow.processing.incidents;

import io.tern.engine.processor.RecordProcessors;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.JobState;
import io.tern.engine.workflow.value.IncidentValue;

/** The appliers of incident events; resolving a job's incident makes the job activatable again. */
public final class IncidentAppliers {
  private final WorkflowState state;
  private final IncidentValue incident = new IncidentValue();
  private final JobState.Job job = new JobState.Job();
  private final JobState.Job previous = new JobState.Job();

  private IncidentAppliers(WorkflowState state) {
    this.state = state;
  }

  public static void register(RecordProcessors on, WorkflowState state) {
    new IncidentAppliers(state).registerAll(on);
  }

  private void registerAll(RecordProcessors on) {
    on.onEvent(
            IncidentIntent.CREATED,
            event -> state.incidents().create(event.key(), incident.readFrom(event.value())))
        .onEvent(IncidentIntent.RESOLVED, this::incidentResolved)
        // Same key, same job or element: only the definition and element it names change.
        .onEvent(
            IncidentIntent.MIGRATED,
            event -> state.incidents().create(event.key(), incident.readFrom(event.value())));
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
}

package io.tern.engine.workflow.processing.incidents;

import io.tern.engine.processor.CommandProcessor;
import io.tern.engine.processor.ProcessingResult;
import io.tern.engine.protocol.IncidentIntent;
import io.tern.engine.protocol.ProcessInstanceIntent;
import io.tern.engine.record.LoggedRecord;
import io.tern.engine.record.sbe.RejectionType;
import io.tern.engine.workflow.processing.common.WorkflowState;
import io.tern.engine.workflow.state.ElementInstance;
import io.tern.engine.workflow.state.ElementInstanceState;
import io.tern.engine.workflow.state.IncidentState;
import io.tern.engine.workflow.value.IncidentValue;

/**
 * RESOLVE: an incident is resolved, and what it held goes on. A job's incident needs retries on the
 * job first, which then becomes activatable again (the jobs feature says so, through a {@link
 * JobIncidentListener}); an element's incident tries the step that failed again.
 */
public final class IncidentProcessor implements CommandProcessor {
  private final IncidentState incidents;
  private final ElementInstanceState instances;
  private final JobIncidentListener jobIncidents;
  private final IncidentValue incident = new IncidentValue();
  private final ElementInstance instance = new ElementInstance();

  public IncidentProcessor(WorkflowState state, JobIncidentListener jobIncidents) {
    this.incidents = state.incidents();
    this.instances = state.instances();
    this.jobIncidents = jobIncidents;
  }

  @Override
  public void process(LoggedRecord command, ProcessingResult result) {
    long key = command.key();
    if (!incidents.get(key, incident)) {
      result.reject(RejectionType.NOT_FOUND, "no incident with key " + key + " exists");
      return;
    }
    String refusal = incident.jobKey >= 0 ? jobIncidents.refusal(key, incident.jobKey) : null;
    if (refusal != null) {
      result.reject(RejectionType.INVALID_STATE, refusal);
      return;
    }
    result.appendEvent(key, IncidentIntent.RESOLVED, incident);
    result.respondWithLastEvent();
    if (incident.jobKey >= 0) {
      jobIncidents.resolved(result, incident.jobKey);
    }
    if (incident.jobKey < 0 && instances.get(incident.elementInstanceKey, instance)) {
      // Try the step that failed again: an element that could not be entered (a timer that could
      // not be evaluated) is activated again, one that could not be left (an exclusive gateway
      // without a matching flow, an uncaught error end event) completes again.
      if (instance.state == ProcessInstanceIntent.ELEMENT_ACTIVATING) {
        result.appendCommand(
            incident.elementInstanceKey, ProcessInstanceIntent.ACTIVATE_ELEMENT, instance.value);
      } else if (instance.state == ProcessInstanceIntent.ELEMENT_ACTIVATED) {
        result.appendCommand(
            incident.elementInstanceKey, ProcessInstanceIntent.COMPLETE_ELEMENT, instance.value);
      }
    }
  }
}
